#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Storms, for every tool in $BIN with an event channel: with the smallest
# buffer (--buffer-pages 1) a storm from a child the test controls
# (tests/reliability/storms, tests/helpers/rel-storm), part of it while the
# tool is stopped, must not stop the tool, the loss must be reported while
# it runs, and at exit the -j summary must add up exactly: events +
# filtered + lost == produced, with every delivered event printed. A tool's
# staging map cut to one entry (tests/reliability/staging) and kept full
# must count every event it could not stage as lost, staging full.

load helpers
load ../reliability/common

setup() {
	require_root
}

# storm TOOL MODE COUNT FILTER ARG...: run one storm; print what is wrong.
# COUNT events come while the tool reads, then COUNT more while it is
# stopped (SIGSTOP), which overflows any one-page buffer.
storm() {
	local t=$1 mode=$2 count=$3 filter=$4 dir status=0 spid cpid tpid line
	local comm sum events filtered lost produced printed reported misses kernel made
	shift 4
	dir=$BATS_TEST_TMPDIR/$t
	mkdir -p "$dir"
	comm=$(unique_comm)
	ln -sf "$(readlink -f "$HELPERS/rel-storm")" "$dir/$comm"

	# Start the storm child; it waits for counts on stdin.
	coproc STORM { exec "$HELPERS/rel-storm" "$mode" "$comm" "$dir/$comm"; }
	cpid=$STORM_PID # bash unsets STORM_PID once the storm has ended
	read -r -t 10 spid <&"${STORM[0]}"
	case $filter in
	comm) set -- -c "$comm" "$@" ;;
	pid) set -- -p "$spid" "$@" ;;
	esac

	# Trace it through the smallest buffer.
	"$BIN/$t" -j --buffer-pages 1 "$@" >"$dir/out" 2>"$dir/err" &
	tpid=$!
	if ! wait_tracing "$tpid" "$dir/err"; then
		echo "$t: did not start: $(first_error "$dir/err")"
		kill "$cpid" 2>/dev/null || true
		return 0
	fi

	# A storm while it reads, one while it is stopped, then the loss
	# must be reported while it runs on.
	echo "$count" >&"${STORM[1]}"
	read -r -t 120 line <&"${STORM[0]}" || true
	kill -STOP "$tpid" 2>/dev/null || true
	echo "$count" >&"${STORM[1]}"
	read -r -t 120 line <&"${STORM[0]}" || true
	kill -CONT "$tpid" 2>/dev/null || true
	[ -z "${STORM[1]:-}" ] || eval "exec ${STORM[1]}>&-"
	wait "$cpid" || true
	wait_for "$dir/err" "^$t: lost [0-9]+ events" 10 ||
		echo "$t: no loss report on stderr while running"
	[ "$mode" != retrans ] || misses=$(recursion_misses "$tpid")
	kill -INT "$tpid" 2>/dev/null || echo "$t: died during the storm"
	wait "$tpid" || status=$?

	# Check the summary against the records and the loss reports.
	sum=$(grep '"type":"summary"' "$dir/out" | tail -1)
	events=$(jq -r .events <<<"$sum")
	filtered=$(jq -r .filtered <<<"$sum")
	lost=$(jq -r .lost <<<"$sum")
	produced=$(jq -r .produced <<<"$sum")
	printed=$(grep -vc '"type":' "$dir/out" || true)
	reported=$(grep '"type":"lost"' "$dir/out" | tail -1 | jq -r .total || true)
	echo "# $t $*: 2 x $count ${mode}s: produced $produced, events $events, lost $lost" >&3
	[ "$status" = 0 ] || echo "$t: exit $status: $(first_error "$dir/err")"
	[ -n "$sum" ] || {
		echo "$t: no summary line"
		return 0
	}
	[ "$((events + filtered + lost))" = "$produced" ] ||
		echo "$t: events $events + filtered $filtered + lost $lost != produced $produced"
	# A retransmit storm ends with everything acknowledged and says how
	# many retransmits its namespace sent (TcpRetransSegs less
	# TCPRetransFail, one segment each: a try the device refused sent
	# nothing, and the tool skips it): the tool cannot have produced more.
	# Those it did not see are the kernel's: runs of its program skipped
	# (recursion misses: the retransmit ran in softirq over another BPF
	# program on that CPU, other tracers' under load; counted for every
	# retransmit of the system, so not added up exactly) and, under load
	# only, some the counters hold but no program ran for, with no miss
	# counted (CI, host suite beside the guest: 7 of 20003, 17 of 20010,
	# 136 of 20090 in the fresh root; a bpftrace counter alone, under
	# load: 13 of 20016, none of them with an error; quiet, none; the
	# cause is not found): at least all but 5% of them then, which a
	# tool missing a kind of retransmit (a family, a state) would not.
	if [ "$mode" = retrans ]; then
		kernel=${line##* }
		echo "# $t: the namespace's $kernel retransmits, $misses recursion misses" >&3
		[ "$produced" -le "$kernel" ] ||
			echo "$t: produced $produced > the namespace's $kernel retransmits"
	fi
	made=$((produced + ${misses:-0}))
	# A tool of disks (FILTER none) counts block requests, not reads: under
	# load it has seen a few fewer than the storm's O_DIRECT reads (3993 of
	# 4000 once in CI, cause not found; biosnoop.bats counts exactly on a
	# loop device of its own), so it must see at least the first storm.
	if [ "$filter" = none ]; then
		[ "$made" -ge "$count" ] ||
			echo "$t: produced $made < the first storm's $count"
	elif [ "$mode" = retrans ]; then
		[ "$made" -ge $((kernel - kernel / 20)) ] ||
			echo "$t: produced $made (with recursion misses) < 95% of the namespace's $kernel retransmits"
	else
		[ "$made" -ge $((2 * count)) ] ||
			echo "$t: produced $made (with recursion misses) < the storms' $((2 * count))"
	fi
	[ "$lost" -gt 0 ] || echo "$t: the storms lost nothing: make them bigger"
	[ "$printed" = "$events" ] ||
		echo "$t: printed $printed records but counted $events events"
	[ "$lost" = 0 ] || [ "$reported" = "$lost" ] ||
		echo "$t: the last {\"type\":\"lost\"} total is $reported, not $lost"
}

