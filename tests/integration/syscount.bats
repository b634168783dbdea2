#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# syscount: a controlled child's exact numbers of getppid(2) and failing
# close(2) calls are counted per syscall and per process; -L, -x, -e, -s,
# -T and -j behave.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	GO=$BATS_TEST_TMPDIR/go
	JOBS=
}

# trigger VAR N [M]: start sysc-trigger waiting for $GO; set VAR to its pid
# and VAR_COMM to its comm.
trigger() {
	local comm out=$BATS_TEST_TMPDIR/$1
	comm=$(unique_comm)
	"$HELPERS/sysc-trigger" "$comm" "$GO" "${@:2}" >"$out" &
	JOBS+=" $!"
	wait_for "$out" '^[0-9]+$' 5
	printf -v "$1" %s "$(head -1 "$out")"
	printf -v "$1_COMM" %s "$comm"
}

# go: let the triggers run, wait for them, then stop the tool.
go() {
	touch "$GO"
	wait $JOBS
	rm "$GO"
	JOBS=
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "syscount: -p counts exactly the child's getppid calls" {
	trigger A 1234 7
	start_tool syscount -p "$A" -T 0
	go
	head -1 "$OUT" | grep -Eq '^SYSCALL +COUNT$'
	[ "$(awk '$1 == "getppid" { print $2 }' "$OUT")" = 1234 ]
	[ "$(awk '$1 == "close" { print $2 }' "$OUT")" = 7 ]
	# Sorted by count, most frequent first.
	sort -s -k2,2nr <(tail -n +2 "$OUT") | cmp - <(tail -n +2 "$OUT")
}

@test "syscount: -L adds total and average latency" {
	trigger A 500
	start_tool syscount -p "$A" -L
	go
	head -1 "$OUT" | grep -Eq '^SYSCALL +COUNT +TOTAL\(us\) +AVG\(us\)$'
	awk '$1 == "getppid"' "$OUT" |
		grep -Eq '^getppid +500 +[0-9]+\.[0-9]{3} +[0-9]+\.[0-9]{3}$'
}

@test "syscount: -P shows each process with its count; -s filters" {
	trigger A 300
	trigger B 45
	start_tool syscount -P -s getppid
	go
	head -1 "$OUT" | grep -Eq '^PID +COMM +COUNT$'
	[ "$(awk -v p="$A" '$1 == p { print $2, $3 }' "$OUT")" = "$A_COMM 300" ]
	[ "$(awk -v p="$B" '$1 == p { print $2, $3 }' "$OUT")" = "$B_COMM 45" ]
}

@test "syscount: -x and -e count failed syscalls only" {
	trigger A 200 9
	start_tool syscount -p "$A" -x
	go
	[ "$(awk '$1 == "close" { print $2 }' "$OUT")" = 9 ]
	! grep -q '^getppid ' "$OUT" || false

	trigger B 200 11
	start_tool syscount -p "$B" -e EBADF
	go
	[ "$(tail -n +2 "$OUT")" = "$(printf '%-23s %10s' close 11)" ]
}

@test "syscount: -j prints one valid object per interval" {
	trigger A 321
	start_tool syscount -j -L -p "$A" -s getppid
	go
	jq -es '
		length == 1 and .[0].interval == 1 and .[0].seconds > 0 and
		(.[0].syscalls | length == 1) and
		(.[0].syscalls[0] | .name == "getppid" and .nr >= 0 and
			.count == 321 and .total_ns > 0 and
			.avg_ns == (.total_ns / 321 | floor))
	' "$OUT"

	trigger B 77
	start_tool syscount -j -P -p "$B" -T 1
	go
	jq -es --argjson p "$B" --arg c "$B_COMM" '
		length == 1 and (.[0].processes | length == 1) and
		(.[0].processes[0] | .pid == $p and .comm == $c and
			.count > 77)
	' "$OUT"
}

@test "syscount: -L still times every call after 70000 processes exited" {
	# exit_group(2) never returns: each exit must not leave a start time
	# behind, keyed by a pid that never comes back, until the map is full.
	# Pids must not wrap within the 70000 for that: give them room.
	pid_max=$(cat /proc/sys/kernel/pid_max)
	[ "$pid_max" -ge 262144 ] || echo 262144 >/proc/sys/kernel/pid_max
	comm=$(unique_comm)
	start_tool syscount -L -j -c "$comm"
	churn=0
	"$HELPERS/fork-churn" "$comm" 70000 >/dev/null || churn=$?
	echo "$pid_max" >/proc/sys/kernel/pid_max
	[ "$churn" = 0 ]
	# A fresh process of the same name, after them.
	touch "$GO"
	"$HELPERS/sysc-trigger" "$comm" "$GO" 1000 >/dev/null
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# Untimed: only the two prctl(2) calls that took the name, entered
	# under another one; the 70000 children's returns from vfork are none.
	jq -es '
		length == 1 and .[0].untimed == 2 and
		(.[0].syscalls | map(select(.name == "getppid")) |
			length == 1 and .[0].count == 1000)
	' "$OUT"
	grep -q '^syscount: 2 syscalls could not be timed, ' "$ERR"
}

@test "syscount: -i prints a table per interval; -d stops it" {
	run --separate-stderr "$BIN/syscount" -i 1 -d 2.5 -T 2
	[ "$status" = 0 ]
	[ "$(grep -c '^SYSCALL ' <<<"$output")" = 3 ]
	[ "$(grep -Ec '^\[[0-9:]{8}\]$' <<<"$output")" = 3 ]
}

@test "syscount: bad options exit 2 with one line and no output" {
	for args in "-T x" "-i 0" "-s nosuchcall" "-e EFOO" "-e 0"; do
		run --separate-stderr "$BIN/syscount" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "syscount: invalid "* ]]
	done
}

@test "syscount: its counts map allocates at run time only from Linux 6.1" {
	# Before 6.1 a tracing program's map with BPF_F_NO_PREALLOC makes
	# the kernel print a WARNING and taint itself: there the per-CPU
	# counts map (type 5) is preallocated.
	local major minor want=0
	start_tool syscount
	flags=$(awk '/^map_type:/ { t = $2 } /^map_flags:/ && t == 5 { print $2 }' \
		/proc/"$TOOL_PID"/fdinfo/*)
	stop_tool
	IFS=. read -r major minor _ <<<"$(uname -r)"
	if ((major > 6 || (major == 6 && minor >= 1))); then
		want=1
	fi
	[ "$(wc -w <<<"$flags")" = 1 ]
	[ $((flags & 1)) = "$want" ]
}
