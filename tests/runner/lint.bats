#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tests/lint-bats finds the checks that cannot fail, planted among the
# shapes that can, and passes the tree's own tests.

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

@test "lint-bats: finds every planted dead check, and nothing else" {
	planted=$BATS_TEST_TMPDIR/planted.bats
	# (TEST for @test: bats would take it for a test of this file.)
	sed 's/^TEST /@test /' >"$planted" <<-'PLANTED'
	helper() {
		[ "$1" = a ] && [ "$2" = b ]
		echo done
	}

	last() {
		[ "$1" = a ] && [ "$2" = b ]
	}

	arrays() {
		JOBS=()
		JOBS+=(1 "2 3")
		ARGS=()
	}

	TEST "dead checks" {
		run true
		[ "$status" = 2 ] && [ -z "$output" ]
		for x in 1 2; do
			[ -n "$x" ] && [ "$x" -gt 0 ]
		done
		cat <<EOF
	[ a ] && [ b ]
	EOF
		sh -c 'true &&
			[ a ] && [ b ]'
		! grep -q x /dev/null
		grep -q a /dev/null &&
			[ -n "$x" ]
		if true; then
			(( x > 0 )) && [[ $x == 1 ]]
		fi
		echo "${x#*#}" && refute true
		true
	}

	TEST "live checks" {
		for x in 1 2; do
			[ -n "$x" ] && break
		done
		[ a ] && [ b ] || false
		if [ a ] && [ b ]; then :; fi
		while [ a ] && [ b ]; do :; done
		y=$([ a ] && echo y)
		[[ a && b ]]
		(( 1 && 2 ))
		! grep -q x /dev/null || false
		(cd / && [ -d tmp ])
		case $x in
		1) [ a ] && echo 1 ;;
		*) ;;
		esac
		[ "$status" = 2 ] && [ -z "$output" ]
	}
	PLANTED
	run "$ROOT/tests/lint-bats" "$planted"
	echo "$output"
	[ "$status" = 1 ]
	[ "$(grep -o '^[^:]*:[0-9]*: [^,]*' <<<"$output")" = "$planted:2: an && list ending in a check
$planted:18: an && list ending in a check
$planted:20: an && list ending in a check
$planted:27: a lone ! CMD
$planted:28: an && list ending in a check
$planted:31: an && list ending in a check
$planted:33: an && list ending in a check" ]
}

@test "lint-bats: the tests have no dead check" {
	run "$ROOT/tests/lint-bats"
	echo "$output"
	[ "$status" = 0 ]
	[ -z "$output" ]
}
