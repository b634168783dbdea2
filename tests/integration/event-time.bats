#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Event times: -t, -T and JSON times are the kernel's time of each record,
# not the time it was printed, on both transports and under batching.

load helpers
bats_require_minimum_version 1.5.0

# Under a unique name, the helper's children have a unique command name
# until they exec (hello-buffer sees them at execve's entry), the true they
# run another (execsnoop sees it at execve's return).
setup() {
	require_root
	COMM=$(unique_comm)
	PAIR=$(unique_comm)
	cp /bin/true "$BATS_TEST_TMPDIR/$COMM"
	cp "$HELPERS/exec-pair" "$BATS_TEST_TMPDIR/$PAIR"
}

# exec_pair: two execs of the unique true, at least 50 ms apart; set PID1,
# PID2, GAP_US, the gap between their execve calls as the helper measured
# it, and LOW_US and HIGH_US, the least and most two events can be apart
# that happened one in each exec, between its execve call and its exit.
exec_pair() {
	local t1 d1 t2 d2
	{
		read -r PID1 t1 d1
		read -r PID2 t2 d2
	} < <("$BATS_TEST_TMPDIR/$PAIR" 50 "$BATS_TEST_TMPDIR/$COMM")
	GAP_US=$(((t2 - t1) / 1000))
	LOW_US=$(((t2 - d1) / 1000))
	HIGH_US=$(((d2 - t1) / 1000))
}

# check_gap SHOWN_US: the gap the tool shows is one its two events can
# have had, give or take 2 ms for the times' rounding. On a quiet machine
# that is the real gap within a few ms; print times would be bunched into
# the --latency (100 ms) flushes: 0 or 100 ms apart.
check_gap() {
	echo "# real gap ${GAP_US} us, events ${LOW_US}-${HIGH_US} us apart, shown $1 us" >&3
	[ "$GAP_US" -ge 50000 ]
	[ "$1" -ge $((LOW_US - 2000)) ] && [ "$1" -le $((HIGH_US + 2000)) ]
}

# json_gap: the gap between the two execs' "ts" in $OUT, in microseconds.
json_gap() {
	jq -es --argjson a "$PID1" --argjson b "$PID2" '
		(map(select(.pid == $a))[0].ts) as $t1 |
		(map(select(.pid == $b))[0].ts) as $t2 |
		($t2 - $t1) * 1e6 | round' "$OUT"
}

@test "event time: two execs 50 ms apart are 50 ms apart in -j -t (perf buffer)" {
	start_tool hello-buffer -j -t -c "$PAIR"
	exec_pair
	wait_for "$OUT" "\"pid\":$PID2," 5
	stop_tool
	check_gap "$(json_gap)"
}

@test "event time: two execs 50 ms apart are 50 ms apart in -j -t (--ringbuf)" {
	start_tool hello-buffer --ringbuf -j -t -c "$PAIR"
	exec_pair
	wait_for "$OUT" "\"pid\":$PID2," 5
	stop_tool
	check_gap "$(json_gap)"
}

# execsnoop stamps an exec as it returns, before the child exits.
@test "event time: execsnoop's -t column shows the execs' own times" {
	local t1 t2
	start_tool execsnoop -t -c "$COMM"
	exec_pair
	wait_for "$OUT" " $PID2 " 5
	stop_tool
	t1=$(awk -v p="$PID1" '$3 == p { print $1 }' "$OUT")
	t2=$(awk -v p="$PID2" '$3 == p { print $1 }' "$OUT")
	check_gap "$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%d", (b - a) * 1e6 }')"
}
