#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# biolatency: N O_DIRECT reads of a loop device the test made are exactly
# N I/Os of that disk in its histogram (-D, --disk, -F, -Q); -i COUNT, -j;
# a full map's misses counted exactly.

bats_require_minimum_version 1.5.0
load helpers
load histogram
load blockio

setup() {
	require_root
}

@test "biolatency: -D shows exactly N reads for the loop device" {
	make_loop
	start_tool biolatency -D -j
	read_direct 37 0
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.disk | type == "string")'
	[ "$(jq -s --arg d "$LOOP_NAME" 'map(select(.disk == $d)) | length' "$OUT")" = 1 ]
	[ "$(jq -s --arg d "$LOOP_NAME" '.[] | select(.disk == $d) | .count' "$OUT")" = 37 ]
}

@test "biolatency: text with -D names the disk; --disk and -F -Q key by operation" {
	make_loop
	start_tool biolatency -D
	read_direct 5 3
	wait "$READER"
	stop_tool
	grep -qx "disk = $LOOP_NAME" "$OUT"
	grep -Eq '^ +usecs +: count +distribution$' "$OUT"

	start_tool biolatency --disk "$LOOP_NAME" -F -Q -m -j
	read_direct 11 100
	wait "$READER"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.flags | test("Read$"))'
	[ "$(jq -s 'map(.count) | add' "$OUT")" = 11 ]
	[ "$(jq -rs '.[0].unit' "$OUT")" = msecs ]
}

@test "biolatency: keys that find the map full are counted lost, exactly" {
	make_loop
	# Room for one key (disk and operation): the reads take it, and every
	# write, another operation, finds the map full.
	start_tool biolatency --disk "$LOOP_NAME" -F -j \
		--test-map-entries biolatency_hists=1
	read_direct 13 0
	wait "$READER"
	write_direct 7 100
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.flags | test("Read$"))'
	[ "$(jq -s 'map(select(.type != "lost")) | map(.count) | add' "$OUT")" = 13 ]
	[ "$(jq -s 'map(select(.type == "lost") | .lost) | add' "$OUT")" = 7 ]
	grep -qx 'biolatency: lost 7 events (7 in total): the histogram map (1 key) or a start-time map is full; use narrower filters or fewer keys' "$ERR"
	[ "$(tail -1 "$ERR")" = "biolatency: 13 events, 7 lost" ]
}

@test "biolatency: with a BTF minimized from its own relocations it counts the same" {
	make_loop
	# Only the request's members, flags and tracepoint arguments its
	# CO-RE relocations name, as 'make min-btf' keeps them.
	bpftool gen min_core_btf /sys/kernel/btf/vmlinux "$BATS_TEST_TMPDIR/min.btf" \
		"$BUILD/obj/bpf/biolatency.bpf.o"
	local btf
	for btf in "" "$BATS_TEST_TMPDIR/min.btf"; do
		start_tool biolatency -D -F -Q -j ${btf:+--btf "$btf"}
		read_direct 19 7
		wait "$READER"
		write_direct 3 100
		stop_tool
		[ "$TOOL_STATUS" = 0 ]
		check_hist_json "$OUT"
		# The loop device's keys (disk, operation and flags) and counts.
		jq -sc --arg d "$LOOP_NAME" 'map(select(.disk == $d) |
			{flags, count}) | sort' "$OUT" >"$OUT.${btf:+min}keys"
	done
	cat "$OUT.keys" >&3
	[ "$(jq 'map(.count) | add' "$OUT.keys")" = 22 ]
	cmp "$OUT.keys" "$OUT.minkeys"
}

@test "biolatency: -i 1 3 prints exactly 3 intervals and exits 0" {
	make_loop
	run --separate-stderr timeout 20 "$BIN/biolatency" --disk "$LOOP_NAME" -j -i 1 3
	[ "$status" = 0 ]
	[ "$(wc -l <<<"$output")" = 3 ]
	check_hist_json <(echo "$output")
	run --separate-stderr timeout 20 "$BIN/biolatency" --disk "$LOOP_NAME" 1 2
	[ "$status" = 0 ]
	[ "$(grep -cx 'no events' <<<"$output")" = 2 ]
}

@test "biolatency: bad options exit 2 with one line and no output" {
	for args in "--disk nosuchdisk" "--disk ../sda" "-i 0" "1 2 3"; do
		run --separate-stderr "$BIN/biolatency" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "biolatency: "* ]]
	done
}
