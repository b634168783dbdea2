#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Privileges, for every tool in $BIN: without CAP_BPF and CAP_PERFMON each
# says so in one line and exits 1 (BPFKIT_EXIT_FAIL); libbpf's own log
# shows only with -v. As a user holding only the capabilities its man page
# states (CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH, tracefs being 0700;
# CAP_SYS_ADMIN in place of the first two for user probes) every tool
# traces, and without any one of them says which in one line.

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

# as_user CAPS CMD...: run CMD as nobody holding exactly CAPS (ambient, so
# they survive the execs).
as_user() {
	local caps=$1
	shift
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps="-all,+${caps//,/,+}" --ambient-caps="+${caps//,/,+}" \
		--bounding-set="-all,+${caps//,/,+}" "$@"
}

# man_caps TOOL: the capabilities TOOL's man page gives it in its
# CAPABILITIES section's setpriv line, as "bpf,perfmon,dac_read_search".
man_caps() {
	sed -n 's/^.*\\-\\-ambient\\-caps=\([a-z_+,]*\).*$/\1/p' \
		"$ROOT/man/$1.8" | tr -d + | head -1
}

# Debian's kernels add perf_event_paranoid level 3, where perf_event_open
# (every tracepoint attach) needs CAP_SYS_ADMIN whatever CAP_PERFMON says.
require_perfmon_enough() {
	local paranoid
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	[ "$paranoid" -le 2 ] ||
		skip "kernel.perf_event_paranoid is $paranoid: perf events need CAP_SYS_ADMIN here (sysctl kernel.perf_event_paranoid=2 lets CAP_PERFMON do)"
}

@test "reliability: privileges: as nobody with only the capabilities its man page states, every tool traces" {
	local t caps status n=0
	require_perfmon_enough
	for t in $(tools); do
		caps=$(man_caps "$t")
		if [ -z "$caps" ]; then
			echo "$t: man/$t.8 states no setpriv --ambient-caps line"
			continue
		fi
		status=0
		(cd / && as_user "$caps" timeout $((30 * TIME_SCALE)) \
			"$BIN/$t" -d 1) >/dev/null 2>"$BATS_TEST_TMPDIR/err" ||
			status=$?
		n=$((n + 1))
		if [ "$status" != 0 ] || ! grep -q "^$t: tracing" "$BATS_TEST_TMPDIR/err"; then
			echo "$t with $caps: exit $status"
			sed 's/^/    /' "$BATS_TEST_TMPDIR/err" | head -3
		fi
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
	echo "# $n tools" >&3
}

@test "reliability: privileges: without one of its capabilities, every tool names it in one line, exit 1" {
	local t caps cap rest status n=0 err=$BATS_TEST_TMPDIR/err
	for t in $(tools); do
		caps=$(man_caps "$t")
		[ -n "$caps" ] || continue
		for cap in ${caps//,/ }; do
			rest=$(echo ",$caps," | sed "s/,$cap,/,/; s/^,//; s/,$//")
			status=0
			(cd / && as_user "$rest" timeout $((30 * TIME_SCALE)) \
				"$BIN/$t" -d 1) >"$BATS_TEST_TMPDIR/out" 2>"$err" ||
				status=$?
			n=$((n + 1))
			if [ "$status" != 1 ] || [ -s "$BATS_TEST_TMPDIR/out" ] ||
				[ "$(wc -l <"$err")" != 1 ] ||
				! grep -q "^$t: .*CAP_${cap^^}" "$err"; then
				echo "$t without $cap: exit $status, $(wc -l <"$err") lines"
				sed 's/^/    /' "$err" | head -3
			fi
		done
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
	echo "# $n runs" >&3
}
