#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# cpudist: a real-time helper running 10 ms bursts and sleeping 10 ms
# peaks in the 8-15 ms bucket on and (-O) off the CPU, its runs as many and
# as long as /proc/PID/schedstat says; -P, -i COUNT, -j.

bats_require_minimum_version 1.5.0
load helpers
load histogram
load burst

setup() {
	require_root
	command -v chrt >/dev/null || skip "no chrt (util-linux)"
	JOBS=
	BURST_ARGS=(10 10)
}

# peak FILE: the lower bound of the fullest bucket.
peak() {
	jq -s '[.[] | select(.type != "lost") | .buckets[]] |
		max_by(.count) | .min' "$1"
}

@test "cpudist: 10 ms bursts peak in the 8-15 ms bucket (-m)" {
	local median
	burst A chrt -f 10
	start_tool cpudist -m -j -p "$A"
	go
	check_hist_json "$OUT" '(.unit == "msecs")'
	[ "$(jq -s 'length' "$OUT")" = 1 ]
	jq -e '.count >= 20' "$OUT"
	[ "$(jq '.buckets[3] | [.min, .max] | tostring' "$OUT")" = '"[8,15]"' ]
	# A burst is 10 ms of CPU time; the wall time it took is what a run
	# on the CPU lasts (interrupts on a loaded host, or in an emulated
	# guest, stretch it): the peak is that time's bucket, 8-15 ms here.
	median=$(awk '$1 == "median_burst_us" { print $2 }' "$BATS_TEST_TMPDIR/A")
	echo "# median burst $median us, peak bucket $(peak "$OUT") ms" >&3
	[ "$median" -ge 10000 ]
	jq -se --argjson us "$median" '
		[.[] | select(.type != "lost") | .buckets[]] | max_by(.count) |
		.min * 1000 <= $us * 1.1 and $us * 0.9 < (.max + 1) * 1000' "$OUT"
	# As many runs, as long, as A's /proc/PID/schedstat counted (one
	# run unseen is 2% of the time here).
	sched_near A 1 "A's runs" "$(jq .count "$OUT")" \
		"$(jq '.sum * 1000000 | floor' "$OUT")" 5
}

@test "cpudist: -O: 10 ms sleeps peak in the 8-15 ms bucket off the CPU" {
	burst A chrt -f 10
	start_tool cpudist -O -m -j -p "$A"
	go
	check_hist_json "$OUT"
	[ "$(peak "$OUT")" = 8 ]
}

@test "cpudist: -P prints the process's header, histogram and summary" {
	burst A chrt -f 10
	start_tool cpudist -P -p "$A"
	go
	grep -qx "pid = $A burst" "$OUT"
	grep -Eq '^ +usecs +: count +distribution$' "$OUT"
	grep -Eq '^count [0-9]+ avg [0-9.]+ p99 [0-9.]+$' "$OUT"
}

@test "cpudist: -i 1 3 prints exactly 3 intervals and exits 0" {
	run --separate-stderr timeout 20 "$BIN/cpudist" -j -i 1 3
	[ "$status" = 0 ]
	[ "$(wc -l <<<"$output")" = 3 ]
	check_hist_json <(echo "$output")
}

@test "cpudist: bad options exit 2 with one line and no output" {
	for args in "-i 0" "1 2 3" "-P -L" "--linear x"; do
		run --separate-stderr "$BIN/cpudist" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "cpudist: "* ]]
	done
}
