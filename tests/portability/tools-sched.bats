#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, issue 35's scheduler and lock tools (runqslower, drsnoop,
# futexctn, runqlen, klockstat): each started once on this kernel with a
# trigger whose values the test knows; where the kernel lacks the
# facility, the tool's one-line refusal.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load ../integration/burst
load ../integration/reclaim
load helpers

@test "runqslower: a niced spinner waits over 5 ms for the one sharing its CPU" {
	BURST_ARGS=(1000 0)
	burst A taskset -c 1 nice -n 10
	burst B taskset -c 1
	launch runqslower -j -p "$A" 5000
	go
	check_out --argjson a "$A" --argjson b "$B" '
		map(select(.type == null)) | length > 0 and
		all(.pid == $a and .wait_ns >= 5000000) and
		any(.prev_pid == $b and .prev_comm == "burst")'
}

@test "drsnoop: a hog over its cgroup's memory.max reclaims before its OOM kill" {
	local comm
	comm=$(unique_comm)
	limited_cgroup max
	launch drsnoop -j -c "$comm"
	memcg_hog "$comm"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$HOG" --arg c "$comm" '
		map(select(.type == null)) | length > 0 and
		all(.pid == $p and .tid == $p and .comm == $c and
		    .kind == "memcg" and .latency_ns > 0)'
}
