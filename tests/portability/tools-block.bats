#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, the block tools of issue 34 (bitesize, biopattern, biotop):
# O_DIRECT reads of a loop device the test attaches, counted exactly for
# their reader on every kernel.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load ../integration/histogram
load ../integration/blockio
load helpers

@test "bitesize: 9 O_DIRECT reads of 4 KiB and 5 of 64 KiB in their buckets, for each reader" {
	make_loop
	launch bitesize --disk "$LOOP_NAME" -j
	read_direct 9 0
	local small=$READER
	wait "$READER"
	read_direct 5 4 65536
	local big=$READER
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '.unit == "Kbytes"'
	check_out --argjson s "$small" --argjson b "$big" '
		map(select(.count > 0)) | length == 2 and
		(map(select(.pid == $s))[0] | .comm == "dd" and
			[.buckets[] | select(.count > 0) | [.min, .count]] == [[4, 9]]) and
		(map(select(.pid == $b))[0] | .comm == "dd" and
			[.buckets[] | select(.count > 0) | [.min, .count]] == [[64, 5]])'
}

@test "biopattern: a sequential dd is 100% sequential (at completion), a seeded random reader 100% random (-c: from their start)" {
	make_loop
	launch biopattern --disk "$LOOP_NAME" -j
	read_direct 30 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --arg d "$LOOP_NAME" 'length == 1 and .[0].disk == $d and
		.[0].sequential == 29 and .[0].random == 0'
	launch biopattern --disk "$LOOP_NAME" -c rand-read -j
	"$HELPERS/rand-read" "$LOOP" 20 99
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out 'length == 1 and .[0].random == 19 and .[0].sequential == 0'
}

@test "biotop: the top row is the reader, with the requests and bytes it read" {
	make_loop
	launch biotop --disk "$LOOP_NAME" -j 600
	read_direct 40 0 65536
	wait "$READER"
	write_direct 5 2000
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$READER" --arg d "$LOOP_NAME" '.[0] |
		.pid == $p and .comm == "dd" and .disk == $d and
		.op == "Read" and .io == 40 and .bytes == 2621440'
	check_out 'map(select(.comm == "dd" and .op == "Write")) |
		length == 1 and .[0].io == 5 and .[0].bytes == 20480'
}
