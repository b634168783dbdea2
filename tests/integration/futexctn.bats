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
}

# A failed test's helper, stopped or running, goes too: bats waits for it.
eval "helpers_$(declare -f teardown)"
teardown() {
	helpers_teardown
	[ -z "$JOBS" ] || kill -KILL $JOBS 2>/dev/null || true
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

@test "futexctn: bad input exits 2 with one line and no output" {
	for args in "--lock xyz" "--lock 0" "--lock 0x10q" "0" "1 2 3"; do
		run --separate-stderr "$BIN/futexctn" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "futexctn: "* ]]
	done
}
