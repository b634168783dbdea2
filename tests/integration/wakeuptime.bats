#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# wakeuptime: a helper blocked 1 s in read(2) on a pipe, woken by its child
# writing to it, shows that time under the child's name and stack (its own
# bk_wake_write, the kernel's pipe_write and try_to_wake_up); -m, -M, -j,
# --cgroup; bad options.

bats_require_minimum_version 1.5.0
load helpers
load blocked

setup() {
	require_root
	JOBS=()
	CG=
	# The waker lingers 5 s after its write, not 1: its memory maps must
	# still be there when the tool stops and names its frames, which a
	# loaded emulated guest can take over a second to get to.
	BLOCK_ARGS=(1000 5000)
}

eval "helpers_$(declare -f teardown)"
teardown() {
	blocked_cleanup
	helpers_teardown
}

# The woken task first, the waker's frames, the waker's name last.
WOKEN_BY_WRITE='^pipe-block;([^;]+;)*main;bk_wake_write;.*(anon_)?pipe_write;.*try_to_wake_up;pipe-waker [0-9]+$'

@test "wakeuptime: 1 s blocked on a pipe, under the writer's bk_wake_write, pipe_write and name" {
	block_traced wakeuptime
	us=$(us_in "$WOKEN_BY_WRITE")
	echo "# woken by pipe-waker's write: $us us" >&3
	# The block lasts from the go's read to the child's write 1 s later,
	# and a loaded machine may take a while to run the task again.
	[ "$us" -ge 950000 ] || {
		head -c 3000 "$OUT" | sed 's/^/#   /' >&3
		false
	}
	[ "$us" -le $((1000000 + 500000 * TIME_SCALE)) ]
	# Every line is a task of PID woken: the helper's own name first.
	refute grep -Ev '^pipe-block;' "$OUT"
	# The tracing's own frames are left out of the kernel stacks.
	refute grep -Eq 'bpf_prog_|bpf_trace_run' "$OUT"
	grep -Eq '^wakeuptime: [0-9]+ blocks, 0 lost' "$ERR"
}

@test "wakeuptime: -m 500000 keeps the 1 s block only, -M 500000 leaves it out" {
	block_traced wakeuptime -m 500000
	[ "$(wc -l <"$OUT")" = 1 ]
	[ "$(us_in "$WOKEN_BY_WRITE")" -ge 950000 ]
	block_traced wakeuptime -M 500000
	[ "$(us_in 'pipe-waker')" = 0 ]
}

@test "wakeuptime: -j gives the woken task, the waker and its frames" {
	block_traced wakeuptime -j
	jq -e . "$OUT" >/dev/null
	tail -1 "$OUT" | jq -e '.type == "summary" and .blocks > 0 and .lost == 0'
	jq -se '[.[] | select(.type == null) | select(.comm == "pipe-waker")] |
		length > 0 and all(.target == "pipe-block" and .us > 0) and
		(map(.us) | add) >= 950000 and
		all(.frames | any(.name == "bk_wake_write")) and
		all(.frames | any(.kind == "kernel" and (.name | test("^(anon_)?pipe_write$"))))' "$OUT"
}

@test "wakeuptime: --cgroup times a child cgroup's process, not its sibling's" {
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no cgroup v2 hierarchy mounted"
	CG=$root/bpfkit-test-$$-$RANDOM
	mkdir -p "$CG/child" "$CG-sibling"
	# The sibling's helper, a copy named pipe-other, blocks at the same
	# time, woken by its own child.
	cp "$HELPERS/pipe-block" "$BATS_TEST_TMPDIR/pipe-other"
	HELPER=$BATS_TEST_TMPDIR/pipe-other IN=$CG-sibling block
	touch "$GO"
	IN=$CG/child block_traced wakeuptime -K
	# The child cgroup's helper and the writer it forks there are the
	# only tasks woken, the sibling's never.
	refute grep -Ev '^pipe-(block|waker);' "$OUT"
	us=$(us_in '^pipe-block;.*pipe_write;.*;pipe-waker [0-9]+$')
	echo "# child cgroup's helper woken by its writer: $us us" >&3
	[ "$us" -ge 950000 ] && [ "$us" -le $((1000000 + 500000 * TIME_SCALE)) ]
}

@test "wakeuptime: bad options are refused in one line, exit 2" {
	run -2 "$BIN/wakeuptime" -m 10 -M 5
	[ "$output" = "wakeuptime: -M/--max-block-time 5 is below -m/--min-block-time 10; give a maximum at least the minimum" ]
	run -2 "$BIN/wakeuptime" -m 0
	[ "${#lines[@]}" = 1 ]
	run -2 "$BIN/wakeuptime" -U -K
	[ "${#lines[@]}" = 1 ]
}
