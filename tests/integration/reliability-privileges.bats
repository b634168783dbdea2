#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Privileges, for every tool in $BIN: without CAP_BPF and CAP_PERFMON each
# says so in one line and exits 1 (BPFKIT_EXIT_FAIL); libbpf's own log
# shows only with -v.

load helpers
load ../reliability/common

setup() {
	require_root
}

# check_refusal TOOL LAUNCHER...: run TOOL through LAUNCHER, expecting the
# one-line refusal; prints what is wrong, if anything.
check_refusal() {
	local t=$1 status=0 out=$BATS_TEST_TMPDIR/$1.out err=$BATS_TEST_TMPDIR/$1.err
	shift
	timeout 20 "$@" "$BIN/$t" -d 1 >"$out" 2>"$err" || status=$?
	if [ "$status" != 1 ]; then
		echo "$t: exit $status, not 1"
	elif [ -s "$out" ]; then
		echo "$t: wrote to stdout: $(head -c 200 "$out")"
	elif [ "$(wc -l <"$err")" != 1 ]; then
		echo "$t: $(wc -l <"$err") lines on stderr, not 1"
	elif ! grep -Eq "^$t: .*root.*CAP_BPF.*CAP_PERFMON" "$err"; then
		echo "$t: does not say it needs root (CAP_BPF and CAP_PERFMON)"
	else
		return 0
	fi
	sed 's/^/    /' "$err" | head -5
}

@test "reliability: privileges: as nobody, every tool says it needs root, exit 1" {
	for t in $(tools); do
		check_refusal "$t" "${NOBODY[@]}"
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}

@test "reliability: privileges: as root without capabilities, the same" {
	for t in $(tools); do
		check_refusal "$t" setpriv --inh-caps=-all --bounding-set=-all
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}

@test "reliability: privileges: -v adds detail but still exits 1" {
	for t in $(tools); do
		status=0
		timeout 20 "${NOBODY[@]}" "$BIN/$t" -v -d 1 >/dev/null \
			2>"$BATS_TEST_TMPDIR/err" || status=$?
		[ "$status" = 1 ] || echo "$t -v: exit $status, not 1"
		grep -q "^$t: .*CAP_BPF" "$BATS_TEST_TMPDIR/err" ||
			echo "$t -v: the refusal line is missing"
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}
