#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# biotop: on a loop device the test made, the top row is the reader, with
# exactly the requests and bytes it read; -s and -r pick and cut the rows;
# every interval one record per row; text; --textfile's counters; bad
# input.

bats_require_minimum_version 1.5.0
load helpers
load blockio

setup() {
	require_root
}

# write_direct_bg N SEEK: write_direct in the background; sets WRITER.
write_direct_bg() {
	dd if=/dev/zero of="$LOOP" bs=4096 count="$1" seek="$2" \
		oflag=direct status=none &
	WRITER=$!
}

@test "biotop: the top row is the reader, with the requests and bytes it read" {
	make_loop
	# One interval, ended by the stop: every row once.
	start_tool biotop --disk "$LOOP_NAME" -j 60
	read_direct 80 0 65536
	wait "$READER"
	write_direct_bg 10 2000
	wait "$WRITER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -sc '.[0] | [.interval, .pid, .comm, .disk, .op, .io, .bytes]' "$OUT")" = \
		"[1,$READER,\"dd\",\"$LOOP_NAME\",\"Read\",80,5242880]" ]
	[ "$(jq -sc --argjson w "$WRITER" 'map(select(.pid == $w) | [.op, .io, .bytes])' "$OUT")" = '[["Write",10,40960]]' ]
	jq -es 'all(.avg_ms > 0)' "$OUT" >/dev/null
}

@test "biotop: -s io puts the most requests first, -r 1 keeps one row; COUNT ends it" {
	make_loop
	start_tool biotop --disk "$LOOP_NAME" -j -s io -r 1 60
	read_direct 10 0 65536
	wait "$READER"
	write_direct_bg 50 2000
	wait "$WRITER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -sc 'map([.pid, .io])' "$OUT")" = "[[$WRITER,50]]" ]

	# COUNT intervals, then it ends by itself.
	run -0 timeout 20 "$BIN/biotop" --disk "$LOOP_NAME" -j 1 2
}

@test "biotop: every interval one record per row, adding up to what was read" {
	make_loop
	start_tool biotop --disk "$LOOP_NAME" -j 1
	# Reads spread over about three intervals.
	local i
	for ((i = 0; i < 6; i++)); do
		dd if="$LOOP" of=/dev/null bs=4096 count=7 skip=$((i * 7)) \
			iflag=direct status=none
		sleep 0.5
	done
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -s 'map(select(.comm == "dd" and .op == "Read") | .io) | add' "$OUT")" = 42 ]
	[ "$(jq -s 'map(.interval) | max >= 2' "$OUT")" = true ]
	# No row twice in an interval.
	[ "$(jq -s 'group_by([.interval, .pid, .disk, .op]) | all(length == 1)' "$OUT")" = true ]
}

@test "biotop: --cgroup counts the requests made in that cgroup or below it" {
	make_loop
	block_cgroups
	start_tool biotop --disk "$LOOP_NAME" --cgroup "$BLOCK_CG" -j 60
	read_direct_in "$BLOCK_CG/child" 9 0
	local inside=$READER
	wait "$READER"
	read_direct 5 100
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -sc 'map([.pid, .io])' "$OUT")" = "[[$inside,9]]" ]

	start_tool biotop --disk "$LOOP_NAME" --cgroup "$BLOCK_CG/other" -j 60
	read_direct_in "$BLOCK_CG/child" 3 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ ! -s "$OUT" ]
}

@test "biotop: text heads each interval and shows the reader's row" {
	make_loop
	start_tool biotop --disk "$LOOP_NAME" -C 60
	read_direct 16 0 65536
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2} loadavg: ' "$OUT"
	grep -Eq '^PID +COMM +DISK +OP +I/O +Kbytes +AVGms$' "$OUT"
	grep -Eq "^$READER +dd +$LOOP_NAME +Read +16 +1024 +[0-9]+\.[0-9]{3}$" "$OUT"
	! grep -q $'\033' "$OUT"
}

@test "biotop: --textfile counts requests and bytes per disk and operation" {
	make_loop
	local dir=$BATS_TEST_TMPDIR/textfile
	mkdir "$dir"
	start_tool biotop --disk "$LOOP_NAME" -c dd --textfile "$dir" 1
	read_direct 12 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	local prom=$dir/bpfkit_biotop.prom
	grep -qx "bpfkit_biotop_requests_total{disk=\"$LOOP_NAME\",op=\"Read\"} 12" "$prom"
	grep -qx "bpfkit_biotop_bytes_total{disk=\"$LOOP_NAME\",op=\"Read\"} 49152" "$prom"
}

@test "biotop: bad input is refused in one line with exit 2" {
	run -2 "$BIN/biotop" -s size
	[ "$output" = "biotop: invalid -s/--sort 'size': expected bytes, io, time or avg" ]
	run -2 "$BIN/biotop" -r 0
	[ "${#lines[@]}" = 1 ]
	[[ $output == "biotop: invalid -r/--rows '0'"* ]]
	run -2 "$BIN/biotop" 1 2 3
	[ "${#lines[@]}" = 1 ]
}
