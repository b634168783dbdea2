#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Overload control (--rate-limit, --rate-limit-by, --sample, --sample-random,
# --max-cpu), in the channel's rooms for every event tool: opensnoop traces
# overload-storm's opens of /dev/null, told apart by pid under one unique
# command name (-c). Each test checks the exact identity events + filtered +
# lost + throttled + sampled == produced and bounds that hold on a loaded
# machine: the token bucket's by the records' own kernel times, the sample's
# from the binomial distribution; none of them times anything.

load helpers

setup() {
	require_root
	GO=$BATS_TEST_TMPDIR/go
	COMM=$(unique_comm)
}

# helper NAME MODE ARG...: start overload-storm as COMM in MODE, its output
# in $BATS_TEST_TMPDIR/NAME (its pid on the first line), waiting for $GO.
helper() {
	"$HELPERS/overload-storm" "$COMM" "$GO" "${@:2}" \
		>"$BATS_TEST_TMPDIR/$1" &
	eval "${1}_job=\$!"
	wait_for "$BATS_TEST_TMPDIR/$1" '^[0-9]+$'
}

# pid_of NAME: the pid helper NAME printed.
pid_of() {
	head -1 "$BATS_TEST_TMPDIR/$1"
}

# summary FIELD: the JSON summary's FIELD.
summary() {
	jq -s ".[-1] | select(.type == \"summary\") | .$1" "$OUT"
}

# The identity, exactly, from the JSON summary.
identity_holds() {
	jq -es '.[-1] | .type == "summary" and .events + .filtered + .lost +
		.throttled + .sampled == .produced' "$OUT"
}

# shown PID: the records of PID.
shown() {
	jq -s "map(select(.pid == $1)) | length" "$OUT"
}

# within_bucket PID RATE: PID's records are at most RATE a second over the
# span of their own kernel times, plus one bucket's burst (RATE), plus one
# for the times' rounding.
within_bucket() {
	jq -es --argjson pid "$1" --argjson rate "$2" '
		map(select(.pid == $pid) | .ts) as $ts
		| ($ts | length) <= $rate + $rate * (($ts | max) - ($ts | min)) + 1' \
		"$OUT"
}

@test "overload: --rate-limit 100 --rate-limit-by pid: all 50 quiet events, the storm's within its bucket, the rest throttled and named" {
	helper storm storm 200000
	helper quiet quiet 50 20
	start_tool opensnoop -j -t -c "$COMM" --rate-limit 100 --rate-limit-by pid
	touch "$GO"
	wait "$storm_job"
	wait "$quiet_job"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	storm=$(pid_of storm) quiet=$(pid_of quiet)
	[ "$(shown "$quiet")" = 50 ]
	within_bucket "$storm" 100
	# At least the bucket's first burst got through.
	[ "$(shown "$storm")" -ge 100 ]
	[ "$(summary produced)" = 200050 ]
	[ "$(summary lost)" = 0 ]
	[ $(($(shown "$storm") + $(summary throttled))) = 200000 ]
	identity_holds
	# A throttled record names the storm's pid and comm, and none the quiet's.
	jq -es --argjson pid "$storm" --arg comm "$COMM" '
		map(select(.type == "throttled")) | length > 0 and
		all(.top[0].pid == $pid and .top[0].comm == $comm)' "$OUT"
	jq -es --argjson pid "$quiet" '
		all(.[] | select(.type == "throttled") | .top[]; .pid != $pid)' "$OUT"
	# Their counts add up to the summary's.
	jq -es '(map(select(.type == "throttled") | .throttled) | add) ==
		.[-1].throttled' "$OUT"
}

@test "overload: --rate-limit 100 for the whole tool: text summary and the stderr line name the throttled pid" {
	helper storm storm 100000
	start_tool opensnoop -c "$COMM" --rate-limit 100
	touch "$GO"
	wait "$storm_job"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	storm=$(pid_of storm)
	line=$(grep -E '^opensnoop: [0-9]+ events, 0 lost, [0-9]+ throttled$' "$ERR")
	read -r _ events _ _ _ throttled _ <<<"$line"
	[ $((events + throttled)) = 100000 ]
	[ "$events" = "$(grep -c " $COMM " "$OUT")" ]
	[ "$events" -ge 1 ]
	grep -Eq "^opensnoop: throttled [0-9]+ events \([0-9]+ in total\): most from pid $storm \($COMM\) [0-9]+\$" "$ERR"
}

