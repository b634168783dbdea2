#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# offcputime: a helper blocked 1 s in read(2) on a pipe shows that time
# under its own function and the kernel's pipe_read and schedule; -m, -M,
# -j, --cgroup, --state (that read is S, vfork-block's wait for its vfork
# child D); bad options.

bats_require_minimum_version 1.5.0
load helpers
load blocked

setup() {
	require_root
	JOBS=()
	CG=
	BLOCK_ARGS=()
}

eval "helpers_$(declare -f teardown)"
teardown() {
	blocked_cleanup
	helpers_teardown
}

@test "offcputime: 1 s blocked in read(2) on a pipe, under bk_block_read, pipe_read and schedule" {
	block_traced offcputime
	re=';main;bk_block_read;.*;(anon_)?pipe_read;.*schedule [0-9]+$'
	grep -Eq "^pipe-block;([^;]+;)*main;bk_block_read;" "$OUT"
	us=$(us_in "$re")
	echo "# blocked in pipe_read: $us us" >&3
	# The block lasts from the go's read to the child's write 1 s later,
	# and a loaded machine may take a while to run the task again.
	[ "$us" -ge 950000 ]
	[ "$us" -le $((1000000 + 500000 * TIME_SCALE)) ]
	# The tracing's own frames are left out of the kernel stacks.
	refute grep -Eq 'bpf_prog_|bpf_trace_run' "$OUT"
	grep -Eq '^offcputime: [0-9]+ blocks, 0 lost' "$ERR"
}

@test "offcputime: -m 500000 keeps the 1 s block only, -M 500000 leaves it out" {
	block_traced offcputime -m 500000
	[ "$(wc -l <"$OUT")" = 1 ]
	[ "$(us_in 'pipe_read')" -ge 950000 ]
	block_traced offcputime -M 500000
	[ "$(us_in 'pipe_read')" = 0 ]
}

@test "offcputime: -j gives each stack's microseconds and frames" {
	block_traced offcputime -j
	jq -e . "$OUT" >/dev/null
	tail -1 "$OUT" | jq -e '.type == "summary" and .blocks > 0 and .lost == 0'
	jq -se --argjson pid "$PID" '[.[] | select(.type == null) |
		select(any(.frames[]; .name == "bk_block_read"))] |
		length > 0 and all(.pid == $pid and .us > 0) and
		(map(.us) | add) >= 950000 and
		all(.frames | any(.kind == "kernel" and (.name | test("^(anon_)?pipe_read$"))))' "$OUT"
}

@test "offcputime: --cgroup times a child cgroup's process, not its sibling's" {
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no cgroup v2 hierarchy mounted"
	CG=$root/bpfkit-test-$$-$RANDOM
	mkdir -p "$CG/child" "$CG-sibling"
	IN=$CG-sibling block
	other=$PID
	touch "$GO"
	IN=$CG/child block_traced offcputime -j
	# The child cgroup's helper and the writer it forks there, not the
	# sibling's helper, which blocks at the same time.
	jq -se --argjson pid "$PID" --argjson other "$other" '[.[] | select(.type == null) | .pid] |
		any(. == $pid) and all(. != $other)' "$OUT"
	jq -se --argjson pid "$PID" '[.[] | select(.type == null and .pid == $pid) | .us] | add >= 950000' "$OUT"
}

@test "offcputime: --state D counts a wait for a vfork child, not a pipe read; --state S the other way" {
	# vfork(2)'s parent waits killable, TASK_UNINTERRUPTIBLE | TASK_WAKEKILL,
	# in wait_for_vfork_done() (inlined into kernel_clone() on 6.18).
	vfork_re='__x64_sys_vfork;.*schedule [0-9]+$'
	HELPER=$HELPERS/vfork-block block_traced offcputime --state D
	us=$(us_in "$vfork_re")
	echo "# --state D, vfork wait: $us us" >&3
	[ "$us" -ge 950000 ]
	block_traced offcputime --state D
	[ "$(us_in 'pipe_read')" = 0 ]
	block_traced offcputime --state S
	us=$(us_in 'pipe_read')
	echo "# --state S, pipe read: $us us" >&3
	[ "$us" -ge 950000 ]
	HELPER=$HELPERS/vfork-block block_traced offcputime --state S
	[ "$(us_in "$vfork_re")" = 0 ]
}

@test "offcputime: --state 2 (bcc's bits: TASK_UNINTERRUPTIBLE) counts the vfork wait, --state 1 not" {
	vfork_re='__x64_sys_vfork;.*schedule [0-9]+$'
	HELPER=$HELPERS/vfork-block block_traced offcputime --state 2
	[ "$(us_in "$vfork_re")" -ge 950000 ]
	HELPER=$HELPERS/vfork-block block_traced offcputime --state 1
	[ "$(us_in "$vfork_re")" = 0 ]
}

@test "offcputime: bad options are refused in one line, exit 2" {
	run -2 "$BIN/offcputime" --state Q
	[ "$output" = "offcputime: --state 'Q': 'Q' is not a state; give letters of R, S, D, T, t, I (e.g. --state D) or a number of state bits (e.g. --state 2)" ]
	run -2 "$BIN/offcputime" --state 2x
	[ "${#lines[@]}" = 1 ]
	run -2 "$BIN/offcputime" -m 10 -M 5
	[ "$output" = "offcputime: -M/--max-block-time 5 is below -m/--min-block-time 10; give a maximum at least the minimum" ]
	run -2 "$BIN/offcputime" -m 0
	[ "${#lines[@]}" = 1 ]
	run -2 "$BIN/offcputime" -U -K
	[ "${#lines[@]}" = 1 ]
}
