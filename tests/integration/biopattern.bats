#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# biopattern: on a loop device the test made, a sequential dd is 100%
# sequential (every read but the first, exactly), a seeded random reader
# 100% random; -c keeps to one command's requests; intervals and COUNT;
# text; --textfile's counters; bad input.

bats_require_minimum_version 1.5.0
load helpers
load blockio

setup() {
	require_root
}

@test "biopattern: a sequential dd's 100 reads are 99 sequential, exactly" {
	make_loop
	# No filter: counted at completion alone.
	start_tool biopattern --disk "$LOOP_NAME" -j
	read_direct 100 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -c '[.disk, .count, .sequential, .random, .sequential_pct, .bytes]' "$OUT")" = \
		"[\"$LOOP_NAME\",99,99,0,100,405504]" ]
}

@test "biopattern: a seeded random reader's 60 reads are 59 random" {
	make_loop
	start_tool biopattern --disk "$LOOP_NAME" -j
	"$HELPERS/rand-read" "$LOOP" 60 12345
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -c '[.disk, .count, .sequential, .random, .random_pct]' "$OUT")" = \
		"[\"$LOOP_NAME\",59,0,59,100]" ]
}

@test "biopattern: -c follows one command's requests from their start; others' are left out of the pattern" {
	make_loop
	# dd's sequential reads interleaved with another command's elsewhere:
	# without -c they would break dd's runs.
	start_tool biopattern --disk "$LOOP_NAME" -c dd -j
	"$HELPERS/rand-read" "$LOOP" 200 7 &
	local rr=$!
	read_direct 300 1000
	wait "$READER"
	wait "$rr"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -c '[.count, .sequential]' "$OUT")" = "[299,299]" ]
}

@test "biopattern: --cgroup counts the requests made in that cgroup or below it" {
	make_loop
	block_cgroups
	start_tool biopattern --disk "$LOOP_NAME" --cgroup "$BLOCK_CG" -j
	read_direct_in "$BLOCK_CG/child" 25 0
	wait "$READER"
	read_direct 5 1000
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -c '[.count, .sequential]' "$OUT")" = "[24,24]" ]

	start_tool biopattern --disk "$LOOP_NAME" --cgroup "$BLOCK_CG/other" -j
	read_direct_in "$BLOCK_CG/child" 3 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ ! -s "$OUT" ]
}

@test "biopattern: INTERVAL COUNT reports each interval's requests, then stops" {
	make_loop
	start_tool biopattern --disk "$LOOP_NAME" -c dd 1 2
	read_direct 41 0
	wait "$READER"
	# The tool ends by itself after its second interval (a zombie until
	# waited for).
	local i state
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		state=$(cut -d' ' -f3 "/proc/$TOOL_PID/stat" 2>/dev/null) || state=Z
		[ "$state" != Z ] || break
		sleep 0.1
	done
	[ "$state" = Z ]
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^TIME +DISK +%RND +%SEQ +COUNT +KBYTES$'
	# The reads fall in one interval or two: 40 sequential in all.
	[ "$(awk -v d="$LOOP_NAME" '$2 == d { n += $5 } END { print n }' "$OUT")" = 40 ]
	[ "$(awk -v d="$LOOP_NAME" '$2 == d && $4 != 100' "$OUT")" = "" ]
}

@test "biopattern: --textfile counts requests by pattern and bytes per disk" {
	make_loop
	local dir=$BATS_TEST_TMPDIR/textfile
	mkdir "$dir"
	start_tool biopattern --disk "$LOOP_NAME" -c dd --textfile "$dir"
	read_direct 11 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	local prom=$dir/bpfkit_biopattern.prom
	grep -qx "bpfkit_biopattern_requests_total{disk=\"$LOOP_NAME\",pattern=\"sequential\"} 10" "$prom"
	grep -qx "bpfkit_biopattern_requests_total{disk=\"$LOOP_NAME\",pattern=\"random\"} 0" "$prom"
	grep -qx "bpfkit_biopattern_bytes_total{disk=\"$LOOP_NAME\"} 40960" "$prom"
}

@test "biopattern: bad input is refused in one line with exit 2" {
	run -2 "$BIN/biopattern" --disk no-such-disk
	[ "$output" = "biopattern: invalid --disk 'no-such-disk': no such disk in /sys/block (see 'lsblk -d')" ]
	run -2 "$BIN/biopattern" 0
	[ "${#lines[@]}" = 1 ]
	[[ $output == "biopattern: invalid INTERVAL '0'"* ]]
	run -2 "$BIN/biopattern" -m
	[ "${#lines[@]}" = 1 ]
}
