#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, file systems: on an ext4 file system of a loop device the
# test makes, an fsync of a dirty file is seen with its file, type and
# writer, and counted exactly in fsdist, and its pages dirtied and read
# back counted by cachestat; a tmpfs file's reads are tmpfs reads.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load ../integration/histogram
load ../integration/blockio
load ../integration/fsops
load helpers

@test "fsslower: an ext4 fsync above 1 ms with its file and writer; -t tmpfs keeps a tmpfs file's reads" {
	make_ext4
	launch fsslower -m 1 -j
	# Task storage where this kernel has it for tracing, else a hash.
	[ "$(staging_type "$TOOL_PID")" = "$(staging_expected)" ]
	ext4_fsync big 8
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$WRITER" '
		map(select(.type == null and .pid == $p and .op == "fsync")) |
		length == 1 and .[0].file == "big" and .[0].fstype == "ext4" and
		.[0].latency_ms >= 1'

	make_tmpfs_file data 12288
	gated_reader data 4096 3
	launch fsslower -m 0 -t tmpfs -p "$READER" -j
	open_gate
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out 'map(select(.type == null)) |
		(map(select(.op == "read")) | length == 3 and
			all(.fstype == "tmpfs" and .file == "data")) and
		all(.fstype == "tmpfs")'
}

@test "fsdist: 8 ext4 writes and one ext4 fsync, exactly; a tmpfs file's 3 reads" {
	make_ext4
	ext4_writer big 8
	launch fsdist -p "$WRITER" -j
	open_gate
	wait "$WRITER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.fstype | type == "string")'
	check_out 'map(select(.fstype == "ext4")) |
		(map(select(.op == "write") | .count) | add) == 8 and
		(map(select(.op == "fsync") | .count) | add) == 1'

	make_tmpfs_file data 12288
	gated_reader data 4096 3
	launch fsdist -t tmpfs -p "$READER" -j
	open_gate
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out 'map(select(.type != "lost")) | all(.fstype == "tmpfs") and
		(map(select(.op == "read") | .count) | add) == 3'
}

@test "cachestat: a dd writing 32 MiB dirties about 8192 pages; reading them back after a drop adds as many" {
	make_ext4 64M
	gated dd if=/dev/zero of="$MNT/big" bs=1M count=32 conv=fsync status=none
	launch cachestat -p "$GATED" -j 1
	open_gate
	wait "$GATED"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out 'map(.dirtied) | add | . >= 7782 and . <= 8602'

	in_mount dd if="$MNT/big" iflag=nocache count=0 status=none
	gated dd if="$MNT/big" of=/dev/null bs=1M status=none
	launch cachestat -p "$GATED" -j 1
	open_gate
	wait "$GATED"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out 'map(.added) | add | . >= 7782 and . <= 8602'
}
