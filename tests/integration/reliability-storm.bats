#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Storms, for every tool in $BIN with an event channel: with the smallest
# buffer (--buffer-pages 1) a storm from a child the test controls
# (tests/reliability/storms, tests/helpers/rel-storm), part of it while the
# tool is stopped, must not stop the tool, the loss must be reported while
# it runs, and at exit the -j summary must add up exactly: events + lost ==
# produced, with every delivered event printed.

load helpers
load ../reliability/common

setup() {
	require_root
}

# storm TOOL MODE COUNT FILTER ARG...: run one storm; print what is wrong.
# COUNT events come while the tool reads, then COUNT more while it is
# stopped (SIGSTOP), which overflows any one-page buffer.
storm() {
	local t=$1 mode=$2 count=$3 filter=$4 dir status=0 spid tpid line
	local comm sum events lost produced printed reported
	shift 4
	dir=$BATS_TEST_TMPDIR/$t
	mkdir -p "$dir"
	comm=$(unique_comm)
	ln -sf "$(readlink -f "$HELPERS/rel-storm")" "$dir/$comm"

	# Start the storm child; it waits for counts on stdin.
	coproc STORM { exec "$HELPERS/rel-storm" "$mode" "$comm" "$dir/$comm"; }
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
		kill "$STORM_PID" 2>/dev/null || true
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
	eval "exec ${STORM[1]}>&-"
	wait "$STORM_PID" || true
	wait_for "$dir/err" "^$t: lost [0-9]+ events" 10 ||
		echo "$t: no loss report on stderr while running"
	kill -INT "$tpid" 2>/dev/null || echo "$t: died during the storm"
	wait "$tpid" || status=$?

	# Check the summary against the records and the loss reports.
	sum=$(grep '"type":"summary"' "$dir/out" | tail -1)
	events=$(jq -r .events <<<"$sum")
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
	[ "$((events + lost))" = "$produced" ] ||
		echo "$t: events $events + lost $lost != produced $produced"
	[ "$produced" -ge $((2 * count)) ] ||
		echo "$t: produced $produced < the storms' $((2 * count))"
	[ "$lost" -gt 0 ] || echo "$t: the storms lost nothing: make them bigger"
	[ "$printed" = "$events" ] ||
		echo "$t: printed $printed records but counted $events events"
	[ "$lost" = 0 ] || [ "$reported" = "$lost" ] ||
		echo "$t: the last {\"type\":\"lost\"} total is $reported, not $lost"
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
