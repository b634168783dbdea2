#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# @NAME@: each @TRACEPOINT@ arrives as "<pid> <uid> <comm>".
# Made by tools/new-tool. The trigger is $HELPERS/execas, which names itself
# with a unique command, prints its pid and execs /bin/true.

load helpers

setup() {
	require_root
}

@test "@NAME@: an exec arrives with its pid, uid and comm" {
	start_tool @NAME@
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid +0 +$comm\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +UID +COMM$'
	grep -Eq '^@NAME@: [0-9]+ events, 0 lost$' "$ERR"
}

@test "@NAME@: -c keeps that command only; -j prints the same fields" {
	comm=$(unique_comm)
	start_tool @NAME@ -c "$comm" -j
	"$HELPERS/execas" "x${comm:1}" /bin/true >/dev/null
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "\"comm\":\"$comm\"" 5
	stop_tool
	jq -es --argjson p "$pid" --arg c "$comm" '
		map(select(.type == null)) == [{pid: $p, uid: 0, comm: $c}]
	' "$OUT"
}