# recursion_misses PID: the runs of the BPF programs of tool PID the kernel
# skipped, as another BPF program ran on that CPU (bpf_prog_info).
recursion_misses() {
	local id n=0
	for id in $(bpf_ids "$1" | awk '$1 == "prog" { print $2 }'); do
		n=$((n + $(bpftool -j prog show id "$id" | jq '.recursion_misses // 0')))
	done
	echo "$n"
}

# storm_all ARG...: a storm for every event tool, with ARG...
storm_all() {
	local t row
	for t in $(event_tools); do
		row=$(grep "^$t " "$REL/storms") || {
			echo "$t: no storm in tests/reliability/storms"
			continue
		}
		eval "storm $row $*"
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}

@test "reliability: storm: perf buffer of one page: loss reported, counts exact" {
	storm_all
}

@test "reliability: storm: ring buffer of one page: loss reported, counts exact" {
	storm_all --ringbuf
}

# fill_map PID MAP: put an entry no call uses (key all ones) into the map
# MAP of the tool PID, so that a one-entry MAP is full; fails when PID has
# no such map.
fill_map() {
	local id info
	for id in $(bpf_ids "$1" | awk '$1 == "map" { print $2 }'); do
		info=$(bpftool -j map show id "$id" 2>/dev/null) || continue
		# The kernel keeps 15 bytes of a map's name.
		[ "$(jq -r .name <<<"$info")" = "${2:0:15}" ] || continue
		# shellcheck disable=SC2046 # one word per byte
		bpftool map update id "$id" \
			key hex $(printf 'ff %.0s' $(seq "$(jq .bytes_key <<<"$info")")) \
			value hex $(printf '00 %.0s' $(seq "$(jq .bytes_value <<<"$info")"))
		return
	done
	echo "no map $2 in process $1"
	return 1
}

