#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hello-buffer: each execve arrives as "<pid> <uid> <command> Hello World".

load helpers

setup() {
	require_root
}

@test "hello-buffer: an exec arrives with its pid, uid and command" {
	start_tool hello-buffer
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm Hello World\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -Eq '^hello-buffer: [0-9]+ events, 0 lost$' "$ERR"
}

@test "hello-buffer: an exec by another uid carries that uid" {
	start_tool hello-buffer
	comm=$(unique_comm)
	pid=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 65534 $comm Hello World\$" 5
	stop_tool
}

@test "hello-buffer: the ring buffer delivers the same line" {
	start_tool hello-buffer --ringbuf
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm Hello World\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "hello-buffer: -j prints valid JSON with the same fields" {
	start_tool hello-buffer -j
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "\"command\":\"$comm\"" 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$pid" '
		map(select(.command == $c)) | length == 1 and
		(.[0] | .pid == $p and .uid == 0 and .message == "Hello World"
		 and (keys - ["pid", "uid", "command", "message", "cgroup_id",
			"mntns", "pidns", "pidns_pid"]) == [])
	' "$OUT"
	jq -es 'map(select(.type == "summary")) | length == 1 and
		.[0].events >= 1 and .[0].lost == 0' "$OUT"
}

@test "hello-buffer: --duration stops it with status 0" {
	run "$BIN/hello-buffer" -d 0.5
	[ "$status" = 0 ]
	[[ "$output" == *"events, 0 lost"* ]]
}

@test "hello-buffer: the seed's plain lines have no header; -T adds one" {
	comm=$(unique_comm)
	start_tool hello-buffer -c "$comm"
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm Hello World\$" 5
	stop_tool
	[ "$(cat "$OUT")" = "$pid 0 $comm Hello World" ]
	start_tool hello-buffer -T
	stop_tool
	[ "$(head -1 "$OUT")" = "TIME     PID UID COMMAND MESSAGE" ]
}
