#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# @NAME@: each @TRACEPOINT@ arrives as "<pid> <ppid> <uid> <comm>".
# Made by tools/new-tool. The trigger is $HELPERS/newtool-callsys, which
# prints its pid, waits for SIGUSR1, then makes syscall @NR@ (@SYSCALL@ on
# the machine that made this file) with all-zero arguments; this shell
# ($BASHPID) is its parent.

load helpers

setup() {
	require_root
}

# start_caller VAR: start a newtool-callsys, wait until it is ready, and
# put its pid in VAR. `kill -USR1` makes it call @SYSCALL@ and exit.
start_caller() {
	"$HELPERS/newtool-callsys" @NR@ >"$BATS_TEST_TMPDIR/$1" &
	wait_for "$BATS_TEST_TMPDIR/$1" '^[0-9]+$' 5
	read -r "$1" <"$BATS_TEST_TMPDIR/$1"
}

@test "@NAME@: -p shows that process's @SYSCALL@ with pid, ppid, uid and comm" {
	start_caller other
	start_caller pid
	start_tool @NAME@ -p "$pid"
	kill -USR1 "$other"
	wait "$other" || true
	kill -USR1 "$pid"
	wait_for "$OUT" "^$pid +$BASHPID +0 +newtool-callsys\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +PPID +UID +COMM$'
	[ "$(grep -Ec "^$other " "$OUT")" = 0 ]
	grep -Eq '^@NAME@: [0-9]+ events, 0 lost$' "$ERR"
}

@test "@NAME@: -j prints the same fields as JSON" {
	start_caller pid
	start_tool @NAME@ -p "$pid" -j
	kill -USR1 "$pid"
	wait_for "$OUT" "\"pid\":$pid," 5
	stop_tool
	jq -es --argjson p "$pid" --argjson pp "$BASHPID" '
		map(select(.type == null)) | length >= 1 and
		all(.[]; del(.cgroup_id, .mntns, .pidns, .pidns_pid) ==
			{pid: $p, ppid: $pp, uid: 0, comm: "newtool-callsys"})
	' "$OUT"
}
