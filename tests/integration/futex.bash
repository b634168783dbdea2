# SPDX-License-Identifier: GPL-2.0
# Shared by futexctn's tests: the mutex-hold helper, stopped until the
# tool traces, then let go for its rounds, and stopped again until the
# tool has reported (its stacks are symbolized from its memory map).

# mutex_held ROUNDS HOLD_MS TOOL ARG...: start mutex-hold ROUNDS HOLD_MS
# (PID and LOCK get its pid and mutex address), then TOOL -p PID ARG...
# (an ARG "@LOCK" is LOCK), let the helper run its rounds, stop the tool
# and let the helper exit.
mutex_held() {
	local out=$BATS_TEST_TMPDIR/mutex-hold a args=()
	: >"$out" # now: a call before left its pid there
	"$HELPERS/mutex-hold" "$1" "$2" >"$out" &
	JOBS+=" $!"
	wait_for "$out" '^0x[0-9a-f]+$' 5
	PID=$(head -1 "$out")
	LOCK=$(sed -n 2p "$out")
	for a in "${@:4}"; do
		[ "$a" != @LOCK ] || a=$LOCK
		args+=("$a")
	done
	start_tool "$3" -p "$PID" "${args[@]}"
	kill -CONT "$PID"
	wait_for "$out" '^done$' $((10 + $1 * $2 / 1000))
	stop_tool
	kill -CONT "$PID"
	wait $JOBS
	JOBS=
	[ "$TOOL_STATUS" = 0 ]
}
