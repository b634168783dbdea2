#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Bad input, for every tool in $BIN and every option its --help lists: a
# table of cases generated from the metavars (tests/reliability/
# badinput-cases). Each case must give one line on stderr naming the
# option, nothing on stdout, and exit 2 (BPFKIT_EXIT_USAGE). Parsing comes
# before the privilege check, so these need no root.

load helpers
load ../reliability/common

@test "reliability: bad input: every tool refuses each generated bad command line" {
	local failed=0
	tools | xargs -P 4 -I{} "$REL/run-badinput" "$BIN/{}" \
		>"$BATS_TEST_TMPDIR/report" || failed=1
	# The per-tool counts first, then every failing case.
	sort "$BATS_TEST_TMPDIR/report" | grep -E ': [0-9]+ cases, ' |
		sed 's/^/# /' >&3
	sort "$BATS_TEST_TMPDIR/report" | grep -Ev ': [0-9]+ cases, ' |
		sed 's/^/# /' >&3
	[ "$(grep -c ': [0-9]* cases, ' "$BATS_TEST_TMPDIR/report")" = \
		"$(tools | wc -l)" ]
	[ "$failed" = 0 ]
}

@test "reliability: bad input: the case table has at least 20 cases per tool" {
	for t in $(tools); do
		n=$("$REL/badinput-cases" "$BIN/$t" | wc -l)
		echo "# $t: $n cases" >&3
		[ "$n" -ge 20 ]
	done
}
