# SPDX-License-Identifier: GPL-2.0
# Shared by klockstat's tests: the rename-storm helper, stopped until the
# tool traces, then 8 threads renaming in one directory for a second.

# renamed TOOL ARG...: start rename-storm (PID gets its pid), then TOOL
# -p PID ARG..., let the helper run, stop the tool.
renamed() {
	local out=$BATS_TEST_TMPDIR/rename-storm
	mkdir -p "$BATS_TEST_TMPDIR/dir"
	: >"$out" # now: a call before left its pid there
	"$HELPERS/rename-storm" "$BATS_TEST_TMPDIR/dir" 8 1000 >"$out" &
	JOBS+=" $!"
	wait_for "$out" '^[0-9]+$' 5
	PID=$(head -1 "$out")
	start_tool "$1" -p "$PID" "${@:2}"
	kill -CONT "$PID"
	wait $JOBS
	JOBS=
	grep -qx done "$out"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}
