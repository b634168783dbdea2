#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, the file tools (issue 34): each sees the file calls a
# helper (file-trigger) makes, with the values the helper's arguments fix
# (exact counts, bytes, kinds, ages).

bats_require_minimum_version 1.5.0
load ../integration/helpers
load ../integration/file-trigger
load helpers

setup() {
	require_root
	kernel_mark
	JOBS=
	GO=$BATS_TEST_TMPDIR/go
}

@test "vfsstat: a helper's exact reads, writes, fsyncs, opens and creates" {
	file_trigger A vfs "$BATS_TEST_TMPDIR/file" 7
	launch vfsstat -j -p "$A"
	touch "$GO"
	wait "$A_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out '(map(.read) | add) == 9 and (map(.write) | add) == 9 and
		(map(.fsync) | add) == 2 and (map(.open) | add) == 3 and
		(map(.create) | add) == 2'
}

@test "syncsnoop: a helper's six kinds of sync call and a failed fsync, once each" {
	file_trigger A sync "$BATS_TEST_TMPDIR/file"
	launch syncsnoop -j -p "$A"
	touch "$GO"
	wait "$A_JOB"
	await "$OUT" '"errno":9' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$A" '
		map(select(.type == null)) |
		map(.call) == ["sync", "fsync", "fdatasync", "syncfs", "msync",
			       "sync_file_range", "fsync"] and
		all(.[]; .pid == $p and .latency_ns > 0) and
		all(.[:6][]; .ret == 0) and (.[6] | .errno == 9)'
}

@test "filelife: a file removed 200 ms after its creation, aged 150-400 ms" {
	file=$BATS_TEST_TMPDIR/short
	file_trigger A life "$file" 200
	launch filelife -j -c "$A_COMM"
	touch "$GO"
	wait "$A_JOB"
	await "$OUT" '"path":' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$A" --arg f "$file" --argjson max $((400 * TIME_SCALE)) '
		map(select(.type == null)) | length == 1 and
		(.[0] | .pid == $p and .path == $f and .creator_pid == $p and
		 .age_ns >= 150000000 and .age_ns <= $max * 1000000)'
}

@test "filetop: a helper's 100000 bytes in 7 writes to a named file, in its row" {
	file=$BATS_TEST_TMPDIR/written
	file_trigger A write "$file" 100000 7
	launch filetop -j -i 60 -p "$A"
	touch "$GO"
	wait "$A_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$A" '
		length == 1 and (.[0].files | length == 1 and
		(.[0] | .pid == $p and .file == "written" and .type == "R" and
		 .writes == 7 and .write_bytes == 100000 and .reads == 0))'
}
