#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# biosnoop: N O_DIRECT reads of a loop device the test made are N lines
# with the reader's pid and comm, 4096 bytes each, at the sectors read.

bats_require_minimum_version 1.5.0
load helpers
load blockio

setup() {
	require_root
}

@test "biosnoop: N reads are N lines with the reader, 4096 bytes, their sectors" {
	make_loop
	start_tool biosnoop --disk "$LOOP_NAME" -j
	read_direct 23 40
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson p "$READER" --arg d "$LOOP_NAME" '
		map(select(.type == null)) | length == 23 and
		all(.[]; .pid == $p and .comm == "dd" and .disk == $d and
			(.op | test("Read$")) and .bytes == 4096 and .service_ns > 0 and
			(.time_s | type == "number")) and
		(map(.sector) | sort) == [range(40; 63) | . * 8]
	' "$OUT"
	jq -es 'map(select(.type == "summary")) |
		length == 1 and .[0].events == 23 and .[0].lost == 0' "$OUT"
	grep -q '^biosnoop: 23 events, 0 lost$' "$ERR"
}

@test "biosnoop: text columns; -Q adds the queued time" {
	make_loop
	start_tool biosnoop --disk "$LOOP_NAME" -Q
	read_direct 3 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^TIME\(s\) +COMM +PID +DISK +OP +SECTOR +BYTES +QUE\(ms\) +LAT\(ms\)$'
	[ "$(awk -v p="$READER" -v d="$LOOP_NAME" '$2 == "dd" && $3 == p && $4 == d && $5 ~ /Read$/ && $7 == 4096' "$OUT" | wc -l)" = 3 ]
	[ "$(awk 'NR > 1 { print $6 }' "$OUT" | sort -n | tr '\n' ' ')" = "0 8 16 " ]
}

@test "biosnoop: bad options exit 2 with one line and no output" {
	for args in "--disk nosuchdisk" "--disk" "x"; do
		run --separate-stderr "$BIN/biosnoop" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "biosnoop: "* ]]
	done
}
