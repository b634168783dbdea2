#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# futexctn: a thread blocking 20 times on a pthread mutex another thread
# holds for 12 ms waits 20 times at that mutex's address, in the 8-16 ms
# bucket, with its stack in libc's lock wait; --lock keeps that lock
# alone; text; bad input.

bats_require_minimum_version 1.5.0
load helpers
load futex

setup() {
	require_root
	JOBS=
	CG=
}

# A failed test's helper, stopped or running, goes too: bats waits for it.
eval "helpers_$(declare -f teardown)"
teardown() {
	helpers_teardown
	[ -z "$JOBS" ] || kill -KILL $JOBS 2>/dev/null || true
	wait 2>/dev/null || true
	drop_test_cgroups
}

@test "futexctn: 20 waits of 12 ms on one mutex, at its address, in the 8-16 ms bucket" {
	mutex_held 20 12 futexctn -j
	jq -c --arg l "$LOCK" 'select(.lock == $l)' "$OUT" >"$BATS_TEST_TMPDIR/lock"
	# One histogram for the mutex (one waiter, one stack), for that process.
	[ "$(jq -s 'length' "$BATS_TEST_TMPDIR/lock")" = 1 ]
	jq -e --argjson p "$PID" '.pid == $p and .comm == "mutex-hold" and
		.unit == "usecs" and .stack_lost == false and
		.stack[0] == "__lll_lock_wait"' "$BATS_TEST_TMPDIR/lock"
	n=$(jq '.count' "$BATS_TEST_TMPDIR/lock")
	in_bucket=$(jq '[.buckets[] | select(.min == 8192 and .max == 16383) | .count] | add // 0' \
		"$BATS_TEST_TMPDIR/lock")
	echo "# $n waits on $LOCK, $in_bucket of them 8192-16383 us" >&3
	# Each round's wait, no more (a waiter late by 12 ms finds it free).
	[ "$n" -le 20 ]
	[ "$n" -ge 18 ]
	[ "$in_bucket" -ge $((n * 8 / 10)) ]
}

@test "futexctn: --lock keeps that futex alone; text shows pid, comm, lock and stack" {
	mutex_held 5 12 futexctn
	# The helper's semaphores are futexes too: without --lock, several.
	[ "$(grep -c "^pid = $PID mutex-hold lock = " "$OUT")" -ge 2 ]
	grep -qx "pid = $PID mutex-hold lock = $LOCK" "$OUT"
	grep -qx '    __lll_lock_wait' "$OUT"
	grep -Eq '^ +8192 -> 16383 +: [0-9]+ ' "$OUT"

	mutex_held 5 12 futexctn --lock @LOCK
	[ "$(grep -c '^pid = ' "$OUT")" = 1 ]
	grep -qx "pid = $PID mutex-hold lock = $LOCK" "$OUT"
}

@test "futexctn: --cgroup counts a cgroup's futex waits, not its sibling's" {
	local out a b v lock
	test_cgroups
	for v in a b; do
		out=$BATS_TEST_TMPDIR/mutex-hold-$v
		"$HELPERS/mutex-hold" 5 12 >"$out" &
		JOBS+=" $!"
		wait_for "$out" '^0x[0-9a-f]+$' 5
	done
	a=$(head -1 "$BATS_TEST_TMPDIR/mutex-hold-a")
	b=$(head -1 "$BATS_TEST_TMPDIR/mutex-hold-b")
	echo "$a" >"$CG/in/cgroup.procs"
	echo "$b" >"$CG/out/cgroup.procs"
	start_tool futexctn -j --cgroup "$CG/in"
	kill -CONT "$a" "$b"
	wait_for "$BATS_TEST_TMPDIR/mutex-hold-a" '^done$' 10
	wait_for "$BATS_TEST_TMPDIR/mutex-hold-b" '^done$' 10
	stop_tool
	kill -CONT "$a" "$b"
	wait $JOBS
	JOBS=
	[ "$TOOL_STATUS" = 0 ]
	# a's mutex waits show; no record is b's, nor anyone else's.
	lock=$(sed -n 2p "$BATS_TEST_TMPDIR/mutex-hold-a")
	jq -es --argjson p "$a" --arg l "$lock" 'map(select(.pid == $p and .lock == $l)) | length == 1' "$OUT"
	jq -es --argjson p "$a" 'map(select(.type == null)) | all(.pid == $p)' "$OUT"
}

@test "futexctn: bad input exits 2 with one line and no output" {
	for args in "--lock xyz" "--lock 0" "--lock 0x10q" "0" "1 2 3"; do
		run --separate-stderr "$BIN/futexctn" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "futexctn: "* ]]
	done
}
