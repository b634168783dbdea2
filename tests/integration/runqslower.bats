#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# runqslower: of two CPU-bound helpers sharing one CPU, the niced one
# waits more than 5 ms, named with the one it took the CPU from; a
# real-time sleeper, which a CPU takes at once, waits less: with a
# threshold of 0 it shows as many waits, as long, as its
# /proc/PID/schedstat counted, with 5 ms none; raw_tp; text; bad input.

bats_require_minimum_version 1.5.0
load helpers
load burst

setup() {
	require_root
	JOBS=
	CG=
}

eval "helpers_$(declare -f teardown)"
teardown() {
	helpers_teardown
	[ -z "$JOBS" ] || kill -KILL $JOBS 2>/dev/null || true
	wait 2>/dev/null || true
	drop_test_cgroups
}

@test "runqslower: two spinners on one CPU: the niced one waits over 5 ms for the other" {
	# Nice 10 against nice 0: A gets about a tenth of the CPU, so it
	# waits many of B's turns (EEVDF's slices here are
	# shorter than 5 ms, so equal spinners often wait less).
	BURST_ARGS=(1000 0)
	burst A taskset -c 1 nice -n 10
	burst B taskset -c 1
	start_tool runqslower -j 5000
	go
	# Every record is at or above the threshold; one summary.
	jq -es 'map(select(.type == null)) | length > 0 and all(.wait_ns >= 5000000)' "$OUT"
	jq -es 'map(select(.type == "summary")) | length == 1' "$OUT"
	# A's waits name A, and B as the task it took the CPU from.
	ab=$(jq -s --argjson a "$A" --argjson b "$B" 'map(select(.pid == $a and
		.tid == $a and .comm == "burst" and .prev_pid == $b and
		.prev_tid == $b and .prev_comm == "burst" and .cpu == 1)) | length' "$OUT")
	echo "# A's waits over 5 ms after B: $ab" >&3
	[ "$ab" -ge 10 ]
	# No more, nor longer, than A's /proc/PID/schedstat counted.
	n=$(jq -s --argjson a "$A" 'map(select(.pid == $a)) | length' "$OUT")
	ns=$(jq -s --argjson a "$A" 'map(select(.pid == $a) | .wait_ns) | add // 0' "$OUT")
	[ "$n" -le "$(sched_delta A 3)" ]
	[ "$ns" -le $(($(sched_delta A 2) + 100000)) ]
}

@test "runqslower: a real-time sleeper waits less than 5 ms; threshold 0 shows every wait" {
	command -v chrt >/dev/null || skip "no chrt (util-linux)"
	BURST_ARGS=(0 2)
	burst A chrt -f 10
	start_tool runqslower -j -p "$A" 5000
	go
	[ "$(jq -s 'map(select(.type == null)) | length' "$OUT")" = 0 ]

	burst B chrt -f 10
	start_tool runqslower -j -p "$B" 0
	go
	jq -es --argjson b "$B" 'map(select(.type == null)) |
		all(.pid == $b and .tid == $b and .comm == "burst")' "$OUT"
	n=$(jq -s 'map(select(.type == null)) | length' "$OUT")
	[ "$n" -ge 100 ]
	ns=$(jq -s 'map(select(.type == null) | .wait_ns) | add' "$OUT")
	sched_near B 2 "B's waits" "$n" "$ns" 2
}

@test "runqslower: text columns name the waiter and the task it preempted" {
	BURST_ARGS=(1000 0)
	burst A taskset -c 1 nice -n 10
	burst B taskset -c 1
	start_tool runqslower -c burst 5000
	go
	head -1 "$OUT" | grep -Eq '^PID +COMM +TID +LAT\(us\) +CPU +PREV_PID +PREV_COMM +PREV_TID$'
	grep -Eq "^$A +burst +$A +[0-9]+ +1 +$B +burst +$B\$" "$OUT"
	# LAT(us): at the threshold or above.
	awk 'NR > 1 && $4 < 5000 { bad = 1 } END { exit bad }' "$OUT"
}

@test "runqslower: on raw tracepoints (BTF without tp_btf types) the same waits" {
	# A minimized BTF has no btf_trace_* types: runqslower takes raw_tp.
	bpftool gen min_core_btf /sys/kernel/btf/vmlinux "$BATS_TEST_TMPDIR/min.btf" \
		"$BUILD/obj/bpf/runqslower.bpf.o"
	BURST_ARGS=(1000 0)
	burst A taskset -c 1
	burst B taskset -c 1
	start_tool runqslower -j -p "$A" --btf "$BATS_TEST_TMPDIR/min.btf" 0
	bpftool prog list | grep -q ' raw_tracepoint  name switch_raw '
	go
	n=$(jq -s 'map(select(.type == null)) | length' "$OUT")
	[ "$n" -ge 20 ]
	# As many waits, as long, as A's /proc/PID/schedstat counted (the
	# ktime clock: as runqlat's raw_tp test, spinners' waits of
	# milliseconds, where the few microseconds each wakeup's tracepoint
	# comes after the run queue's clock are within 2%).
	ns=$(jq -s 'map(select(.type == null) | .wait_ns) | add' "$OUT")
	sched_near A 2 "A's waits" "$n" "$ns" 2
}

@test "runqslower: --cgroup shows a cgroup's waits, not its sibling's" {
	test_cgroups
	BURST_ARGS=(1000 0)
	burst A taskset -c 1
	burst B taskset -c 1
	echo "$A" >"$CG/in/cgroup.procs"
	echo "$B" >"$CG/out/cgroup.procs"
	start_tool runqslower -j --cgroup "$CG/in" 0
	go
	# A and B wait for each other on CPU 1: only A's waits show.
	[ "$(jq -s --argjson a "$A" 'map(select(.pid == $a)) | length' "$OUT")" -ge 10 ]
	jq -es --argjson a "$A" 'map(select(.type == null)) | all(.pid == $a)' "$OUT"
}

@test "runqslower: bad input exits 2 with one line and no output" {
	for args in "x" "-1" "1 2" "3600000001" "-p 0x"; do
		run --separate-stderr "$BIN/runqslower" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "runqslower: "* ]]
	done
}
