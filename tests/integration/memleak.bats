#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# memleak: a helper that keeps N blocks of S bytes from bk_leak_blocks()
# and frees as many from bk_freed_blocks() shows N x S bytes outstanding at
# the first's stack and nothing at the second's, at the end and every
# interval; -K (the default without -p and -O) shows the kernel's pipe
# buffers a process keeps, not those it closed; bad input is refused in one
# line.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	LEAK=$HELPERS/leak
	GO=$BATS_TEST_TMPDIR/go
	JOBS=
}

teardown() {
	if [ -n "${TOOL_PID:-}" ]; then
		kill -KILL "$TOOL_PID" 2>/dev/null
	fi
	[ -z "$JOBS" ] || kill -KILL $JOBS 2>/dev/null
	wait 2>/dev/null
	drop_test_cgroups
	return 0
}

# leaker N SIZE: start the helper, waiting for $GO; set PID.
leaker() {
	"$LEAK" "$1" "$2" "$GO" >"$BATS_TEST_TMPDIR/leak" &
	JOBS+=" $!"
	wait_for "$BATS_TEST_TMPDIR/leak" '^[0-9]+$' 5
	PID=$(head -1 "$BATS_TEST_TMPDIR/leak")
}

# JQ filter: the rows (not the summary) whose frames name function $f.
at='def at($f): map(select(.type == null and any(.frames[]; .name == $f)));'

@test "memleak: 8 x 4096 bytes kept at bk_leak_blocks' stack, none at bk_freed_blocks'" {
	leaker 8 4096
	start_tool memleak -j -p "$PID"
	touch "$GO"
	wait_for "$BATS_TEST_TMPDIR/leak" '^done$' 5
	# The pid's maps are read within a tick (100 ms) of its first event.
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson p "$PID" "$at"'
		(at("bk_leak_blocks") | length == 1 and .[0].bytes == 32768 and
			.[0].pid == $p and .[0].comm == "leak" and
			([.[0].frames[-2:][].name] == ["main", "bk_leak_blocks"])) and
		(at("bk_freed_blocks") | length == 0) and
		(map(select(.type == "summary")) | length == 1 and
			.[0].lost == 0)' "$OUT"
}

@test "memleak: INTERVAL reports the bytes outstanding then, in folded text" {
	leaker 3 1000
	start_tool memleak -p "$PID" 1
	touch "$GO"
	wait_for "$OUT" '^leak;.*;main;bk_leak_blocks 3000$' 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -Eq '^\[[0-9]{2}:[0-9]{2}:[0-9]{2}\] memleak: bytes outstanding by stack$' "$OUT"
	[ "$(grep -c '^\[' "$OUT")" -ge 2 ]
	refute grep -q 'bk_freed_blocks' "$OUT"
	[ "$(grep -c 'bk_leak_blocks 3000$' "$OUT")" -ge 2 ]
}

@test "memleak: -O names the allocator's library; with -p, that process only" {
	leaker 2 2000
	libc=$(awk '$6 ~ /\/libc\.so/ { print $6; exit }' "/proc/$PID/maps")
	[ -n "$libc" ]
	start_tool memleak -j -O "$libc" -p "$PID"
	touch "$GO"
	wait_for "$BATS_TEST_TMPDIR/leak" '^done$' 5
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es "$at"'at("bk_leak_blocks") | length == 1 and .[0].bytes == 4000' \
		"$OUT"
}

@test "memleak: the kernel's, by default, keeps the buffers of 16 pipes held, not of 16 closed" {
	"$HELPERS/pipe-keep" 16 "$GO" >"$BATS_TEST_TMPDIR/pipes" &
	JOBS+=" $!"
	wait_for "$BATS_TEST_TMPDIR/pipes" '^[0-9]+$' 5
	# Neither -p nor -O: the kernel's allocations, here pipe-keep's.
	start_tool memleak -j -c pipe-keep
	touch "$GO"
	wait_for "$BATS_TEST_TMPDIR/pipes" '^done$' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# alloc_pipe_info()'s own allocations (its allocator the last frame):
	# 16 x (buffers' 1 KiB + the pipe_inode_info's size class), where 32
	# would be had frees gone unseen.
	jq -es '
		map(select(.type == null) |
			(.frames | map(.name)) as $f |
			($f | index("alloc_pipe_info")) as $i |
			select($i and ($f[$i + 1:] | unique | length == 1))) |
		(map(.bytes) | add) as $sum |
		any(.[]; .bytes == 16384) and $sum % 16 == 0 and
		$sum > 16384 and $sum <= 32768' "$OUT"
}

@test "memleak: --cgroup keeps the kernel allocations of a process in that cgroup, not another's" {
	local a b
	test_cgroups
	"$HELPERS/pipe-keep" 4 "$GO" >"$BATS_TEST_TMPDIR/a" &
	JOBS+=" $!"
	"$HELPERS/pipe-keep" 4 "$GO" >"$BATS_TEST_TMPDIR/b" &
	JOBS+=" $!"
	wait_for "$BATS_TEST_TMPDIR/a" '^[0-9]+$' 5
	wait_for "$BATS_TEST_TMPDIR/b" '^[0-9]+$' 5
	a=$(head -1 "$BATS_TEST_TMPDIR/a")
	b=$(head -1 "$BATS_TEST_TMPDIR/b")
	echo "$a" >"$CG/in/cgroup.procs"
	echo "$b" >"$CG/out/cgroup.procs"
	start_tool memleak -j --cgroup "$CG/in"
	touch "$GO"
	wait_for "$BATS_TEST_TMPDIR/a" '^done$' 5
	wait_for "$BATS_TEST_TMPDIR/b" '^done$' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson a "$a" --argjson b "$b" "$at"'
		at("alloc_pipe_info") | length > 0 and all(.pid == $a) and
			all(.pid != $b)' "$OUT"
}

@test "memleak: -K with -O, or a gone pid: one line each" {
	run --separate-stderr "$BIN/memleak" -K -O "$LEAK"
	[ "$status" = 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
	run --separate-stderr "$BIN/memleak" -p 2147483646 -d 1
	[ "$status" != 0 ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == memleak:* ]]
	[ -z "$output" ]
}
