#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# klockstat: 8 threads renaming files in one directory for a second wait
# for its inode's rwsem (i_rwsem): that lock's waits appear with their
# caller stack through do_renameat2, and no longer in all
# than the threads ran; --by-lock, --lock, text; bad input.

bats_require_minimum_version 1.5.0
load helpers
load klock

setup() {
	require_root
	JOBS=
	CG=
}

# A failed test's helper, stopped or running, goes too: bats waits for it.
eval "helpers_$(declare -f teardown)"
teardown() {
	helpers_teardown
	[ -z "$JOBS" ] || kill -KILL $JOBS 2>/dev/null || true
	wait 2>/dev/null || true
	drop_test_cgroups
}

# the_rwsem: the rwsem of the most waits in a rename (its caller stack
# from the rwsem's slow path to do_renameat2: down_write itself, inlined,
# is no frame of its own on 6.1).
the_rwsem() {
	jq -s 'map(select(.kind == "rwsem:W" and
		.stack[0] == "rwsem_down_write_slowpath" and
		(.stack | index("do_renameat2")))) | max_by(.count)' "$OUT"
}

@test "klockstat: renames in one directory wait for its rwsem, under do_renameat2" {
	renamed klockstat -j
	the_rwsem >"$BATS_TEST_TMPDIR/rwsem"
	echo "# $(jq -c '{lock, kind, count, avg, stack: .stack[0:4]}' "$BATS_TEST_TMPDIR/rwsem")" >&3
	jq -e '.count >= 20 and
		(.lock | test("^0xffff[0-9a-f]{12}$")) and .unit == "usecs"' \
		"$BATS_TEST_TMPDIR/rwsem"
	# The waits of 8 threads over about a second: under 8 s in all.
	jq -es 'map(.sum) | add < 8 * 1.5 * 1000000' "$OUT"
}

@test "klockstat: --by-lock sums a lock's callers; --lock keeps one lock; text" {
	renamed klockstat -j --by-lock
	jq -es 'all(.stack == [] and .stack_lost == false)' "$OUT"
	# One key per lock and kind: no two with the same lock address.
	jq -es 'map(.lock + .kind) | length == (unique | length)' "$OUT"
	echo "# --by-lock: $(jq -sc 'map(select(.kind == "rwsem:W") | .count)' "$OUT") rwsem:W waits" >&3
	jq -es 'any(.kind == "rwsem:W" and .count >= 20)' "$OUT"

	renamed klockstat -j
	lock=$(the_rwsem | jq -r .lock)
	# The same directory again (renamed reuses it): the same rwsem.
	renamed klockstat --lock "$lock"
	grep -qx "lock = $lock rwsem:W" "$OUT" || {
		echo "# no lock = $lock rwsem:W in:" >&3
		grep '^lock' "$OUT" | head -5 >&3
		false
	}
	refute grep -Eq "^lock = " <(grep -v "^lock = $lock " "$OUT")

	renamed klockstat
	grep -Eq '^lock = 0xffff[0-9a-f]{12} rwsem:W$' "$OUT"
	grep -qx '    do_renameat2' "$OUT"
}

@test "klockstat: --cgroup counts a cgroup's lock waits, not its sibling's" {
	local out cg n
	test_cgroups
	# One rename storm in the sibling, traced through the cgroup: no
	# renames; then one in the cgroup: its rwsem waits.
	for cg in out in; do
		out=$BATS_TEST_TMPDIR/rename-storm
		mkdir -p "$BATS_TEST_TMPDIR/dir"
		: >"$out"
		"$HELPERS/rename-storm" "$BATS_TEST_TMPDIR/dir" 8 1000 >"$out" &
		JOBS=$!
		wait_for "$out" '^[0-9]+$' 5
		echo "$JOBS" >"$CG/$cg/cgroup.procs"
		start_tool klockstat -j --cgroup "$CG/in"
		kill -CONT "$JOBS"
		wait $JOBS
		JOBS=
		grep -qx done "$out"
		stop_tool
		[ "$TOOL_STATUS" = 0 ]
		n=$(jq -s '[.[] | select(.stack | index("do_renameat2")?) | .count] | add // 0' "$OUT")
		echo "# renames in $cg: $n waits seen" >&3
		if [ "$cg" = out ]; then
			[ "$n" = 0 ]
		else
			[ "$n" -ge 20 ]
		fi
	done
}

@test "klockstat: bad input exits 2 with one line and no output" {
	for args in "--lock xyz" "--lock 0" "0" "1 2 3"; do
		run --separate-stderr "$BIN/klockstat" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "klockstat: "* ]]
	done
}
