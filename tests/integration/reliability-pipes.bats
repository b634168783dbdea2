#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Pipes, for every tool in $BIN: `tool | head -1` ends promptly and quietly
# once head has its line: exit 0, and nothing on stderr but the "tracing"
# line (no EPIPE error, no summary to a reader that is gone). A tool that
# prints only when it ends gets a SIGINT, and must then be as quiet.

load helpers
load ../reliability/common

setup() {
	require_root
}

# Kill what is left of the tools, by the pids they saved.
teardown() {
	local f
	for f in "$BATS_TEST_TMPDIR"/*.pid; do
		[ -e "${f%.pid}.status" ] || kill -KILL "$(cat "$f")" 2>/dev/null
	done
	return 0
}

# all_exist FILE...: do all FILEs exist?
all_exist() {
	local f
	for f; do
		[ -e "$f" ] || return 1
	done
}

@test "reliability: pipes: every tool | head -1 exits 0, quietly, soon after" {
	local d=$BATS_TEST_TMPDIR t i summary lines=() statuses=()
	for t in $(tools); do
		(
			"$BIN/$t" $(plain_args "$t") 2>"$d/$t.err" &
			echo $! >"$d/$t.pid"
			wait $!
			echo $? >"$d/$t.status"
		) | head -1 >"$d/$t.line" &
		lines+=("$d/$t.line") statuses+=("$d/$t.status")
	done

	# Cause events until every head has its line; tools that print only
	# at the end (no interval given) get a SIGINT after 5 s.
	for ((i = 0; i < 20; i++)); do
		[ "$i" != 10 ] || for t in $(tools); do
			[ -s "$d/$t.line" ] && continue
			kill -INT "$(cat "$d/$t.pid")" 2>/dev/null || true
			touch "$d/$t.at-end"
		done
		trigger_execs "$(unique_comm)"
		for t in "${lines[@]}"; do
			[ -s "$t" ] || continue 2
		done
		break
	done
	# Then each tool has 5 s to notice its reader is gone.
	for ((i = 0; i < 50; i++)); do
		all_exist "${statuses[@]}" && break
		sleep 0.1
	done

	for t in $(tools); do
		if [ ! -s "$d/$t.line" ]; then
			echo "$t: printed no line, even after SIGINT"
		elif [ ! -e "$d/$t.status" ]; then
			echo "$t: still running 5 s after head exited"
		elif [ "$(cat "$d/$t.status")" != 0 ]; then
			echo "$t: exit $(cat "$d/$t.status"), not 0: $(first_error "$d/$t.err")"
		fi
		# A tool that prints at its end wrote everything into the pipe
		# before head read its line: its summary may follow.
		summary="^$t: tracing; hit Ctrl-C to end\$"
		[ ! -e "$d/$t.at-end" ] || summary="^$t: [0-9]+ [a-z]+, 0 lost\$"
		# A stack tool may name a binary without frame pointers at its
		# end, and on a busy machine a tool the runs the kernel skipped,
		# reports, not errors.
		grep -v "^$t: tracing; hit Ctrl-C to end\$" "$d/$t.err" |
			grep -Ev "$summary" |
			grep -Ev "^$t: (\[missing frame pointer\?\] |the kernel skipped [0-9]+ runs )" |
			head -3 |
			sed "s/^/$t: said on stderr: /"
	done >"$d/report"
	sed 's/^/# /' "$d/report" >&3
	[ ! -s "$d/report" ]
}

# A full disk (/dev/full) is no closed pipe: every tool says so in one line
# and exits 1, also a tool that prints only when it ends.
@test "reliability: pipes: every tool >/dev/full fails: one line naming the error, exit 1" {
	local d=$BATS_TEST_TMPDIR t i pids=() want json
	for t in $(tools); do
		# JSON Lines have no header: the events' own lines must fail.
		# biopattern's come from disk I/O, which the trigger does not
		# make for certain (tmpfs, no sync to wait for): its text
		# header fails instead.
		json=
		! offers "$t" json || [ "$t" = biopattern ] || json=-j
		(
			"$BIN/$t" $(plain_args "$t") $json -d 2 >/dev/full 2>"$d/$t.err" &
			echo $! >"$d/$t.pid"
			wait $! || echo $? >"$d/$t.status"
			[ -e "$d/$t.status" ] || echo 0 >"$d/$t.status"
		) &
		pids+=("$d/$t.status")
	done

	# Cause events until every tool has ended (each runs 2 s once tracing).
	for ((i = 0; i < 60 * TIME_SCALE; i++)); do
		all_exist "${pids[@]}" && break
		trigger_execs "$(unique_comm)"
		sleep 0.1
	done

	for t in $(tools); do
		want="$t: cannot write output: No space left on device"
		if [ ! -e "$d/$t.status" ]; then
			echo "$t: still running"
		elif [ "$(cat "$d/$t.status")" != 1 ]; then
			echo "$t: exit $(cat "$d/$t.status"), not 1"
		fi
		grep -v "^$t: tracing; hit Ctrl-C to end\$" "$d/$t.err" |
			grep -vFx "$want" | head -3 | sed "s/^/$t: said on stderr: /"
		[ "$(grep -cFx "$want" "$d/$t.err")" = 1 ] ||
			echo "$t: no one line '$want' on stderr"
	done >"$d/report"
	sed 's/^/# /' "$d/report" >&3
	[ ! -s "$d/report" ]
}

# blocked_in_write PID: is PID in write(2) (x86-64 syscall 1), its pipe full?
blocked_in_write() {
	[ "$(cut -d' ' -f1 /proc/"$1"/syscall 2>/dev/null)" = 1 ]
}

# A signal that comes while stdout is blocked on a full pipe must neither
# tear a line nor drop the buffered ones (a write cut short by EINTR loses
# stdio's buffer): opensnoop -j writes to a reader that does not read yet,
# during an open(2) storm, gets SIGTERM once it is blocked, and then every
# line must parse and the event lines must be as many as the summary says.
@test "reliability: pipes: SIGTERM while stdout is blocked loses no line, tears none" {
	local d=$BATS_TEST_TMPDIR comm pid i events
	comm=$(unique_comm)
	yes 1000 | "$HELPERS/rel-storm" open "$comm" >/dev/null &
	echo $! >"$d/rel-storm.pid"
	(
		"$BIN/opensnoop" -j -c "$comm" 2>"$d/err" &
		echo $! >"$d/opensnoop.pid"
		wait $!
		echo $? >"$d/opensnoop.status"
	) | (
		# The reader: nothing until told, then everything.
		for ((i = 0; i < 600 * TIME_SCALE; i++)); do
			[ -e "$d/go" ] && break
			sleep 0.05
		done
		cat
	) >"$d/out" &
	wait_for "$d/err" 'tracing; hit Ctrl-C to end' 20
	pid=$(cat "$d/opensnoop.pid")
	for ((i = 0; i < 100 * TIME_SCALE; i++)); do
		blocked_in_write "$pid" && break
		sleep 0.05
	done
	blocked_in_write "$pid" || echo "# opensnoop never blocked in write(2)" >&3
	kill -TERM "$pid"
	sleep 0.2
	touch "$d/go"
	wait_for "$d/err" 'events, [0-9]+ lost( \(.*\))?(, [0-9]+ filtered)?$' 20
	kill "$(cat "$d/rel-storm.pid")"
	wait
	[ "$(cat "$d/opensnoop.status")" = 0 ]
	# Every line is a whole JSON object; the last one is the summary.
	jq -ec . "$d/out" >/dev/null
	events=$(jq -s '[.[] | select(has("type") | not)] | length' "$d/out")
	echo "# $events event lines; $(tail -1 "$d/out")" >&3
	jq -es --argjson n "$events" '.[-1] | .type == "summary" and
		.events == $n and .events + .lost == .produced' "$d/out"
}
