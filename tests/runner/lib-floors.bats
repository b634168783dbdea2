#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tests/lib-floors passes the tree's library, and fails on a copy of it
# with a planted cycle, a planted upward include, or floors that do not
# list its rooms.

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup() {
	LIB=$BATS_TEST_TMPDIR/lib
	cp -r "$ROOT/user/lib" "$LIB"
}

@test "lib-floors: the tree's library has no cycle and no upward include" {
	run "$ROOT/tests/lib-floors" "$ROOT/user/lib"
	echo "$output"
	[ "$status" = 0 ]
	[ -z "$output" ]
}

@test "lib-floors: a planted cycle fails, named" {
	# output includes diag: diag including output closes a circle.
	sed -i 's/^#include <stdbool.h>$/&\n#include "output.h"/' "$LIB/diag.h"
	run "$ROOT/tests/lib-floors" "$LIB"
	echo "$output"
	[ "$status" = 1 ]
	[ "$(grep -c 'cycle' <<<"$output")" = 1 ]
	grep -qx "$LIB: cycle: diag -> output -> diag" <<<"$output"
	grep -qx "$LIB: diag includes output, which is above it" <<<"$output"
}

@test "lib-floors: a planted upward include fails, with no cycle" {
	# names comes before tally on the ground floor; tally includes none.
	sed -i 's/^#include "names.h"$/&\n#include "tally.h"/' "$LIB/names.c"
	run "$ROOT/tests/lib-floors" "$LIB"
	echo "$output"
	[ "$status" = 1 ]
	[ "$output" = "$LIB: names includes tally, which is above it" ]
}

@test "lib-floors: a room the floors miss, and one they name in vain, fail" {
	printf '#include "diag.h"\n' >"$LIB/newroom.c"
	sed -i 's/^tool: .*/& ghost/' "$LIB/floors"
	run "$ROOT/tests/lib-floors" "$LIB"
	echo "$output"
	[ "$status" = 1 ]
	[ "$(wc -l <<<"$output")" = 2 ]
	grep -qx "$LIB: ghost: in the floors, but no such room" <<<"$output"
	grep -qx "$LIB: newroom: not in the floors" <<<"$output"
}
