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
go() {
	local pid
	for pid in $JOBS; do
		kill -CONT "$pid"
	done
	wait $JOBS
	JOBS=
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}
