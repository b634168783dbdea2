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
load ../integration/futex
load ../integration/klock
load helpers

# lock:contention_begin and _end came in Linux 5.19.
REFUSALS["5.10 klockstat"]="lock:contention_begin|5.19"

# Round-robin spinners at a real-time priority above the PREEMPT_RT
# kernel's IRQ threads (50), ktimers and rcuc (1): nothing but the other
# spinner runs between them, so the one each wait followed is the other.
# As CFS spinners under load, the 6.1-rt guest's runqslower saw A's long
# waits end after ktimers/1, rcuc/1, IRQ threads or itself far more often
# than after B (4 of 27, 1 of 20), and CI once failed for want of one.
@test "runqslower: a round-robin spinner waits over 5 ms for the one sharing its CPU" {
	BURST_ARGS=(1000 0)
	burst A taskset -c 1 chrt -r 60
	burst B taskset -c 1 chrt -r 60
	launch runqslower -j -p "$A" 5000
	go
	echo "# A's waits over 5 ms, by the task each followed: $(jq -sc '
		map(select(.type == null)) | group_by(.prev_comm) |
		map({(.[0].prev_comm): length}) | add' "$OUT")" >&3
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

@test "futexctn: 10 waits of 24 ms on a pthread mutex, at its address, 16-32 ms" {
	# 24 ms: the middle of its bucket, as a guest's waiter may come late.
	mutex_held 10 24 futexctn -j
	check_out --arg l "$LOCK" --argjson p "$PID" '
		map(select(.lock == $l)) | length == 1 and
		(.[0] | .pid == $p and .count >= 8 and .count <= 10 and
		 ([.buckets[] | select(.min == 16384) | .count] | add) >= .count * 0.7)'
}

@test "runqlen: three spinners on CPU 1 leave two waiting there" {
	BURST_ARGS=(1000 0)
	burst A taskset -c 1
	burst B taskset -c 1
	burst C taskset -c 1
	launch runqlen -C -j -F 99
	go
	check_out 'map(select(.cpu == 1)) | length == 1 and
		([.[0].buckets[] | select(.min >= 2) | .count] | add) >= 50'
}

@test "klockstat: renames in one directory wait for a lock under do_renameat2 (5.10: refused)" {
	if refused klockstat; then
		refusal klockstat
		return
	fi
	renamed klockstat -j
	# Whichever lock: PREEMPT_RT's locks are rtmutexes underneath.
	check_out 'any(.count > 0 and (.stack | index("do_renameat2")))'
}
