#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# funclatency: a helper's function that sleeps 10 ms fills the 8-15 ms
# bucket, once per call; -p keeps one of two processes' calls; bad input
# is refused in one line.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	SLEEPER=$HELPERS/func-sleep
	GO=$BATS_TEST_TMPDIR/go
}

teardown() {
	if [ -n "${TOOL_PID:-}" ]; then
		kill -KILL "$TOOL_PID" 2>/dev/null
	fi
	wait 2>/dev/null
	drop_test_cgroups
	return 0
}

# sleeper VAR CALLS: start func-sleep for CALLS calls of 10 ms, waiting for
# $GO; set VAR to its pid.
sleeper() {
	local out=$BATS_TEST_TMPDIR/$1
	"$SLEEPER" "$2" 10 "$GO" >"$out" &
	wait_for "$out" '^[0-9]+$' 5
	printf -v "$1" %s "$(head -1 "$out")"
	printf -v "$1_JOB" %s "$!"
}

@test "funclatency: five 10 ms calls, none below 8 ms, the peak at 8-15 ms, in text" {
	start_tool funclatency -m -b "$SLEEPER" bk_sleep_ms
	run "$SLEEPER" 5 10
	[ "$status" = 0 ]
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -qx 'func = bk_sleep_ms' "$OUT"
	grep -Eq '^ +msecs +: count +distribution$' "$OUT"
	# None returns early; the peak is 8-15 ms (a loaded host may delay some).
	[ "$(grep -Ec '^ +[0-7] -> [0-7] +: 0 +\| +\|$' "$OUT")" = 3 ]
	grep -Eq '^ +8 -> 15 +: [1-5] +\|\*{40}\|$' "$OUT"
	grep -Eq '^count 5 avg ' "$OUT"
}

@test "funclatency: -p keeps one process's calls of two, the peak at 8-15 ms, in JSON" {
	sleeper A 3
	sleeper B 4
	start_tool funclatency -j -p "$A" -b "$SLEEPER" bk_sleep_ms
	touch "$GO"
	wait "$A_JOB"
	wait "$B_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --arg b "$SLEEPER" '
		length == 1 and .[0].func == "bk_sleep_ms" and
		.[0].binary == $b and .[0].unit == "usecs" and .[0].count == 3 and
		(.[0].buckets | max_by(.count) | .min == 8192 and .max == 16383) and
		(.[0].buckets | map(select(.max < 8192)) | all(.count == 0))
	' "$OUT"
}

@test "funclatency: --cgroup counts the calls of a process in that cgroup, not another's" {
	test_cgroups
	sleeper A 3
	sleeper B 2
	echo "$A" >"$CG/in/cgroup.procs"
	echo "$B" >"$CG/out/cgroup.procs"
	start_tool funclatency -j --cgroup "$CG/in" -b "$SLEEPER" bk_sleep_ms
	touch "$GO"
	wait "$A_JOB"
	wait "$B_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es 'length == 1 and .[0].count == 3' "$OUT"
}

@test "funclatency: no FUNC, no -b, or a function the binary lacks: one line each" {
	run --separate-stderr "$BIN/funclatency" -b "$SLEEPER"
	[ "$status" = 2 ]
	[ "$stderr" = "funclatency: missing FUNC: give -b BINARY and a function of it (nm -D BINARY lists them)" ]
	run --separate-stderr "$BIN/funclatency" bk_sleep_ms
	[ "$status" = 2 ]
	[ "$stderr" = "funclatency: missing -b/--binary: give the program or library bk_sleep_ms is in" ]
	run --separate-stderr "$BIN/funclatency" -b "$SLEEPER" bk_no_such -d 1
	[ "$status" = 1 ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "funclatency: $SLEEPER has no function bk_no_such "* ]]
	[ -z "$output" ]
}