@test "overload: the storm program on both transports: events + throttled == produced, nothing lost" {
	local child mode
	for mode in "" --ringbuf; do
		rm -f "$GO"
		"$HELPERS/getppid-storm" 100000 "$GO" >"$BATS_TEST_TMPDIR/child" &
		child=$!
		wait_for "$BATS_TEST_TMPDIR/child" '^[0-9]+$'
		OUT=$BATS_TEST_TMPDIR/out ERR=$BATS_TEST_TMPDIR/err
		# Not the last round's "tracing" line: empty it first.
		: >"$ERR"
		"$PROGS/storm" -j -p "$(head -1 "$BATS_TEST_TMPDIR/child")" \
			--rate-limit 1000 $mode >"$OUT" 2>"$ERR" &
		TOOL_PID=$!
		wait_for "$ERR" 'tracing; hit Ctrl-C to end' 20
		touch "$GO"
		wait "$child"
		stop_tool
		[ "$TOOL_STATUS" = 0 ]
		jq -es '.[-1] | .produced == 100000 and .lost == 0 and
			.events > 0 and .events < 100000 and
			.events + .throttled == .produced' "$OUT"
	done
}

@test "overload: --sample 10 keeps whole processes, about a tenth of 100 (binomial bounds), the identity exact" {
	helper procs procs 100 100
	start_tool opensnoop -j -c "$COMM" --sample 10
	touch "$GO"
	wait "$procs_job"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# Every child shows all its 100 opens or none.
	jq -es 'map(select(.pid)) | group_by(.pid) | all(length == 100)' "$OUT"
	kept=$(jq -s 'map(select(.pid)) | group_by(.pid) | length' "$OUT")
	# P(kept = 0) + P(kept > 25) < 4e-5 for Binomial(100, 0.1).
	[ "$kept" -ge 1 ]
	[ "$kept" -le 25 ]
	# Only the helper's children: each pid is one of theirs.
	tail -n +2 "$BATS_TEST_TMPDIR/procs" | grep -x '[0-9]*' | sort >"$BATS_TEST_TMPDIR/children"
	jq -r 'select(.pid) | .pid' "$OUT" | sort -u | comm -23 - "$BATS_TEST_TMPDIR/children" >"$BATS_TEST_TMPDIR/strangers"
	[ ! -s "$BATS_TEST_TMPDIR/strangers" ]
	[ "$(summary events)" = $((kept * 100)) ]
	[ "$(summary sampled)" = $((10000 - kept * 100)) ]
	[ "$(summary produced)" = 10000 ]
	identity_holds
}

@test "overload: --sample 10 --sample-random keeps about a tenth of the events, from most processes" {
	helper procs procs 100 100
	start_tool opensnoop -j -c "$COMM" --sample 10 --sample-random
	touch "$GO"
	wait "$procs_job"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	events=$(summary events)
	# Binomial(10000, 0.1): 1000, sd 30; 6 sd either side.
	[ "$events" -ge 820 ]
	[ "$events" -le 1180 ]
	# A process keeps none of its 100 with chance 0.9^100 = 3e-5.
	[ "$(jq -s 'map(select(.pid)) | group_by(.pid) | length' "$OUT")" -ge 90 ]
	[ "$(summary produced)" = 10000 ]
	[ "$(summary sampled)" = $((10000 - events)) ]
	identity_holds
}

@test "overload: --rate-limit-by cgroup names the storm's cgroup v2 id" {
	local v2 path
	v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$v2" ] || skip "no cgroup v2 mount"
	helper storm storm 50000
	path=$(sed -n 's/^0:://p' "/proc/$(pid_of storm)/cgroup")
	start_tool opensnoop -j -c "$COMM" --rate-limit 100 --rate-limit-by cgroup
	touch "$GO"
	wait "$storm_job"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson id "$(stat -c %i "$v2$path")" --argjson pid "$(pid_of storm)" '
		map(select(.type == "throttled")) | length > 0 and
		all(.top[0].cgroup_id == $id and .top[0].pid == $pid)' "$OUT"
	[ $(($(summary events) + $(summary throttled))) = 50000 ]
	identity_holds
}

@test "overload: --rate-limit-by comm throttles the command name" {
	helper storm storm 50000
	start_tool opensnoop -j -t -c "$COMM" --rate-limit 100 --rate-limit-by comm
	touch "$GO"
	wait "$storm_job"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	within_bucket "$(pid_of storm)" 100
	jq -es --arg comm "$COMM" 'map(select(.type == "throttled")) |
		length > 0 and all(.top[0].comm == $comm)' "$OUT"
	[ $(($(summary events) + $(summary throttled))) = 50000 ]
	identity_holds
}

