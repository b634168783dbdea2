#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# fsslower: on an ext4 file system of a loop device the test makes, the
# fsync of a large dirty file is shown above 1 ms with the file's name and
# ext4 (-t xfs hides it); a tmpfs file's reads, each of them, are tmpfs
# reads; bad -t and -m are refused in one line.

bats_require_minimum_version 1.5.0
load helpers
load blockio
load fsops

setup() {
	require_root
}

@test "fsslower: an ext4 file's fsync above 1 ms: its name, ext4, the writer" {
	make_ext4
	start_tool fsslower -m 1 -j
	ext4_fsync big 8
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson p "$WRITER" '
		map(select(.type == null and .pid == $p and .op == "fsync")) |
		length == 1 and .[0].file == "big" and .[0].fstype == "ext4" and
		.[0].latency_ms >= 1 and .[0].ret == 0 and .[0].comm == "dd"
	' "$OUT"
}

@test "fsslower: -t xfs hides the ext4 fsync; -t xfs,ext4 shows it, in text" {
	make_ext4
	start_tool fsslower -m 1 -t xfs -j
	ext4_fsync hidden 4
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -s 'map(select(.type == null and .fstype != "xfs")) | length' "$OUT")" = 0 ]

	start_tool fsslower -m 1 -t xfs,ext4
	ext4_fsync shown 4
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^COMM +PID +T BYTES +OFF_KB +LAT\(ms\) FSTYPE +FILENAME$'
	grep -Eq "^dd +$WRITER +F - +- +[0-9.]+ ext4 +shown\$" "$OUT"
	refute grep -q hidden "$OUT"
}

@test "fsslower: -m 0 -p: each read of a tmpfs file, with its bytes and offset, is tmpfs" {
	make_tmpfs_file data 20480
	gated_reader data 4096 5
	start_tool fsslower -m 0 -p "$READER" -j
	open_gate
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es '
		map(select(.type == null and .file == "data")) |
		(map(select(.op == "open")) | length == 1 and
			.[0].fstype == "tmpfs") and
		(map(select(.op == "read")) | length == 5 and
			all(.fstype == "tmpfs" and .ret == 4096) and
			map(.offset) == [0, 4096, 8192, 12288, 16384])
	' "$OUT"
}

@test "fsslower: bad -t and -m are refused in one line" {
	run --separate-stderr "$BIN/fsslower" -t EXT4
	[ "$status" = 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "fsslower: invalid -t/--type 'EXT4': expected file system type names"* ]]
	run --separate-stderr "$BIN/fsslower" -t ext4,,xfs
	[ "$status" = 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
	run --separate-stderr "$BIN/fsslower" -t a,b,c,d,e,f,g,h,i
	[ "$status" = 2 ]
	[ "$stderr" = "fsslower: invalid -t/--type 'a,b,c,d,e,f,g,h,i': at most 8 types" ]
	run --separate-stderr "$BIN/fsslower" -m 1.5
	[ "$status" = 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
}
