# SPDX-License-Identifier: GPL-2.0
# Shared by the scheduler tools' tests: the burst helper, stopped until
# the tool traces, then let go for one second.

# burst VAR [WRAPPER...]: start the burst helper (BURST_ARGS: BURST_MS
# SLEEP_MS) under WRAPPER (taskset, chrt); it stops itself at once. VAR
# gets its pid.
burst() {
	local out=$BATS_TEST_TMPDIR/$1
	"${@:2}" "$HELPERS/burst" 1000 "${BURST_ARGS[@]}" >"$out" &
	JOBS+=" $!"
	wait_for "$out" '^[0-9]+$' 5
	printf -v "$1" %s "$(head -1 "$out")"
}

# go: continue the helpers, wait for them to end, then stop the tool.
# Each helper's /proc/PID/schedstat is kept first, once it has stopped.
go() {
	local pid i
	for pid in $JOBS; do
		for ((i = 0; i < 100; i++)); do
			[ "$(awk '{ print $3 }' "/proc/$pid/stat")" != T ] || break
			sleep 0.05
		done
		cat "/proc/$pid/schedstat" >"$BATS_TEST_TMPDIR/$pid.schedstat"
	done
	for pid in $JOBS; do
		kill -CONT "$pid"
	done
	wait $JOBS
	JOBS=
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

# sched_delta VAR FIELD: how much the burst helper VAR's /proc/PID/schedstat
# FIELD (1: ns on a CPU, 2: ns waiting on a run queue, 3: runs on a CPU)
# grew from go (stopped, the tool tracing) to its own reading as it ended.
sched_delta() {
	local pid=${!1} before after
	before=$(cut -d' ' -f"$2" "$BATS_TEST_TMPDIR/$pid.schedstat")
	after=$(awk -v f="$2" '$1 == "schedstat" { print $(f + 1) }' \
		"$BATS_TEST_TMPDIR/$1")
	echo $((after - before))
}

# sched_near VAR FIELD WHAT COUNT NS PCT: a tool's COUNT values adding up
# to NS nanoseconds for the burst helper VAR agree with its schedstat:
# COUNT with its runs (field 3), NS with FIELD within PCT% and 100 us.
# Not to the unit, measured on this host under load (average 14 on 2
# CPUs): schedstat counts a few runs that no sched_switch event shows
# (bpftrace sees the tools' count too: 2 of 993 runs on a quiet host, up
# to 7 of 492 loaded), waits of those runs are missing from the tools'
# sum (up to 0.8% of it), and a run may follow the helper's own reading
# as it exits; CPU time (field 1) is the task clock, which leaves out what
# the hypervisor stole from the virtual CPU, while cpudist times runs by
# the wall clock (up to 2.4% more). So: COUNT within 3% and 2 below the
# runs, at most 2 above; NS as the caller says. A tool off by a unit,
# counting twice or missing a kind of wait or run is far outside.
sched_near() {
	local runs want
	runs=$(sched_delta "$1" 3)
	want=$(sched_delta "$1" "$2")
	echo "# $3: $4 counted, $5 ns; schedstat: $runs runs, $want ns (within $6% and 100 us)" >&3
	[ "$4" -le $((runs + 2)) ]
	[ "$4" -ge $((runs - runs * 3 / 100 - 2)) ]
	[ "$5" -le $((want + want * $6 / 100 + 100000)) ]
	[ "$5" -ge $((want - want * $6 / 100 - 100000)) ]
}
