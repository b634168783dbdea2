#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# @NAME@: loads, attaches to @TRACEPOINT@ and stops cleanly.
# Made by tools/new-tool, which knows no generic way to cause a
# @TRACEPOINT@ event, so these tests check loading, attaching and output
# only. Add a test that causes the event from a process it starts and
# asserts every field, as tests/integration/hello-buffer.bats does.

load helpers

setup() {
	require_root
}

@test "@NAME@: attaches to @TRACEPOINT@ and exits 0 after -d" {
	"$BIN/@NAME@" -d 0.5 >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err"
	head -1 "$BATS_TEST_TMPDIR/out" | grep -Eq '^PID +PPID +UID +COMM$'
	grep -q '^@NAME@: tracing; hit Ctrl-C to end$' "$BATS_TEST_TMPDIR/err"
	grep -Eq '^@NAME@: [0-9]+ events, [0-9]+ lost( \(.*\))?$' "$BATS_TEST_TMPDIR/err"
}

@test "@NAME@: -j ends with a summary record" {
	"$BIN/@NAME@" -j -d 0.5 >"$BATS_TEST_TMPDIR/out"
	jq -es 'map(select(.type == "summary")) | length == 1' \
		"$BATS_TEST_TMPDIR/out"
}
