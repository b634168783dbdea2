#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Two instances of each tool in $BIN that offers -c, side by side, filtered
# on one unique command name: both see the same execs (and the opens, exits,
# signals, syscalls, lookups and user probes around them; tools on user
# probes get their storm's arguments, which point them at rel-storm). Event tools, and any whose lines name
# the command, must show as many of its lines in both, and some (tools of
# execs, by their storm in tests/reliability/storms: exactly the execs
# made); tools that print counts (no command name) must end on the same
# count; a sampling tool (profile) must run and stop, its samples its own.
# hello, which reads the kernel's one trace pipe, refuses a second
# instance.

bats_require_minimum_version 1.5.0
load helpers
load ../reliability/common

setup() {
	require_root
	declare -gA PIDS=()
}

teardown() {
	local k
	for k in "${!PIDS[@]}"; do
		kill -KILL "${PIDS[$k]}" 2>/dev/null
		wait "${PIDS[$k]}" 2>/dev/null
	done
	return 0
}

# last_count FILE: FILE's last line; of a histogram's "count N avg A p99
# P", only the count: each instance's programs run inside the other's
# timings, so the times differ, the counts not.
last_count() {
	tail -1 "$1" | sed -E 's/^(count [0-9]+) avg .*/\1/'
}

# check TOOL COMM: compare the outputs of TOOL's instances a and b.
check() {
	local t=$1 comm=$2 a=$BATS_TEST_TMPDIR/$1.a b=$BATS_TEST_TMPDIR/$1.b
	local na nb
	# A stack tool (profile's samples, offcputime's blocks) counts what
	# falls in its own window: two instances started and stopped apart see
	# the command's stacks a different number of times (136 and 137 in
	# the 6.1 guest once), if at all.
	# memleak, what is outstanding when it stops: a kernel allocation
	# freed (RCU) between the two stops is in one instance's only.
	if offers "$t" svg || [ "$t" = memleak ]; then
		echo "# $t: counts stacks in its own window: ran and stopped, not compared" >&3
		return 0
	fi
	# The mix makes no direct reclaim (drsnoop's storm makes its own
	# memory cgroup for it), and no run-queue wait of its own for certain.
	if [ "$t" = drsnoop ] || [ "$t" = runqslower ]; then
		echo "# $t: the mix makes none of its events: ran and stopped, not compared" >&3
		return 0
	fi
	na=$(grep -cw -- "$comm" "$a.out" || true)
	nb=$(grep -cw -- "$comm" "$b.out" || true)
	echo "# $t: $na and $nb lines of $comm; last lines: $(tail -1 "$a.out" |
		cut -c1-40) | $(tail -1 "$b.out" | cut -c1-40)" >&3
	if grep -q "^$t exec " "$REL/storms"; then
		[ "$na" = "$TRIGGER_ROUNDS" ] && [ "$nb" = "$TRIGGER_ROUNDS" ] ||
			echo "$t: $na and $nb lines of $comm for its $TRIGGER_ROUNDS execs"
	elif [ "$na" != 0 ] || [ "$nb" != 0 ] || offers "$t" buffer-pages; then
		[ "$na" = "$nb" ] ||
			echo "$t: one instance has $na lines of $comm, the other $nb"
		[ $((na + nb)) != 0 ] ||
			echo "$t: no instance printed an event of $comm"
	elif [ "$(last_count "$a.out")" != "$(last_count "$b.out")" ]; then
		echo "$t: the instances end differently: '$(tail -1 "$a.out")' and '$(tail -1 "$b.out")'"
	elif [ -z "$(tail -1 "$a.out")" ]; then
		echo "$t: neither instance printed anything of $comm"
	fi
}

@test "reliability: instances: two of each tool side by side see the same execs" {
	local t k status comm args
	declare -A COMMS=()
	# hello reads the kernel's one trace pipe, which takes one reader;
	# tools of disks and interrupts have no command to filter on.
	for t in $(tools | grep -vx hello); do
		offers "$t" comm || continue
		COMMS[$t]=$(unique_comm)
		# Its storm's arguments: user probes on rel-storm's own.
		mapfile -t args < <(storm_args "$t")
		for k in a b; do
			"$BIN/$t" -c "${COMMS[$t]}" "${args[@]}" \
				>"$BATS_TEST_TMPDIR/$t.$k.out" \
				2>"$BATS_TEST_TMPDIR/$t.$k.err" &
			PIDS[$t.$k]=$!
		done
	done
	for k in "${!PIDS[@]}"; do
		wait_tracing "${PIDS[$k]}" "$BATS_TEST_TMPDIR/$k.err" ||
			echo "$k: did not start: $(first_error "$BATS_TEST_TMPDIR/$k.err")"
	done >"$BATS_TEST_TMPDIR/report"

	# Each tool's command execs, opens, exits, signals and calls.
	for t in "${!COMMS[@]}"; do
		trigger_execs "${COMMS[$t]}"
	done
	# Let interval tools print, then stop every instance.
	sleep 2
	for k in "${!PIDS[@]}"; do
		kill -INT "${PIDS[$k]}" 2>/dev/null || true
	done
	for k in "${!PIDS[@]}"; do
		status=0
		wait "${PIDS[$k]}" || status=$?
		unset "PIDS[$k]"
		[ "$status" = 0 ] ||
			echo "$k: exit $status: $(first_error "$BATS_TEST_TMPDIR/$k.err")"
	done >>"$BATS_TEST_TMPDIR/report"
	for t in "${!COMMS[@]}"; do
		check "$t" "${COMMS[$t]}"
	done >>"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}

@test "reliability: instances: a second hello refuses in one line; the first sees every exec" {
	local comm i
	comm=$(unique_comm)
	start_tool hello -c "$comm"
	# The kernel's trace pipe takes one reader at a time.
	run --separate-stderr "$BIN/hello" -d 1
	[ "$status" = 1 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "hello: "*"trace pipe"* ]]
	trigger_execs "$comm"
	# Its filter is the kernel's (-c): every line is one of those execs
	# (named by the trace buffer's own cache: "<...>" at times).
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		[ "$(grep -c ': Hello World$' "$OUT")" -lt "$TRIGGER_ROUNDS" ] || break
		sleep 0.1
	done
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(grep -c ': Hello World$' "$OUT")" = "$TRIGGER_ROUNDS" ]
	[ "$(wc -l <"$OUT")" = "$TRIGGER_ROUNDS" ]
}
