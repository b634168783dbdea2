#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# drsnoop: a writer of 128 MiB of page cache in a cgroup held to 32 MiB
# (memory.high on cgroup v2, memory.limit_in_bytes where v1 holds the
# memory controller) reclaims its own pages: every stall is reported for
# its pid, as a memcg reclaim, and the pages add up to what it wrote past
# the limit. A hog of anonymous memory over memory.max reclaims in vain
# before its OOM kill: reported for its pid too, in text; -p and -c
# select; bad input.

bats_require_minimum_version 1.5.0
load helpers
load reclaim

setup() {
	require_root
	CG=
	FILE=
	JOBS=
}

eval "helpers_$(declare -f teardown)"
teardown() {
	helpers_teardown
	[ -z "$JOBS" ] || kill $JOBS 2>/dev/null || true
	[ -z "$FILE" ] || rm -f "$FILE"
	local i
	for ((i = 0; i < 50; i++)); do
		[ -n "$CG" ] && [ -d "$CG" ] && ! rmdir "$CG" 2>/dev/null || break
		sleep 0.1
	done
}

@test "drsnoop: a writer past its cgroup's 32 MiB reclaims what it wrote beyond" {
	limited_cgroup high
	start_tool drsnoop -j
	writer
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es 'map(select(.type == "summary")) | length == 1' "$OUT"
	jq -es --argjson p "$WRITER" '[.[] | select(.pid == $p)] | length > 0 and
		all(.tid == $p and .comm == "dd" and .uid == 0 and
		    .kind == "memcg" and .latency_ns > 0 and .order >= 0)' "$OUT"
	# 96 MiB past the limit, in 4 KiB pages: reclaimed by the writer
	# itself (a little less: the limit lets a charge batch over it; no
	# more than it wrote).
	pages=$(jq -s --argjson p "$WRITER" 'map(select(.pid == $p) | .pages) | add' "$OUT")
	echo "# dd reclaimed $pages pages" >&3
	[ "$pages" -ge $((96 * 256 * 9 / 10)) ]
	[ "$pages" -le $((128 * 256)) ]
}

@test "drsnoop: a hog over memory.max reclaims before its OOM kill; -c, -p, text" {
	local comm
	comm=$(unique_comm)
	limited_cgroup max
	start_tool drsnoop -c "$comm"
	memcg_hog "$comm"
	stop_tool
	head -1 "$OUT" | grep -Eq '^PID +COMM +TID +LAT\(ms\) +PAGES +ORDER +KIND$'
	grep -Eq "^$HOG +$comm +$HOG +[0-9]+\.[0-9]{3} +[0-9]+ +[0-9]+ memcg\$" "$OUT"
	[ "$(grep -Evc "^$HOG +$comm " "$OUT")" = 1 ]

	# Another process's only: nothing but the header.
	sleep 30 &
	JOBS=$!
	start_tool drsnoop -p "$JOBS"
	memcg_hog "$comm"
	stop_tool
	[ "$(wc -l <"$OUT")" = 1 ]
}

@test "drsnoop: bad input exits 2 with one line and no output" {
	for args in "x" "-p 0x" "-d -1"; do
		run --separate-stderr "$BIN/drsnoop" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "drsnoop: "* ]]
	done
}
