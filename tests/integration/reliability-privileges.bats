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

# open_bin: copies of the tools in a directory anyone may search (sets
# OPEN_BIN; the caller removes it): without CAP_DAC_READ_SEARCH, nobody
# cannot reach a build under a private directory such as /root's, and
# would fail at exec.
open_bin() {
	OPEN_BIN=$(mktemp -d /tmp/bk-privs.XXXXXX)
	chmod 755 "$OPEN_BIN"
	cp "$BIN"/* "$OPEN_BIN"/
}

# check_refusal TOOL LAUNCHER...: run TOOL through LAUNCHER, expecting the
# one-line refusal; prints what is wrong, if anything.
check_refusal() {
	local t=$1 status=0 out=$BATS_TEST_TMPDIR/$1.out err=$BATS_TEST_TMPDIR/$1.err
	shift
	timeout 20 "$@" "$BIN/$t" $(plain_args "$t") -d 1 >"$out" 2>"$err" || status=$?
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
		timeout 20 "${NOBODY[@]}" "$BIN/$t" $(plain_args "$t") -v -d 1 >/dev/null \
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
			"$BIN/$t" $(plain_args "$t") -d 1) >/dev/null 2>"$BATS_TEST_TMPDIR/err" ||
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
	open_bin
	for t in $(tools); do
		caps=$(man_caps "$t")
		[ -n "$caps" ] || continue
		for cap in ${caps//,/ }; do
			rest=$(echo ",$caps," | sed "s/,$cap,/,/; s/^,//; s/,$//")
			status=0
			(cd / && as_user "$rest" timeout $((30 * TIME_SCALE)) \
				"$OPEN_BIN/$t" $(plain_args "$t") -d 1) >"$BATS_TEST_TMPDIR/out" 2>"$err" ||
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
	rm -rf "$OPEN_BIN"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
	echo "# $n runs" >&3
}

# expected_caps: the CapPrm and CapEff --drop-privileges leaves: none, or
# CAP_BPF alone where bpf() refuses every command without it (before Linux
# 6.5, with kernel.unprivileged_bpf_disabled set).
expected_caps() {
	local major minor
	IFS=. read -r major minor _ </proc/sys/kernel/osrelease
	if [ "$(cat /proc/sys/kernel/unprivileged_bpf_disabled)" != 0 ] &&
		((major < 6 || (major == 6 && minor < 5))); then
		echo 0000008000000000
	else
		echo 0000000000000000
	fi
}

# check_dropped PID: PID runs as nobody, with the capabilities
# expected_caps says, no ambient or bounding ones and no_new_privs.
check_dropped() {
	local status=/proc/$1/status caps
	caps=$(expected_caps)
	grep -Eq '^Uid:\s+65534\s+65534\s+65534\s+65534$' "$status"
	grep -Eq '^Gid:\s+65534\s+65534\s+65534\s+65534$' "$status"
	grep -Eq "^CapPrm:\s+$caps$" "$status"
	grep -Eq "^CapEff:\s+$caps$" "$status"
	grep -Eq '^CapInh:\s+0000000000000000$' "$status"
	grep -Eq '^CapAmb:\s+0000000000000000$' "$status"
	grep -Eq "^CapBnd:\s+$caps$" "$status"
	grep -Eq '^NoNewPrivs:\s+1$' "$status"
}

@test "reliability: privileges: --drop-privileges nobody: execsnoop runs as nobody with no capabilities and still prints execs" {
	local comm
	comm=$(unique_comm)
	cp /bin/true "$BATS_TEST_TMPDIR/$comm"
	start_tool execsnoop --drop-privileges nobody
	check_dropped "$TOOL_PID" || {
		grep -E '^(Uid|Gid|Cap|NoNew)' "/proc/$TOOL_PID/status" | sed 's/^/# /' >&3
		return 1
	}
	"$BATS_TEST_TMPDIR/$comm"
	wait_for "$OUT" " $comm " 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "reliability: privileges: --drop-privileges nobody: syscount --metrics still answers scrapes, with exactly the calls made after the drop" {
	local comm port before after trigger
	comm=$(unique_comm)
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	start_tool syscount -c "$comm" --metrics "127.0.0.1:$port" \
		--drop-privileges nobody
	check_dropped "$TOOL_PID"
	"$HELPERS/sysc-trigger" "$comm" "$BATS_TEST_TMPDIR/go" 1000 \
		>"$BATS_TEST_TMPDIR/trigger" &
	trigger=$!
	wait_for "$BATS_TEST_TMPDIR/trigger" '^[0-9]+$' 5
	before=$(curl -sf --max-time $((5 * TIME_SCALE)) "http://127.0.0.1:$port/metrics" |
		sed -n 's/^bpfkit_syscount_syscalls_total{syscall="getppid"} //p')
	touch "$BATS_TEST_TMPDIR/go"
	wait "$trigger"
	after=$(curl -sf --max-time $((5 * TIME_SCALE)) "http://127.0.0.1:$port/metrics" |
		sed -n 's/^bpfkit_syscount_syscalls_total{syscall="getppid"} //p')
	echo "# getppid: ${before:-none} before, $after after" >&3
	[ "$((after - ${before:-0}))" = 1000 ]
	check_dropped "$TOOL_PID"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "reliability: privileges: --drop-privileges with an unknown user: one line naming it, exit 2" {
	run "$BIN/syscount" --drop-privileges bpfkit-no-such-user -d 1
	[ "$status" = 2 ]
	[ "${#lines[@]}" = 1 ]
	[[ $output == "syscount: invalid --drop-privileges 'bpfkit-no-such-user': no such user;"* ]]
}

@test "reliability: privileges: --drop-privileges without CAP_SETUID and CAP_SETGID: one line naming them, exit 1" {
	require_perfmon_enough
	run as_user bpf,perfmon,dac_read_search "$BIN/syscount" \
		--drop-privileges daemon -d 1
	[ "$status" = 1 ]
	echo "$output" | grep -q "^syscount: cannot switch to user daemon for --drop-privileges: Operation not permitted; .*CAP_SETUID and CAP_SETGID"
}

@test "reliability: privileges: the tools that name stack frames refuse --drop-privileges in one line, exit 2" {
	local t n=0
	for t in $(tools); do
		# The stack tools, and every tool whose man page says it refuses.
		offers "$t" svg ||
			grep -q '^It refuses \\-\\-drop\\-privileges' "$ROOT/man/$t.8" ||
			continue
		run "$BIN/$t" $(plain_args "$t") --drop-privileges nobody -d 1
		[ "$status" = 2 ]
		[ "${#lines[@]}" = 1 ]
		[[ $output == "$t: --drop-privileges does not fit $t: "* ]]
		n=$((n + 1))
	done
	echo "# $n tools refuse" >&3
	[ "$n" -ge 6 ]
}
