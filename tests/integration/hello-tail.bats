#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hello-tail: tail calls turn a child's timer syscalls and exec into lines
# "PID UID COMM MESSAGE".

load helpers

setup() {
	require_root
}

# run_timers COMM: run hello-timers at once; sets $pid.
run_timers() {
	pid=$("$HELPERS/hello-timers" "$1" </dev/null)
}

# line PID COMM MESSAGE: the extended regex of one output line.
line() {
	echo "^$1 +0 +$2 +$3\$"
}

@test "hello-tail: a child's timer syscalls and exec, in order" {
	start_tool hello-tail
	comm=$(unique_comm)
	run_timers "$comm"
	wait_for "$OUT" "$(line "$pid" "$comm" 'Executing a program')" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +UID +COMM +MESSAGE$'
	# The shell's exec of the child ran under its old name: skip it.
	run grep -E "^$pid +0 +$comm " "$OUT"
	[ "${#lines[@]}" = 4 ]
	[[ "${lines[0]}" =~ $(line "$pid" "$comm" 'Creating a timer') ]]
	[[ "${lines[1]}" =~ $(line "$pid" "$comm" 'Some other timer operation') ]]
	[[ "${lines[2]}" =~ $(line "$pid" "$comm" 'Deleting a timer') ]]
	[[ "${lines[3]}" =~ $(line "$pid" "$comm" 'Executing a program') ]]
	grep -Eq '^hello-tail: [0-9]+ events, 0 lost$' "$ERR"
}

@test "hello-tail: -p follows a waiting child and only it" {
	fifo=$BATS_TEST_TMPDIR/go
	mkfifo "$fifo"
	comm=$(unique_comm)
	"$HELPERS/hello-timers" "$comm" <"$fifo" >"$BATS_TEST_TMPDIR/pid" &
	child=$!
	exec {go}>"$fifo"
	wait_for "$BATS_TEST_TMPDIR/pid" '^[0-9]+$' 5
	start_tool hello-tail -p "$child"
	other=$(unique_comm)x
	run_timers "$other"
	echo >&"$go"
	exec {go}>&-
	wait "$child"
	wait_for "$OUT" "$(line "$child" "$comm" 'Executing a program')" 5
	stop_tool
	# The header and the child's four lines; nothing of the other child.
	[ "$(wc -l <"$OUT")" = 5 ]
	grep -Eq "$(line "$child" "$comm" 'Deleting a timer')" "$OUT"
	refute grep -q "$other" "$OUT"
}

@test "hello-tail: -c excludes other commands" {
	comm=$(unique_comm)
	start_tool hello-tail -c "$comm"
	run_timers "$(unique_comm)y"
	other=$pid
	run_timers "$comm"
	wait_for "$OUT" "$(line "$pid" "$comm" 'Executing a program')" 5
	stop_tool
	grep -Eq "$(line "$pid" "$comm" 'Creating a timer')" "$OUT"
	refute grep -Eq "^$other " "$OUT"
}

@test "hello-tail: --all names the other syscalls" {
	comm=$(unique_comm)
	start_tool hello-tail --all -c "$comm"
	run_timers "$comm"
	wait_for "$OUT" "$(line "$pid" "$comm" 'Executing a program')" 5
	stop_tool
	grep -Eq "$(line "$pid" "$comm" 'Another syscall: getppid')" "$OUT"
	grep -Eq "$(line "$pid" "$comm" 'Creating a timer')" "$OUT"
	# Timer syscalls and execs are never "another syscall".
	refute grep -Eq 'Another syscall: (timer_|execve)' "$OUT"
}

@test "hello-tail: -j prints every field, numbers as numbers" {
	comm=$(unique_comm)
	start_tool hello-tail -j -c "$comm" --ringbuf
	run_timers "$comm"
	wait_for "$OUT" '"message":"Executing a program"' 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$pid" '
		map(select(.comm == $c)) | length == 4 and
		all(.pid == $p and .uid == 0) and
		(map(.syscall) == ["timer_create", "timer_settime",
				   "timer_delete", "execve"]) and
		.[0].nr == 222 and .[1].message == "Some other timer operation"
	' "$OUT"
}

@test "hello-tail: an unknown option is a usage error" {
	run "$BIN/hello-tail" --bogus
	[ "$status" = 2 ]
	[ "$output" = "hello-tail: unknown option '--bogus'; see 'hello-tail --help'" ]
}
