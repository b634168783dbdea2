#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# syncsnoop: each sync call a helper makes (file-trigger sync: sync, fsync,
# fdatasync, syncfs, msync, sync_file_range, a failing fsync) appears
# once, in order, with its kind, fd, result and a latency; another
# helper's are left out by -p; the table and bad input behave.

bats_require_minimum_version 1.5.0
load helpers
load file-trigger

setup() {
	require_root
	GO=$BATS_TEST_TMPDIR/go
}

@test "syncsnoop: each sync call of a helper once, with its kind, fd, result and latency" {
	file_trigger A sync "$BATS_TEST_TMPDIR/a"
	file_trigger B sync "$BATS_TEST_TMPDIR/b"
	start_tool syncsnoop -j -p "$A"
	touch "$GO"
	wait "$A_JOB" "$B_JOB"
	wait_for "$OUT" '"errno":9' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson p "$A" '
		map(select(.type == null)) |
		map(.call) == ["sync", "fsync", "fdatasync", "syncfs", "msync",
			       "sync_file_range", "fsync"] and
		all(.[]; .pid == $p and .tid == $p and .uid == 0 and
			 .latency_ns > 0) and
		all(.[:6][]; .ret == 0 and .errno == 0) and
		(.[6] | .ret == -1 and .errno == 9 and .fd == -1) and
		(.[0] | has("fd") | not) and (.[4] | .addr > 0) and
		([.[1, 2, 3, 5] | .fd] | unique | length == 1 and .[0] >= 3)
	' "$OUT"
}

@test "syncsnoop: stages in the task's storage where the kernel has it, else a hash; --test-map-entries keeps the hash" {
	start_tool syncsnoop -j
	[ "$(staging_type "$TOOL_PID")" = "$(staging_expected)" ]
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# The hash stages as the task's storage does: every call, once.
	file_trigger A sync "$BATS_TEST_TMPDIR/a"
	start_tool syncsnoop -j -p "$A" --test-map-entries bpfkit_staging=4
	[ "$(staging_type "$TOOL_PID")" = hash ]
	touch "$GO"
	wait "$A_JOB"
	wait_for "$OUT" '"errno":9' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es 'map(select(.type == null) | .call) == ["sync", "fsync",
		"fdatasync", "syncfs", "msync", "sync_file_range", "fsync"]' "$OUT"
}

@test "syncsnoop: the table names each call with its fd and latency in ms" {
	file_trigger A sync "$BATS_TEST_TMPDIR/a"
	start_tool syncsnoop -p "$A"
	touch "$GO"
	wait "$A_JOB"
	wait_for "$OUT" ' EBADF ' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +CALL +FD/ADDR +ERR +LAT\(ms\)$'
	[ "$(tail -n +2 "$OUT" | wc -l)" = 7 ]
	sed -n 2p "$OUT" | grep -Eq "^$A +[^ ]+ +sync +- +0 +[0-9]+\.[0-9]{3}\$"
	sed -n 6p "$OUT" | grep -Eq "^$A +[^ ]+ +msync +0x[0-9a-f]+ +0 +[0-9]+\.[0-9]{3}\$"
	sed -n 8p "$OUT" | grep -Eq "^$A +[^ ]+ +fsync +-1 +EBADF +[0-9]+\.[0-9]{3}\$"
}

@test "syncsnoop: a bad pid is refused in one line, exit 2" {
	run --separate-stderr "$BIN/syncsnoop" -p nope
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "syncsnoop: "* ]]
}