# staging TOOL MAP KIND MODE COUNT FILTER ARG...: a storm of COUNT events
# against TOOL with MAP cut to one entry and, for a hash map, kept full;
# print what is wrong.
staging() {
	local t=$1 map=$2 kind=$3 mode=$4 count=$5 filter=$6 dir spid tpid
	local comm sum status=0 line events filtered lost staged produced cpid
	shift 6
	dir=$BATS_TEST_TMPDIR/$t
	mkdir -p "$dir"
	comm=$(unique_comm)
	ln -sf "$(readlink -f "$HELPERS/rel-storm")" "$dir/$comm"
	coproc STORM { exec "$HELPERS/rel-storm" "$mode" "$comm" "$dir/$comm"; }
	cpid=$STORM_PID # bash unsets STORM_PID once the storm has ended
	read -r -t 10 spid <&"${STORM[0]}"
	case $filter in
	comm) set -- -c "$comm" "$@" ;;
	pid) set -- -p "$spid" "$@" ;;
	esac

	"$BIN/$t" -j --test-map-entries "$map=1" "$@" >"$dir/out" 2>"$dir/err" &
	tpid=$!
	if ! wait_tracing "$tpid" "$dir/err"; then
		echo "$t: did not start: $(first_error "$dir/err")"
		kill "$cpid" 2>/dev/null || true
		return 0
	fi
	if [ "$kind" = hash ] && ! fill_map "$tpid" "$map"; then
		kill "$cpid" "$tpid" 2>/dev/null || true
		return 0
	fi
	echo "$count" >&"${STORM[1]}"
	read -r -t 120 line <&"${STORM[0]}" || true
	[ -z "${STORM[1]:-}" ] || eval "exec ${STORM[1]}>&-"
	wait "$cpid" || true
	kill -INT "$tpid" 2>/dev/null || echo "$t: died during the storm"
	wait "$tpid" || status=$?

	sum=$(grep '"type":"summary"' "$dir/out" | tail -1)
	[ "$status" = 0 ] || echo "$t: exit $status: $(first_error "$dir/err")"
	[ -n "$sum" ] || {
		echo "$t: no summary line"
		return 0
	}
	events=$(jq -r .events <<<"$sum")
	filtered=$(jq -r .filtered <<<"$sum")
	lost=$(jq -r .lost <<<"$sum")
	staged=$(jq -r .staging_full <<<"$sum")
	produced=$(jq -r .produced <<<"$sum")
	echo "# $t $*: $count ${mode}s, $map of 1 entry ($kind): produced $produced, events $events, lost $lost ($staged staging full)" >&3
	[ "$((events + filtered + lost))" = "$produced" ] ||
		echo "$t: events $events + filtered $filtered + lost $lost != produced $produced"
	[ "$((events + lost))" -ge "$count" ] ||
		echo "$t: events $events + lost $lost < the storm's $count: events went missing uncounted"
	[ "$(grep -vc '"type":' "$dir/out")" = "$events" ] ||
		echo "$t: printed $(grep -vc '"type":' "$dir/out") records but counted $events events"
	[ "$kind" = hash ] || return 0
	# The map was full all along: no storm event got through.
	[ "$staged" -ge "$count" ] ||
		echo "$t: $staged lost as staging full, not all the storm's $count"
	[ -z "$(grep -v '"type":' "$dir/out" | jq -c --arg c "$comm" 'select(.comm == $c)')" ] ||
		echo "$t: an event of the storm was printed through a full $map"
	grep -q "^$t: [0-9]* events, $lost lost (.*$staged staging full" "$dir/err" ||
		echo "$t: the summary line does not give the staging loss: $(tail -1 "$dir/err")"
	grep -q "^$t: lost [0-9]* events .*: a BPF staging map was full" "$dir/err" ||
		echo "$t: no staging loss report on stderr"
}

@test "reliability: storm: a full one-entry staging map: every event counted lost, staging full" {
	local row
	while read -r row; do
		eval "staging $row"
	done < <(grep -v '^#' "$REL/staging") >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}
