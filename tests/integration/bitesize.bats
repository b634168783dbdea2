#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# bitesize: O_DIRECT reads of 4 KiB and 64 KiB from a loop device the test
# made are exactly their counts in the 4-7 and 64-127 Kbyte buckets of
# each reader's pid; -c and -p keep to one reader; text, -m's refusal;
# the metric's buckets are bytes.

bats_require_minimum_version 1.5.0
load helpers
load histogram
load blockio

setup() {
	require_root
}

# reader_buckets PID: PID's non-empty buckets in $OUT as "MIN:COUNT ...".
reader_buckets() {
	jq -rs --argjson p "$1" '[.[] | select(.pid == $p) | .buckets[] |
		select(.count > 0) | "\(.min):\(.count)"] | join(" ")' "$OUT"
}

@test "bitesize: 37 reads of 4 KiB and 13 of 64 KiB, exactly, per reader" {
	make_loop
	start_tool bitesize --disk "$LOOP_NAME" -j
	read_direct 37 0
	local small=$READER
	wait "$READER"
	read_direct 13 8 65536
	local big=$READER
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.pid | type == "number") and .unit == "Kbytes"'
	[ "$(reader_buckets "$small")" = "4:37" ]
	[ "$(reader_buckets "$big")" = "64:13" ]
	[ "$(jq -rs --argjson p "$big" '.[] | select(.pid == $p) | .comm' "$OUT")" = dd ]
	# Sizes in bytes, averaged in Kbytes.
	[ "$(jq -s --argjson p "$big" '.[] | select(.pid == $p) | .sum' "$OUT")" = 832 ]
}

@test "bitesize: -c keeps one command's requests" {
	make_loop
	# The same program under another name: another command.
	cp "$(command -v dd)" "$BATS_TEST_TMPDIR/ddx"
	start_tool bitesize --disk "$LOOP_NAME" -c dd -j
	"$BATS_TEST_TMPDIR/ddx" if="$LOOP" of=/dev/null bs=4096 count=11 \
		iflag=direct status=none
	read_direct 21 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(reader_buckets "$READER")" = "4:21" ]
	[ "$(jq -s 'map(select(.count > 0)) | length' "$OUT")" = 1 ]
}

@test "bitesize: -p PID counts that process's reads only" {
	make_loop
	# A pid known before its reads: a shell that waits for a go.
	local fifo=$BATS_TEST_TMPDIR/go
	mkfifo "$fifo"
	sh -c 'read x <"$2"; exec dd if="$1" of=/dev/null bs=4096 count=17 iflag=direct status=none' sh "$LOOP" "$fifo" &
	local target=$!
	start_tool bitesize --disk "$LOOP_NAME" -p "$target" -j
	read_direct 7 0
	wait "$READER"
	echo go >"$fifo"
	wait "$target"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(reader_buckets "$target")" = "4:17" ]
	[ "$(jq -s --argjson p "$target" 'map(select(.count > 0 and .pid != $p)) | length' "$OUT")" = 0 ]
}

@test "bitesize: --cgroup counts the requests made in that cgroup or below it" {
	make_loop
	block_cgroups
	start_tool bitesize --disk "$LOOP_NAME" --cgroup "$BLOCK_CG" -j
	read_direct_in "$BLOCK_CG/child" 13 0
	local inside=$READER
	wait "$READER"
	read_direct 5 100
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(reader_buckets "$inside")" = "4:13" ]
	[ "$(jq -s 'map(select(.count > 0)) | length' "$OUT")" = 1 ]

	start_tool bitesize --disk "$LOOP_NAME" --cgroup "$BLOCK_CG/other" -j
	read_direct_in "$BLOCK_CG/child" 3 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -s 'map(select(.count > 0)) | length' "$OUT")" = 0 ]
}

@test "bitesize: text names each process; -m is refused in one line" {
	make_loop
	start_tool bitesize --disk "$LOOP_NAME"
	read_direct 3 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -qx "pid = $READER dd" "$OUT"
	grep -Eq '^ +Kbytes +: count +distribution$' "$OUT"
	grep -Eq '^ +4 -> 7 +: 3 +\|\*{40}\|$' "$OUT"

	run -2 "$BIN/bitesize" -m -d 1
	[ "$output" = "bitesize: -m/--milliseconds is for times; these buckets are sizes, in Kbytes" ]
}

@test "bitesize: --textfile's histogram is in bytes" {
	make_loop
	local dir=$BATS_TEST_TMPDIR/textfile
	mkdir "$dir"
	start_tool bitesize --disk "$LOOP_NAME" --textfile "$dir" --metrics-labels pid
	read_direct 6 0 65536
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	local prom=$dir/bpfkit_bitesize.prom
	grep -qx "bpfkit_bitesize_request_bytes_bucket{pid=\"$READER\",le=\"65536\"} 0" "$prom"
	grep -qx "bpfkit_bitesize_request_bytes_bucket{pid=\"$READER\",le=\"131072\"} 6" "$prom"
	grep -qx "bpfkit_bitesize_request_bytes_sum{pid=\"$READER\"} 393216" "$prom"
}
