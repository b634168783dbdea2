#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Shutdown, for every tool in $BIN: after SIGINT, SIGTERM, SIGHUP,
# --duration expiry and SIGKILL no BPF program, map or link of the tool
# remains. The tool's own objects are the ids its fds held while it ran
# (read from /proc/PID/fdinfo), so other tests' objects do not interfere;
# after the stop none of them may be in `bpftool prog/map/link list`.

load helpers
load ../reliability/common

setup() {
	require_root
	declare -gA PIDS=()
}

teardown() {
	local t
	for t in "${!PIDS[@]}"; do
		kill -KILL "${PIDS[$t]}" 2>/dev/null
		wait "${PIDS[$t]}" 2>/dev/null
	done
	return 0
}

# start_all ARG...: start every tool with ARG..., one at a time: as soon as
# one is tracing, save the ids of its BPF objects in $BATS_TEST_TMPDIR/ids
# as "KIND ID TOOL" lines and start the next. (All at once, nine tools
# loading side by side in the emulated guest took long enough to read that
# the first ones' -d ran out before their ids were read.) Fails if one dies
# or is still not tracing after 30 s (times TIME_SCALE).
start_all() {
	local t
	: >"$BATS_TEST_TMPDIR/ids"
	for t in $(tools); do
		"$BIN/$t" $(plain_args "$t") "$@" >"$BATS_TEST_TMPDIR/$t.out" \
			2>"$BATS_TEST_TMPDIR/$t.err" &
		PIDS[$t]=$!
		if ! wait_tracing "${PIDS[$t]}" "$BATS_TEST_TMPDIR/$t.err"; then
			echo "# $t did not start:" >&3
			sed 's/^/#   /' "$BATS_TEST_TMPDIR/$t.err" >&3
			return 1
		fi
		bpf_ids "${PIDS[$t]}" | sed "s/\$/ $t/" >>"$BATS_TEST_TMPDIR/ids"
	done
}

# stop_all SIGNAL STATUS: send SIGNAL to every tool ("" to wait for
# --duration), expect exit STATUS, then look for its objects.
stop_all() {
	local t status
	for t in "${!PIDS[@]}"; do
		[ -z "$1" ] || kill -"$1" "${PIDS[$t]}" 2>/dev/null ||
			echo "$t: died before the signal"
	done >"$BATS_TEST_TMPDIR/report"
	for t in "${!PIDS[@]}"; do
		status=0
		wait "${PIDS[$t]}" || status=$?
		unset "PIDS[$t]"
		[ "$status" = "$2" ] ||
			echo "$t: exit $status, not $2: $(first_error "$BATS_TEST_TMPDIR/$t.err")"
		grep -q " $t\$" "$BATS_TEST_TMPDIR/ids" ||
			echo "$t: held no BPF object while tracing"
	done >>"$BATS_TEST_TMPDIR/report"
	cut -d' ' -f1,2 "$BATS_TEST_TMPDIR/ids" | sort -u >"$BATS_TEST_TMPDIR/ours"
	leftovers "$BATS_TEST_TMPDIR/ours" | while read -r kind id name; do
		echo "left behind: $kind $id $name, of $(grep "^$kind $id " \
			"$BATS_TEST_TMPDIR/ids" | cut -d' ' -f3 | paste -sd' ')"
	done >>"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}

@test "reliability: shutdown: SIGINT leaves nothing behind, exit 0" {
	start_all
	stop_all INT 0
}

@test "reliability: shutdown: SIGTERM leaves nothing behind, exit 0" {
	host_only "SIGTERM takes SIGINT's way out; SIGINT runs in the guest"
	start_all
	stop_all TERM 0
}

@test "reliability: shutdown: SIGHUP leaves nothing behind, exit 0" {
	host_only "SIGHUP takes SIGINT's way out; SIGINT runs in the guest"
	start_all
	stop_all HUP 0
}

@test "reliability: shutdown: --duration expiry leaves nothing behind, exit 0" {
	host_only "--duration takes SIGINT's way out; SIGINT runs in the guest"
	start_all -d $((5 * TIME_SCALE))
	stop_all "" 0
}

@test "reliability: shutdown: SIGKILL leaves nothing behind" {
	start_all
	stop_all KILL 137
}

# A stop signal while the tool is still starting (options read, not yet
# attached) ends it once attached, exit 0; also when it was started ignoring SIGINT, as a script's background job is (this
# one is: bats runs without job control).
@test "reliability: shutdown: SIGINT during start-up ends every tool, exit 0" {
	local t err status watchdog
	for t in $(tools); do
		err=$BATS_TEST_TMPDIR/$t.err
		"$BIN/$t" $(plain_args "$t") -v >/dev/null 2>"$err" &
		PIDS[$t]=$!
		wait_for "$err" 'phase command line and preflight' 10 ||
			echo "$t: no -v phase line before its load"
		kill -INT "${PIDS[$t]}"
		(
			sleep $((10 * TIME_SCALE))
			kill -KILL "${PIDS[$t]}"
		) >/dev/null 2>&1 3>&- &
		watchdog=$!
		status=0
		wait "${PIDS[$t]}" || status=$?
		kill "$watchdog" 2>/dev/null || true
		wait "$watchdog" 2>/dev/null || true
		unset "PIDS[$t]"
		[ "$status" = 0 ] ||
			echo "$t: exit $status after SIGINT at start-up (137: still running after $((10 * TIME_SCALE)) s)"
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}
