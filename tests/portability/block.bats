#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, block I/O: O_DIRECT reads and writes of 4 KiB on a loop
# device the test attaches, each seen with its sectors, bytes and reader,
# and counted exactly in the histogram.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load ../integration/histogram
load ../integration/blockio
load helpers

@test "biosnoop: 9 O_DIRECT reads and 5 writes: their sectors, 4096 bytes each, the reader's pid" {
	make_loop
	launch biosnoop --disk "$LOOP_NAME" -j
	read_direct 9 40
	wait "$READER"
	write_direct 5 100
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$READER" --arg d "$LOOP_NAME" '
		map(select(.type == null and (.op | test("Read$")))) |
		length == 9 and all(.pid == $p and .comm == "dd" and
			.disk == $d and .bytes == 4096) and
		(map(.sector) | sort) == [range(40; 49) | . * 8]'
	check_out --arg d "$LOOP_NAME" '
		map(select(.type == null and (.op | test("Write$")))) |
		length == 5 and all(.disk == $d and .bytes == 4096) and
		(map(.sector) | sort) == [range(100; 105) | . * 8]'
}

@test "biolatency: 37 O_DIRECT reads are 37 I/Os of the loop device" {
	make_loop
	launch biolatency -D -j
	read_direct 37 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.disk | type == "string")'
	check_out --arg d "$LOOP_NAME" 'map(select(.disk == $d)) |
		length == 1 and .[0].count == 37'
}
