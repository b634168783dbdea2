#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# vfsstat: a helper's exact reads, writes, fsyncs, opens and creates (by
# raw syscalls, file-trigger vfs) appear in the interval it made them in,
# another helper's left out by -p; the text table, metrics and bad input
# behave.

bats_require_minimum_version 1.5.0
load helpers
load file-trigger

setup() {
	require_root
	GO=$BATS_TEST_TMPDIR/go
}

# The calls of `file-trigger vfs FILE 7`.
EXPECTED='{read: 9, write: 9, fsync: 2, open: 3, create: 2}'

@test "vfsstat: -p counts a helper's exact calls of each kind, all in one interval" {
	file_trigger B vfs "$BATS_TEST_TMPDIR/other" 100
	file_trigger A vfs "$BATS_TEST_TMPDIR/file" 7
	start_tool vfsstat -j -i 2 -p "$A"
	# Start the calls just after an interval begins.
	wait_for "$OUT" '"interval":1,' 10
	touch "$GO"
	wait "$A_JOB" "$B_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es "$EXPECTED as \$e | length >= 2 and
		map(.interval) == [range(1; length + 1)] and
		(map(select(.read + .write + .fsync + .open + .create > 0)) |
		 length == 1 and (.[0] | {read, write, fsync, open, create}) == \$e)
	" "$OUT"
}

@test "vfsstat: the table's rates, --textfile's totals of the same calls" {
	file_trigger A vfs "$BATS_TEST_TMPDIR/file" 7
	mkdir "$BATS_TEST_TMPDIR/prom"
	start_tool vfsstat -p "$A" --textfile "$BATS_TEST_TMPDIR/prom" --print
	touch "$GO"
	wait "$A_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^TIME +READ/s +WRITE/s +FSYNC/s +OPEN/s +CREATE/s$'
	tail -n +2 "$OUT" | grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2}( +[0-9]+){5}$'
	prom=$BATS_TEST_TMPDIR/prom/bpfkit_vfsstat.prom
	grep -qx 'bpfkit_vfsstat_calls_total{op="read"} 9' "$prom"
	grep -qx 'bpfkit_vfsstat_calls_total{op="write"} 9' "$prom"
	grep -qx 'bpfkit_vfsstat_calls_total{op="fsync"} 2' "$prom"
	grep -qx 'bpfkit_vfsstat_calls_total{op="open"} 3' "$prom"
	grep -qx 'bpfkit_vfsstat_calls_total{op="create"} 2' "$prom"
}

@test "vfsstat: a bad interval is refused in one line, exit 2" {
	run --separate-stderr "$BIN/vfsstat" -i 0
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "vfsstat: invalid -i/--interval '0': expected a whole number from 1 to 86400" ]
}
