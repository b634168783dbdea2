#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# @NAME@: each USDT probe @PROVIDER@:@PROBE@ arrives as "<pid> <ppid> <uid> <comm>".
# Made by tools/new-tool. The test builds a small helper with a probe
# @PROVIDER@:@PROBE@ of its own (<sys/sdt.h>, from systemtap-sdt-dev) that
# it passes once, then traces that helper (--binary) instead of @BINARY@
# and looks for the helper's pid.

load helpers

# Build the helper once for the file: cc and <sys/sdt.h> from tools/deps.sh.
setup_file() {
	export PASSER=$BATS_FILE_TMPDIR/@NAME@-passer
	${CC:-cc} -O2 -o "$PASSER" -x c - <<'C' || true
#include <stdio.h>
#include <unistd.h>
#include <sys/sdt.h>

int main(void)
{
	printf("%d\n", getpid());
	fflush(stdout);
	DTRACE_PROBE(@PROVIDER@, @PROBE@);
	return 0;
}
C
}

setup() {
	require_root
	[ -x "$PASSER" ] ||
		skip "could not build the helper: needs cc and <sys/sdt.h> (systemtap-sdt-dev; tools/deps.sh test)"
}

# pass_it: run the helper once, a child of this shell ($BASHPID); set
# PASSED to its pid.
pass_it() {
	"$PASSER" >"$BATS_TEST_TMPDIR/passer"
	read -r PASSED <"$BATS_TEST_TMPDIR/passer"
}

@test "@NAME@: the probe @PROVIDER@:@PROBE@ arrives with the helper's pid, ppid, uid and comm" {
	start_tool @NAME@ --binary "$PASSER"
	pass_it
	comm=$(basename "$PASSER" | cut -c1-15)
	wait_for "$OUT" "^$PASSED +$BASHPID +0 +$comm\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +PPID +UID +COMM$'
	grep -Eq '^@NAME@: [0-9]+ events, 0 lost$' "$ERR"
}

@test "@NAME@: -j prints the same fields as JSON" {
	start_tool @NAME@ --binary "$PASSER" -j
	pass_it
	wait_for "$OUT" "\"pid\":$PASSED," 5
	stop_tool
	comm=$(basename "$PASSER" | cut -c1-15)
	jq -es --argjson p "$PASSED" --argjson pp "$BASHPID" --arg c "$comm" '
		map(select(.type == null)) | length == 1 and
		all(.[]; del(.cgroup_id, .mntns, .pidns, .pidns_pid) ==
			{pid: $p, ppid: $pp, uid: 0, comm: $c})
	' "$OUT"
}

@test "@NAME@: a binary without the probe is refused in one line" {
	run "$BIN/@NAME@" --binary /bin/true -d 1
	[ "$status" = 1 ]
	[ "$output" = "@NAME@: /bin/true has no USDT probe @PROVIDER@:@PROBE@ (readelf -n /bin/true lists its probes); give a binary built with it" ]
}
