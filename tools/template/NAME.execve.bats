#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# @NAME@: each @TRACEPOINT@ arrives as "<pid> <ppid> <uid> <comm>".
# Made by tools/new-tool. The trigger is $HELPERS/execas, which names itself
# with a unique command, prints its pid and execs /bin/true.

load helpers

setup() {
	require_root
}

# exec_as COMM: run $HELPERS/execas as COMM, a child of this shell
# ($BASHPID); set PID to its pid.
exec_as() {
	"$HELPERS/execas" "$1" /bin/true >"$BATS_TEST_TMPDIR/execas"
	read -r PID <"$BATS_TEST_TMPDIR/execas"
}

@test "@NAME@: an exec arrives with its pid, ppid, uid and comm" {
	start_tool @NAME@
	comm=$(unique_comm)
	exec_as "$comm"
	wait_for "$OUT" "^$PID +$BASHPID +0 +$comm\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +PPID +UID +COMM$'
	grep -Eq '^@NAME@: [0-9]+ events, 0 lost$' "$ERR"
}

@test "@NAME@: -c keeps that command only; -j prints the same fields" {
	comm=$(unique_comm)
	start_tool @NAME@ -c "$comm" -j
	exec_as "x${comm:1}"
	exec_as "$comm"
	wait_for "$OUT" "\"comm\":\"$comm\"" 5
	stop_tool
	jq -es --argjson p "$PID" --argjson pp "$BASHPID" --arg c "$comm" '
		map(select(.type == null) | del(.cgroup_id, .mntns, .pidns, .pidns_pid)) ==
			[{pid: $p, ppid: $pp, uid: 0, comm: $c}]
	' "$OUT"
}