# tool_cpu_ns PID: the CPU time of PID's threads and the run time of the
# BPF programs it holds (each once; its BPF_ENABLE_STATS keeps it counted).
tool_cpu_ns() {
	local f ns sum=0 bpf
	for f in /proc/"$1"/task/*/schedstat; do
		read -r ns _ <"$f" 2>/dev/null && sum=$((sum + ns))
	done
	bpf=$(awk 'function keep() { if (id != "" && ns != "") run[id] = ns; id = ns = "" }
		FNR == 1 { keep() }
		$1 == "prog_id:" { id = $2 }
		$1 == "run_time_ns:" { ns = $2 }
		END { keep(); for (i in run) s += run[i]; print s + 0 }' \
		/proc/"$1"/fdinfo/* 2>/dev/null)
	echo $((sum + bpf))
}

@test "overload: --max-cpu 5 on a storm: the tool's CPU falls to about 5% and the summary says it throttled" {
	local cpu0 cpu1 t0 t1
	# 30000 opens a second for 10 s, a wakeup per record: unlimited, the
	# reader alone takes about 16% of a CPU here. A slower machine
	# (TIME_SCALE: QEMU/TCG's guest) gets fewer: there the throttled
	# calls' own BPF run time, which --max-cpu cannot lower, passed 5%
	# of a CPU at 10000 a second.
	helper storm paced $((30000 / TIME_SCALE / TIME_SCALE)) 10
	start_tool opensnoop -j -c "$COMM" --wakeup 1 --max-cpu 5
	touch "$GO"
	# After 5 s, 3 s of the tool's CPU (its own threads and programs),
	# measured apart from the tool's own measure.
	sleep 5
	cpu0=$(tool_cpu_ns "$TOOL_PID") t0=$(date +%s%N)
	sleep 3
	cpu1=$(tool_cpu_ns "$TOOL_PID") t1=$(date +%s%N)
	wait "$storm_job"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	echo "# tool CPU over 3 s: $(((cpu1 - cpu0) * 1000 / (t1 - t0)))/1000 of a CPU" >&3
	# About 5%: under 7.5%.
	[ $(((cpu1 - cpu0) * 1000 / (t1 - t0))) -le 75 ]
	grep -Eq '^opensnoop: using [0-9.]+% of a CPU, above --max-cpu 5: lowering the event budget to [0-9]+ events/s while above it$' "$ERR"
	grep -Eq '^opensnoop: --max-cpu 5: throttled by it \(' "$ERR"
	jq -es '.[-1] | .max_cpu == 5 and .max_cpu_throttled and .throttled > 0' "$OUT"
	# The tool's own measure, the last three seconds of the storm.
	jq -es 'map(select(.type == "throttled") | .cpu_percent) | .[-4:-1] |
		length == 3 and add / 3 < 7.5' "$OUT"
	identity_holds
}

@test "overload: metrics count throttled events; shown + lost + throttled + sampled == produced in a scrape" {
	local port body i ok=
	port=$(free_port)
	helper storm storm 50000
	start_tool opensnoop -c "$COMM" --rate-limit 100 --metrics "127.0.0.1:$port"
	touch "$GO"
	wait "$storm_job"
	# Once every record produced is read, the scrape's counts add up.
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		body=$(scrape "$port")
		ok=$(awk '
			/^bpfkit_events_total / { e = $2 } /^bpfkit_filtered_events_total / { f = $2 }
			/^bpfkit_lost_events_total\{/ { l += $2 }
			/^bpfkit_throttled_events_total / { t = $2 } /^bpfkit_sampled_events_total / { s = $2 }
			/^bpfkit_produced_events_total / { p = $2 }
			END { if (p == 50000 && e + f + l + t + s == p && t > 0) print "ok" }' <<<"$body")
		[ -n "$ok" ] && break
		sleep 0.1
	done
	stop_tool
	echo "$body" | grep '_events_total' | sed 's/^/# /' >&3
	[ "$ok" = ok ]
}

@test "overload: metrics count the --rate-limit-by keys made: one storm process, one miss" {
	local port body i misses=
	port=$(free_port)
	helper storm storm 20000
	start_tool opensnoop -c "$COMM" --rate-limit 100 --rate-limit-by pid \
		--metrics "127.0.0.1:$port"
	touch "$GO"
	wait "$storm_job"
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		body=$(scrape "$port")
		grep -qx 'bpfkit_produced_events_total 20000' <<<"$body" && break
		sleep 0.1
	done
	stop_tool
	grep -qx 'bpfkit_produced_events_total 20000' <<<"$body"
	misses=$(awk '/^bpfkit_rate_limit_misses_total / { print $2 }' <<<"$body")
	[ "$misses" = 1 ]
}

@test "overload: bad values are one-line usage errors (exit 2)" {
	local args
	while IFS= read -r args; do
		run "$BIN/opensnoop" $args -d 1
		[ "$status" = 2 ]
		[ "${#lines[@]}" = 1 ]
		[[ ${lines[0]} == opensnoop:* ]]
	done <<'EOF_ARGS'
--rate-limit 0
--rate-limit -5
--rate-limit abc
--rate-limit 10000001
--sample 1
--sample 0
--max-cpu 0
--max-cpu 101
--rate-limit-by pid
--rate-limit 5 --rate-limit-by tid
--sample-random
EOF_ARGS
	run "$BIN/opensnoop" --rate-limit 0
	[ "$output" = "opensnoop: invalid --rate-limit '0': expected a whole number from 1 to 10000000" ]
	run "$BIN/opensnoop" --sample 1
	[ "$output" = "opensnoop: invalid --sample '1': expected a whole number from 2 to 1000000" ]
}
