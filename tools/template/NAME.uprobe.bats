#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# @NAME@: each call of @PROBE@() arrives as "<pid> <ppid> <uid> <comm>".
# Made by tools/new-tool. The test builds a small helper that defines a
# function @PROBE@ of its own and calls it once, then traces that helper
# (--binary) instead of @BINARY@ and looks for the helper's pid.

load helpers

# Build the helper once for the file: cc from tools/deps.sh build.
setup_file() {
	export CALLER=$BATS_FILE_TMPDIR/@NAME@-caller
	# The function gets its symbol name from the asm label, so that no
	# header's declaration of @PROBE@ clashes with it.
	${CC:-cc} -O2 -o "$CALLER" -x c - <<'C'
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline, used)) void traced(void) __asm__("@PROBE@");
void traced(void)
{
	__asm__ volatile("" ::: "memory");
}

int main(void)
{
	printf("%d\n", getpid());
	fflush(stdout);
	traced();
	return 0;
}
C
}

setup() {
	require_root
}

# call_it: run the helper once, a child of this shell ($BASHPID); set
# CALLED to its pid.
call_it() {
	"$CALLER" >"$BATS_TEST_TMPDIR/caller"
	read -r CALLED <"$BATS_TEST_TMPDIR/caller"
}

@test "@NAME@: a call of @PROBE@() arrives with the caller's pid, ppid, uid and comm" {
	start_tool @NAME@ --binary "$CALLER"
	call_it
	comm=$(basename "$CALLER" | cut -c1-15)
	wait_for "$OUT" "^$CALLED +$BASHPID +0 +$comm\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +PPID +UID +COMM$'
	grep -Eq '^@NAME@: [0-9]+ events, 0 lost$' "$ERR"
}

@test "@NAME@: -j prints the same fields as JSON" {
	start_tool @NAME@ --binary "$CALLER" -j
	call_it
	wait_for "$OUT" "\"pid\":$CALLED," 5
	stop_tool
	comm=$(basename "$CALLER" | cut -c1-15)
	jq -es --argjson p "$CALLED" --argjson pp "$BASHPID" --arg c "$comm" '
		map(select(.type == null)) | length == 1 and
		all(.[]; del(.cgroup_id, .mntns, .pidns, .pidns_pid) ==
			{pid: $p, ppid: $pp, uid: 0, comm: $c})
	' "$OUT"
}

@test "@NAME@: a binary without @PROBE@() is refused in one line" {
	run "$BIN/@NAME@" --binary /bin/true -d 1
	[ "$status" = 1 ]
	[ "$output" = "@NAME@: /bin/true has no function @PROBE@ (nm -D /bin/true lists its symbols); give a binary that has it" ]
}
