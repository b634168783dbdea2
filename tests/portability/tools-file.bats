#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, the file tools (issue 34): each sees the file calls a
# helper (file-trigger) makes, with the values the helper's arguments fix
# (exact counts, bytes, kinds, ages).

bats_require_minimum_version 1.5.0
load ../integration/helpers
load helpers

# trigger ARG...: file-trigger named COMM, waiting for $BATS_TEST_TMPDIR/go
# to do ARG...; PID is its pid, TRIGGER its job.
trigger() {
	COMM=$(unique_comm)
	"$HELPERS/file-trigger" "$COMM" "$BATS_TEST_TMPDIR/go" "$@" \
		>"$BATS_TEST_TMPDIR/pid" &
	TRIGGER=$!
	await "$BATS_TEST_TMPDIR/pid" '^[0-9]+$' 5
	PID=$(cat "$BATS_TEST_TMPDIR/pid")
}

# go: let the trigger run and wait for it.
go() {
	touch "$BATS_TEST_TMPDIR/go"
	wait "$TRIGGER"
}

@test "vfsstat: a helper's exact reads, writes, fsyncs, opens and creates" {
	trigger vfs "$BATS_TEST_TMPDIR/file" 7
	launch vfsstat -j -p "$PID"
	go
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out '(map(.read) | add) == 9 and (map(.write) | add) == 9 and
		(map(.fsync) | add) == 2 and (map(.open) | add) == 3 and
		(map(.create) | add) == 2'
}
