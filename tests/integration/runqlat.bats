#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# runqlat: two CPU-bound helpers sharing one CPU wait milliseconds to run;
# a real-time sleeper waits microseconds; both as many and as long as
# /proc/PID/schedstat says; -P, -i COUNT, -T, -j, --linear.

bats_require_minimum_version 1.5.0
load helpers
load histogram
load burst

setup() {
	require_root
	JOBS=
	CG=
}

eval "helpers_$(declare -f teardown)"
teardown() {
	[ -z "${CG:-}" ] || rmdir "$CG/child" "$CG/other" "$CG"
	helpers_teardown
}

@test "runqlat: two spinners on one CPU wait milliseconds, at least half their time in waits above 500 us" {
	BURST_ARGS=(1000 0)
	burst A taskset -c 1
	burst B taskset -c 1
	start_tool runqlat -j -p "$A"
	go
	check_hist_json "$OUT"
	# One histogram: the pid filter keeps A's waits only.
	[ "$(jq -s 'length' "$OUT")" = 1 ]
	n=$(jq '.count' "$OUT")
	[ "$n" -ge 20 ]
	share=$(hist_share "$OUT" 512)
	time_share=$(hist_time_share "$OUT" 512)
	echo "# $n waits, share >= 512 us: $share, of their time: $time_share" >&3
	jq -en --argjson s "$time_share" '$s >= 0.5'
	# As many waits, as long, as A's /proc/PID/schedstat counted.
	sched_near A 2 "A's waits" "$n" "$(jq '.sum * 1000 | floor' "$OUT")" 2
}

@test "runqlat: a real-time sleeper waits mostly under a millisecond" {
	command -v chrt >/dev/null || skip "no chrt (util-linux)"
	BURST_ARGS=(0 2)
	burst A chrt -f 10
	start_tool runqlat -j -p "$A"
	go
	check_hist_json "$OUT"
	n=$(jq '.count' "$OUT")
	[ "$n" -ge 100 ]
	share=$(hist_share "$OUT" 1024)
	echo "# $n waits, share >= 1024 us: $share" >&3
	# Mostly: more than half of them under a millisecond.
	jq -en --argjson s "$share" '$s < 0.5'
	sched_near A 2 "A's waits" "$n" "$(jq '.sum * 1000 | floor' "$OUT")" 2
}

@test "runqlat: -P shows the process with its pid and comm in text and JSON" {
	BURST_ARGS=(0 2)
	burst A
	start_tool runqlat -P -p "$A"
	go
	grep -qx "pid = $A burst" "$OUT"
	grep -Eq '^ +usecs +: count +distribution$' "$OUT"
	grep -Eq '^count [0-9]+ avg [0-9.]+ p99 [0-9.]+$' "$OUT"

	burst B
	start_tool runqlat -P -j -p "$B" -m
	go
	check_hist_json "$OUT" "(.pid == $B and .comm == \"burst\" and .unit == \"msecs\")"
}

@test "runqlat: --cgroup selects the waiting task in that cgroup or below it" {
	local root
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no cgroup v2 mounted"
	CG=$root/bk$$-$RANDOM
	mkdir -p "$CG/child" "$CG/other"
	BURST_ARGS=(0 2)
	burst A
	echo "$A" >"$CG/child/cgroup.procs"
	start_tool runqlat -j --cgroup "$CG"
	go
	check_hist_json "$OUT"
	jq -e '.count >= 100' "$OUT"

	burst B
	echo "$B" >"$CG/child/cgroup.procs"
	start_tool runqlat -j --cgroup "$CG/other"
	go
	jq -e '.count == 0' "$OUT"
}

@test "runqlat: -u and -c select the waiting task by its user and its name" {
	# setpriv last: it execs the helper itself, as root may still reach it
	# in a build under /root; taskset as nobody could not.
	local user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	BURST_ARGS=(1000 0)
	burst A taskset -c 1 "${user[@]}"
	burst B taskset -c 1 "${user[@]}"
	start_tool runqlat -j -u 65534 -c burst
	go
	check_hist_json "$OUT"
	jq -e '.count >= 20' "$OUT"
	# The same spinners as root: not that user's; another name's neither.
	for filter in "-u 65534 -c burst" "-c burst2"; do
		burst A taskset -c 1
		burst B taskset -c 1
		start_tool runqlat -j $filter
		go
		[ "$(jq '.count' "$OUT")" = 0 ]
	done
}

@test "runqlat: on raw tracepoints (BTF without tp_btf types) it counts the same way" {
	# A minimized BTF has no btf_trace_* types: runqlat takes raw_tp. Its
	# CO-RE relocations keep the task members it reads (as 'make min-btf').
	bpftool gen min_core_btf /sys/kernel/btf/vmlinux "$BATS_TEST_TMPDIR/min.btf" \
		"$BUILD/obj/bpf/runqlat.bpf.o"
	BURST_ARGS=(1000 0)
	burst A taskset -c 1
	burst B taskset -c 1
	start_tool runqlat -j -p "$A" --btf "$BATS_TEST_TMPDIR/min.btf"
	bpftool prog list | grep -q ' raw_tracepoint  name switch_raw '
	go
	check_hist_json "$OUT"
	n=$(jq '.count' "$OUT")
	[ "$n" -ge 20 ]
	# As many waits, as long, as A's /proc/PID/schedstat counted.
	sched_near A 2 "A's waits" "$n" "$(jq '.sum * 1000 | floor' "$OUT")" 2
}

@test "runqlat: -i 1 3 prints exactly 3 intervals and exits 0; -T times them" {
	run --separate-stderr timeout 20 "$BIN/runqlat" -i 1 3 -T
	[ "$status" = 0 ]
	[ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' <<<"$output")" = 3 ]
	run --separate-stderr timeout 20 "$BIN/runqlat" -j 1 3 --linear 100
	[ "$status" = 0 ]
	[ "$(wc -l <<<"$output")" = 3 ]
	check_hist_json <(echo "$output") '(.buckets | all(.max - .min == 99))'
	[ "$(jq -s 'map(.interval)' <<<"$output" | jq -c .)" = "[1,2,3]" ]
}

@test "runqlat: a process with no waits prints one 'no events' line" {
	sleep 30 &
	JOBS+=" $!"
	start_tool runqlat -p "$!" -d 1
	wait "$TOOL_PID"
	TOOL_PID=
	[ "$(cat "$OUT")" = "no events" ]
	[ "$(cat "$ERR")" = "runqlat: tracing; hit Ctrl-C to end" ]
	kill $JOBS
}

@test "runqlat: bad options exit 2 with one line and no output" {
	for args in "-i 0" "1 2 3" "-P -L" "--linear 0" "-i 1 -i 2" "x"; do
		run --separate-stderr "$BIN/runqlat" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "runqlat: "* ]]
	done
}
