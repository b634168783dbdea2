#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Wakeups: a lone event is delivered at once, not at the next timed flush,
# while storms stay batched (tools/bench's latency and delivery rows
# measure both).

load helpers
bats_require_minimum_version 1.5.0

setup() {
	require_root
	COMM=$(unique_comm)
	cp /bin/true "$BATS_TEST_TMPDIR/$COMM"
}

# lone_exec ARG...: with flushes 30 s apart, a lone exec is still printed
# within 2 s (times BPFKIT_TIME_SCALE): the BPF side woke the reader.
lone_exec() {
	start_tool execsnoop --latency 30000 -c "$COMM" "$@"
	sleep 0.5
	"$BATS_TEST_TMPDIR/$COMM"
	wait_for "$OUT" "^$COMM " 2
	stop_tool
}

@test "wakeup: a lone event is not held until the next flush (perf buffer)" {
	lone_exec
}

@test "wakeup: a lone event is not held until the next flush (--ringbuf)" {
	lone_exec --ringbuf
}
