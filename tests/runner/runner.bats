#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tests/run must count every failure: fake unit binaries and a fake bats
# that crash, die mid-plan or exit non-zero after passing, and skips that
# a skip list does not expect. BPFKIT_RUNNER names another runner to try
# (a regressed one must fail here).

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RUNNER=${BPFKIT_RUNNER:-$ROOT/tests/run}

setup() {
	FAKE=$BATS_TEST_TMPDIR/build
	mkdir -p "$FAKE/test/unit" "$BATS_TEST_TMPDIR/path"
	# A bats that prints $FAKE_BATS_OUT's lines and exits $FAKE_BATS_STATUS
	# (by default an empty plan and 0), whatever the files it is given.
	cat >"$BATS_TEST_TMPDIR/path/bats" <<-'SH'
	#!/bin/sh
	printf '%b' "${FAKE_BATS_OUT:-1..0\n}"
	exit "${FAKE_BATS_STATUS:-0}"
	SH
	chmod +x "$BATS_TEST_TMPDIR/path/bats"
}

# unit NAME SCRIPT: a fake unit binary, a shell script.
unit() {
	printf '#!/bin/sh\n%s\n' "$2" >"$FAKE/test/unit/$1"
	chmod +x "$FAKE/test/unit/$1"
}

# runner ARG...: the runner against the fake build and the fake bats
# (with no ARG, as make test runs it: the unit binaries, then a fake bats
# for each integration test file, each giving an empty plan by default),
# with the skip list SKIPS if set (not the caller's BPFKIT_SKIPS).
runner() {
	local skips=()
	[ -z "${SKIPS:-}" ] || skips=(BPFKIT_SKIPS="$SKIPS")
	run env -u BPFKIT_SKIPS "${skips[@]}" PATH="$BATS_TEST_TMPDIR/path:$PATH" \
		BPFKIT_BUILD="$FAKE" "$RUNNER" "$@"
	# Shown if the test fails.
	echo "$output" | grep -v '^1\.\.0$'
}

@test "runner: a sound unit binary and bats pass" {
	unit good 'echo 1..2; echo "ok 1 - a"; echo "ok 2 - b"'
	runner
	[ "$status" = 0 ]
	[ "${lines[-1]}" = "2 passed, 0 failed, 0 skipped" ]
	FAKE_BATS_OUT='1..1\nok 1 c\n' runner x.bats
	[ "$status" = 0 ]
	[ "${lines[-1]}" = "1 passed, 0 failed, 0 skipped" ]
}

@test "runner: a unit binary that crashes before any output is a failure" {
	unit crash 'kill -SEGV $$'
	runner
	[ "$status" = 1 ]
	[ "${lines[-1]}" = "0 passed, 1 failed, 0 skipped" ]
	grep -Fxq "not ok - $FAKE/test/unit/crash: no TAP plan (1..N), 0 results, exit status 139 (SIGSEGV) with no failed test" <<<"$output"
}

@test "runner: a unit binary that dies after ok 1 of 1..3 is a failure" {
	unit short 'echo 1..3; echo "ok 1 - a"; echo "AddressSanitizer: boom" >&2; kill -ABRT $$'
	runner
	[ "$status" = 1 ]
	[ "${lines[-1]}" = "1 passed, 1 failed, 0 skipped" ]
	grep -Fxq "not ok - $FAKE/test/unit/short: 1 of 3 planned results, exit status 134 (SIGABRT) with no failed test" <<<"$output"
	# What it said on stderr is shown.
	grep -Fxq "# AddressSanitizer: boom" <<<"$output"
}

@test "runner: a unit binary that exits 1 after all ok is a failure" {
	unit exit1 'echo 1..2; echo "ok 1 - a"; echo "ok 2 - b"; exit 1'
	runner
	[ "$status" = 1 ]
	[ "${lines[-1]}" = "2 passed, 1 failed, 0 skipped" ]
	grep -Fxq "not ok - $FAKE/test/unit/exit1: exit status 1 with no failed test" <<<"$output"
}

@test "runner: a failed test is counted once, with its exit status" {
	unit honest 'echo 1..2; echo "ok 1 - a"; echo "not ok 2 - b"; exit 1'
	runner
	[ "$status" = 1 ]
	[ "${lines[-1]}" = "1 passed, 1 failed, 0 skipped" ]
	FAKE_BATS_OUT='1..2\nok 1 c\nnot ok 2 d\n' FAKE_BATS_STATUS=1 runner x.bats
	[ "$status" = 1 ]
	[ "${lines[-1]}" = "1 passed, 1 failed, 0 skipped" ]
}

@test "runner: bats exiting non-zero after all ok is a failure naming the file" {
	FAKE_BATS_OUT='1..2\nok 1 a\nok 2 b\n' FAKE_BATS_STATUS=1 runner x.bats
	[ "$status" = 1 ]
	[ "${lines[-1]}" = "2 passed, 1 failed, 0 skipped" ]
	grep -Fxq "not ok - x.bats: exit status 1 with no failed test" <<<"$output"
}

@test "runner: bats stopping short of its plan is a failure naming the file" {
	FAKE_BATS_OUT='1..3\nok 1 a\n' runner x.bats y.bats
	[ "$status" = 1 ]
	[ "${lines[-1]}" = "2 passed, 2 failed, 0 skipped" ]
	grep -Fxq "not ok - x.bats: 1 of 3 planned results" <<<"$output"
	grep -Fxq "not ok - y.bats: 1 of 3 planned results" <<<"$output"
}

@test "runner: with BPFKIT_SKIPS, a skip the list does not name is a failure" {
	printf '%s\n' '# a comment' '' 'a [1] # skip known: *' >"$BATS_TEST_TMPDIR/skips"
	FAKE_BATS_OUT='1..3\nok 1 a [1] # skip known: here\nok 2 b # skip known: here\nok 3 c\n' \
		SKIPS="$BATS_TEST_TMPDIR/skips" runner x.bats
	[ "$status" = 1 ]
	[ "${lines[-1]}" = "1 passed, 1 failed, 2 skipped" ]
	grep -Fxq "not ok - unexpected skip (not in $BATS_TEST_TMPDIR/skips): b # skip known: here" <<<"$output"
	# Without a list, skips are only counted.
	FAKE_BATS_OUT='1..1\nok 1 b # skip known: here\n' runner x.bats
	[ "$status" = 0 ]
	[ "${lines[-1]}" = "0 passed, 0 failed, 1 skipped" ]
}
