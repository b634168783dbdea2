# SPDX-License-Identifier: GPL-2.0
# Shared by offcputime's and wakeuptime's tests: a helper that blocks 1 s
# in read(2) on a pipe until its child writes to it, alone or in a
# cgroup, traced by the tool; and the time of the folded stacks that match.

# blocked_cleanup: kill the helpers (JOBS) and remove the test's cgroups
# (CG), first killing a waker still lingering in one. For teardown().
blocked_cleanup() {
	local j i d
	for j in "${JOBS[@]}"; do
		kill -KILL "$j" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	for d in ${CG:+"$CG/child" "$CG-sibling" "$CG"}; do
		[ ! -e "$d/cgroup.procs" ] ||
			xargs -r kill -KILL <"$d/cgroup.procs" 2>/dev/null || true
		for ((i = 0; i < 50; i++)); do
			rmdir "$d" 2>/dev/null && break
			sleep 0.1
		done
	done
}

# block: pipe-block (or $HELPER) with BLOCK_ARGS after its go file ($GO),
# in cgroup $IN if set, waiting for that file; its pid in PID.
block() {
	GO=$BATS_TEST_TMPDIR/go
	rm -f "$GO"
	sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1
		shift; exec "$@"' sh "${IN:-}" "${HELPER:-$HELPERS/pipe-block}" \
		"$GO" "${BLOCK_ARGS[@]}" >"$BATS_TEST_TMPDIR/pid" &
	JOBS+=($!)
	PID=$!
	wait_for "$BATS_TEST_TMPDIR/pid" '^[0-9]+$'
}

# block_traced TOOL ARG...: TOOL -p PID ARG... (with IN set, TOOL --cgroup
# $CG ARG...) while the helper blocks 1 s after its go.
block_traced() {
	block
	if [ -n "${IN:-}" ]; then
		start_tool "$1" --cgroup "$CG" "${@:2}"
	else
		start_tool "$1" -p "$PID" "${@:2}"
	fi
	touch "$GO"
	# The helper exits once its wait ends, 1 s after the go.
	local i
	for ((i = 0; i < 100 * TIME_SCALE; i++)); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

# us_in REGEX: the microseconds of folded lines matching REGEX in $OUT.
us_in() {
	awk -v re="$1" '$0 ~ re { n += $NF } END { print n + 0 }' "$OUT"
}
