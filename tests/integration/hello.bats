#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hello: each execve writes "Hello World" to the trace pipe; hello prints
# its own lines as "<comm>-<pid> [cpu] flags timestamp: Hello World".

load helpers

setup() {
	require_root
}

# exec_as COMM: a process named COMM calls execve (on a missing file, so
# it keeps its name), and its pid is printed.
exec_as() {
	"$HELPERS/execas" "$1" /nonexistent 2>/dev/null || true
}

# line PID: the extended regex of that process's line. Which command name
# stands before the pid is the trace buffer's business, from its cache of
# pid -> command: "<...>" for a pid it has not yet seen switch out, and an
# earlier command for a pid reused since (the suite forks tens of
# thousands of processes, so pids wrap). The tests filter by name in the
# kernel (-c) where they count lines.
line() {
	echo "^.+-$1 +\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: Hello World\$"
}

@test "hello: an exec prints Hello World with its command and pid" {
	start_tool hello
	comm=$(unique_comm)
	pid=$(exec_as "$comm")
	wait_for "$OUT" "$(line "$pid")" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# Only our lines, none with the tag left in.
	refute grep -v 'Hello World$' "$OUT"
	refute grep -q 'hello/' "$OUT"
}

@test "hello: -u shows that user's execs and no one else's" {
	start_tool hello -u 65534
	comm=$(unique_comm)
	root=$(exec_as "$comm")
	pid=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HELPERS/execas" "$comm" /nonexistent 2>/dev/null || true)
	wait_for "$OUT" "$(line "$pid")" 5
	stop_tool
	refute grep -q -- "-$root " "$OUT"
}

@test "hello: --count stops after that many lines" {
	comm=$(unique_comm)
	start_tool hello -c "$comm" --count 2
	exec_as "$comm" >/dev/null
	exec_as "$comm" >/dev/null
	exec_as "$comm" >/dev/null
	# It exits by itself: wait until it is gone or a zombie, then reap it.
	for ((i = 0; i < 100; i++)); do
		[[ "$(ps -o stat= -p "$TOOL_PID")" != [^Z]* ]] && break
		sleep 0.05
	done
	[ "$i" -lt 100 ]
	wait "$TOOL_PID"
	TOOL_PID=
	[ "$(grep -Ec "$(line '[0-9]+')" "$OUT")" = 2 ]
	[ "$(wc -l <"$OUT")" = 2 ]
}

@test "hello: lines written just before SIGINT are still printed" {
	comm=$(unique_comm)
	start_tool hello -c "$comm"
	# Stopped, the tool cannot read: the lines wait in the trace pipe
	# until SIGINT, which it sees first thing when continued.
	kill -STOP "$TOOL_PID"
	for ((i = 0; i < 20; i++)); do
		exec_as "$comm" >/dev/null
	done
	kill -INT "$TOOL_PID"
	stop_tool CONT
	[ "$TOOL_STATUS" = 0 ]
	[ "$(grep -Ec "$(line '[0-9]+')" "$OUT")" = 20 ]
}

@test "hello: --duration stops it with status 0" {
	run "$BIN/hello" -d 0.3
	[ "$status" = 0 ]
}

@test "hello: a bad --count is a usage error" {
	run "$BIN/hello" --count 0
	[ "$status" = 2 ]
	[ "$output" = "hello: invalid -n/--count '0': expected a whole number from 1 to 18446744073709551615" ]
}
