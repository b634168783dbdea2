#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, issue 35's capability and user-probe tools: capable (a
# chown(1) denied CAP_CHOWN, or the refusal before Linux 6.14),
# funclatency (a helper function's 10 ms calls in one process) and memleak
# (a helper's blocks kept and freed; -K, pipes kept and closed, through
# this kernel's kmem tracepoint records).

bats_require_minimum_version 1.5.0
load ../integration/helpers
load helpers

# capability:cap_capable came in Linux 6.14.
REFUSALS+=(
	["5.10 capable"]="cap_capable|6.14"
	["6.1 capable"]="cap_capable|6.14"
	["6.1-rt capable"]="cap_capable|6.14"
	["6.12 capable"]="cap_capable|6.14"
)

@test "capable: chown denied CAP_CHOWN by setpriv, from its pid (refused before 6.14)" {
	if refused capable; then
		refusal capable
		return
	fi
	: >"$BATS_TEST_TMPDIR/owned"
	launch capable -j -x -c chown
	run --separate-stderr setpriv --bounding-set -chown \
		sh -c 'echo $$; exec chown nobody "$1"' sh \
		"$BATS_TEST_TMPDIR/owned"
	[ "$status" = 1 ]
	await "$OUT" '"verdict":"deny"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "${lines[0]}" '
		map(select(.type == null)) | length == 1 and
		(.[0] | del(.cgroup_id, .mntns, .pidns, .pidns_pid)) == {pid: $p, tid: $p, uid: 0, comm: "chown", cap: 0,
			name: "CAP_CHOWN", ret: -1, verdict: "deny"}'
}

@test "funclatency: -p's 10 ms calls of a helper function, at 8-15 ms and above, the other process's left out" {
	local go=$BATS_TEST_TMPDIR/go a b
	"$HELPERS/func-sleep" 3 10 "$go" >"$BATS_TEST_TMPDIR/a" &
	JOBS+=" $!"
	"$HELPERS/func-sleep" 2 10 "$go" >"$BATS_TEST_TMPDIR/b" &
	JOBS+=" $!"
	await "$BATS_TEST_TMPDIR/a" '^[0-9]+$' 5
	await "$BATS_TEST_TMPDIR/b" '^[0-9]+$' 5
	read -r a <"$BATS_TEST_TMPDIR/a"
	launch funclatency -j -m -p "$a" -b "$HELPERS/func-sleep" bk_sleep_ms
	touch "$go"
	wait $JOBS
	JOBS=
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out '
		length == 1 and .[0].func == "bk_sleep_ms" and
		.[0].unit == "msecs" and .[0].count == 3 and
		(.[0].buckets | map(select(.max < 8)) | all(.count == 0)) and
		(.[0].buckets | map(select(.min == 8)) | length == 1)'
}

@test "memleak: 4 x 512 bytes kept at bk_leak_blocks' stack, the freed ones not, from the helper's pid" {
	local go=$BATS_TEST_TMPDIR/go pid
	"$HELPERS/leak" 4 512 "$go" >"$BATS_TEST_TMPDIR/leak" &
	JOBS+=" $!"
	await "$BATS_TEST_TMPDIR/leak" '^[0-9]+$' 5
	read -r pid <"$BATS_TEST_TMPDIR/leak"
	launch memleak -j -p "$pid"
	touch "$go"
	await "$BATS_TEST_TMPDIR/leak" '^done$' 5
	sleep $((TIME_SCALE > 1 ? 3 : 1))
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$pid" '
		def at($f): map(select(.type == null and
			any(.frames[]; .name == $f)));
		(at("bk_leak_blocks") | length == 1 and .[0].bytes == 2048 and
			.[0].pid == $p and .[0].comm == "leak") and
		(at("bk_freed_blocks") | length == 0)'
}

@test "memleak: -K keeps the buffers of the 8 pipes a process holds, not of the 8 it closed (this kernel's kmem records)" {
	local go=$BATS_TEST_TMPDIR/go pid
	"$HELPERS/pipe-keep" 8 "$go" >"$BATS_TEST_TMPDIR/pipes" &
	JOBS+=" $!"
	await "$BATS_TEST_TMPDIR/pipes" '^[0-9]+$' 5
	read -r pid <"$BATS_TEST_TMPDIR/pipes"
	launch memleak -K -j -p "$pid"
	touch "$go"
	await "$BATS_TEST_TMPDIR/pipes" '^done$' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# alloc_pipe_info()'s own (its allocator last, twice on 5.10): 8 x (the
	# buffers' 1 KiB + pipe_inode_info's size class); 16 x had the frees
	# gone unseen.
	check_out '
		map(select(.type == null) |
			(.frames | map(.name)) as $f |
			($f | index("alloc_pipe_info")) as $i |
			select($i and ($f[$i + 1:] | unique | length == 1))) |
		(map(.bytes) | add) as $sum |
		any(.[]; .bytes == 8192) and $sum % 8 == 0 and
		$sum > 8192 and $sum <= 16384'
}
