#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# fsdist: a dd writing 8 MiB to an ext4 file system of a loop device the
# test makes, then fsyncing it, is exactly 8 ext4 writes and one ext4 fsync
# of at least 1 ms in its histograms (-t xfs hides them); a tmpfs file's
# reads are exactly its tmpfs reads.

bats_require_minimum_version 1.5.0
load helpers
load histogram
load blockio
load fsops

setup() {
	require_root
}

@test "fsdist: 8 writes of 1 MiB and an fsync above 1 ms, on ext4, exactly" {
	make_ext4
	ext4_writer big 8
	start_tool fsdist -p "$WRITER" -j
	open_gate
	wait "$WRITER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.fstype | type == "string") and (.op | type == "string")'
	[ "$(jq -s 'map(select(.fstype == "ext4" and .op == "write") | .count) | add' "$OUT")" = 8 ]
	[ "$(jq -s 'map(select(.fstype == "ext4" and .op == "fsync") | .count) | add' "$OUT")" = 1 ]
	# Its sum, in usecs: at least 1 ms.
	jq -es 'map(select(.fstype == "ext4" and .op == "fsync")) | .[0].sum >= 1000' "$OUT"
}

@test "fsdist: -t xfs hides the ext4 calls; -t xfs,ext4 counts them, in text" {
	make_ext4
	ext4_writer hidden 4
	start_tool fsdist -t xfs -p "$WRITER" -j
	open_gate
	wait "$WRITER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# One empty report: no key, count 0.
	[ "$(jq -s 'map(select(.type != "lost") | .count) | add' "$OUT")" = 0 ]
	[ "$(jq -s 'map(select(.fstype != null)) | length' "$OUT")" = 0 ]

	ext4_writer shown 4
	start_tool fsdist -t xfs,ext4 -p "$WRITER"
	open_gate
	wait "$WRITER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -qx 'fstype = ext4, operation = fsync' "$OUT"
	grep -qx 'fstype = ext4, operation = write' "$OUT"
	refute grep -q 'fstype = [^e]' "$OUT"
}

@test "fsdist: a tmpfs file's 5 reads are 5 tmpfs reads, its open a tmpfs open" {
	make_tmpfs_file data 20480
	gated_reader data 4096 5
	start_tool fsdist -p "$READER" -j
	open_gate
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT"
	[ "$(jq -s 'map(select(.fstype == "tmpfs" and .op == "read") | .count) | add' "$OUT")" = 5 ]
	[ "$(jq -s 'map(select(.fstype == "tmpfs" and .op == "open") | .count) | add' "$OUT")" = 1 ]
}

@test "fsdist: a bad -t is refused in one line" {
	run --separate-stderr "$BIN/fsdist" -t ext4,XFS
	[ "$status" = 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "fsdist: invalid -t/--type 'ext4,XFS': expected file system type names"* ]]
}
