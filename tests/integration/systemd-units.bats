#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The systemd unit templates make install puts in place, one
# bpfkit-TOOL@.service per tool with --metrics (tools/gen-unit): the
# capabilities its man page states and no others, systemd's hardening,
# accepted by systemd-analyze verify and scored by systemd-analyze
# security --offline; started by systemd where it is PID 1, else their
# ExecStart run as the unit would run it (a dynamic uid, only those
# capabilities, no_new_privs), scraped for real.

load helpers
load ../reliability/common

setup_file() {
	DEST=$(mktemp -d "${TMPDIR:-/tmp}/units-test.XXXXXX")
	export DEST
	plain_make -C "$ROOT" BUILD="$BUILD" PREFIX=/usr DESTDIR="$DEST/root" \
		install >"$DEST/make.log" 2>&1 || {
		tail -20 "$DEST/make.log" | sed 's/^/# /' >&3
		return 1
	}
	UNITS=$DEST/root/lib/systemd/system
	export UNITS
}

teardown_file() {
	rm -rf "$DEST"
}

setup() {
	require_root
	command -v systemd-analyze >/dev/null ||
		skip "systemd-analyze is missing (tools/deps.sh test installs systemd)"
}

# metrics_tools: the tools that offer --metrics.
metrics_tools() {
	local t
	for t in $(tools); do
		offers "$t" metrics && echo "$t"
	done
}

# unit_value UNIT KEY: the value of KEY= in UNIT.
unit_value() {
	sed -n "s/^$2=//p" "$1"
}

# man_caps TOOL: its man page's capabilities as the unit names them.
man_caps() {
	sed -n 's/^.*\\-\\-ambient\\-caps=\([a-z_+,]*\).*$/\1/p' \
		"$ROOT/man/$1.8" | head -1 | tr -d + | tr , '\n' |
		tr a-z A-Z | sed 's/^/CAP_/' | paste -sd ' '
}

# local_unit TOOL: a copy of TOOL's unit whose ExecStart is the installed
# binary in $DEST (systemd-analyze checks that it is executable).
local_unit() {
	mkdir -p "$DEST/verify"
	sed "s|^ExecStart=/usr/sbin/|ExecStart=$DEST/root/usr/sbin/|" \
		"$UNITS/bpfkit-$1@.service" >"$DEST/verify/bpfkit-$1@.service"
	echo "$DEST/verify/bpfkit-$1@.service"
}

@test "units: make install puts a bpfkit-TOOL@.service per metrics tool, holding only the capabilities its man page states" {
	local t u kv n=0
	for t in $(metrics_tools); do
		u=$UNITS/bpfkit-$t@.service
		if [ ! -s "$u" ]; then
			echo "$t: no $u"
			continue
		fi
		n=$((n + 1))
		[ "$(unit_value "$u" ExecStart)" = "/usr/sbin/bpfkit-$t --metrics %I \$BPFKIT_ARGS" ] ||
			echo "$t: ExecStart=$(unit_value "$u" ExecStart)"
		[ "$(unit_value "$u" AmbientCapabilities)" = "$(man_caps "$t")" ] ||
			echo "$t: AmbientCapabilities=$(unit_value "$u" AmbientCapabilities), man page: $(man_caps "$t")"
		[ "$(unit_value "$u" CapabilityBoundingSet)" = "$(man_caps "$t")" ] ||
			echo "$t: CapabilityBoundingSet=$(unit_value "$u" CapabilityBoundingSet)"
		for kv in DynamicUser=yes NoNewPrivileges=yes ProtectSystem=strict \
			ProtectHome=yes PrivateTmp=yes MemoryDenyWriteExecute=yes \
			"RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX" \
			"SystemCallFilter=@system-service bpf perf_event_open"; do
			grep -qx "$kv" "$u" || echo "$t: no $kv"
		done
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
	# No unit for a tool without --metrics.
	[ "$(ls "$UNITS" | wc -l)" = "$n" ]
	echo "# $n units" >&3
}

@test "units: systemd-analyze verify accepts every unit" {
	local t
	for t in $(metrics_tools); do
		systemd-analyze verify --man=no "$(local_unit "$t")" \
			>"$BATS_TEST_TMPDIR/out" 2>&1 ||
			echo "$t: exit $?"
		[ ! -s "$BATS_TEST_TMPDIR/out" ] || sed "s/^/$t: /" "$BATS_TEST_TMPDIR/out"
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}

@test "units: systemd-analyze security --offline=yes rates every unit OK (exposure under 3)" {
	local t score
	for t in $(metrics_tools); do
		score=$(systemd-analyze security --offline=yes --no-pager \
			"$(local_unit "$t")" 2>&1 |
			sed -n 's/^.*Overall exposure level for .*: \([0-9.]*\) .*$/\1/p')
		echo "$t $score" >>"$BATS_TEST_TMPDIR/scores"
		awk -v s="$score" 'BEGIN { exit !(s != "" && s < 3) }' ||
			echo "$t: exposure '${score:-none}'"
	done >"$BATS_TEST_TMPDIR/report"
	sed 's/^/# /' "$BATS_TEST_TMPDIR/report" >&3
	sort -k2 -n "$BATS_TEST_TMPDIR/scores" | awk '{ s[$2] = s[$2] " " $1 } END { for (k in s) print "# " k ":" s[k] }' >&3
	[ ! -s "$BATS_TEST_TMPDIR/report" ]
}

# unit_launcher UNIT: set AS_UNIT to the command that runs a program as
# UNIT would: a DynamicUser uid (61184, the first of systemd's range), only
# the unit's ambient capabilities, in every set, and no_new_privs.
unit_launcher() {
	local caps
	caps=$(unit_value "$1" AmbientCapabilities | tr A-Z a-z |
		sed 's/cap_//g; s/ /,+/g; s/^/+/')
	AS_UNIT=(setpriv --reuid=61184 --regid=61184 --clear-groups
		--inh-caps="-all,$caps" --ambient-caps="$caps"
		--bounding-set="-all,$caps" --no-new-privs)
}

# scrape_value PORT METRIC: METRIC's value in a scrape of PORT, or empty.
scrape_value() {
	curl -sf --max-time $((5 * TIME_SCALE)) "http://127.0.0.1:$1/metrics" |
		awk -v m="$2" '$1 == m { print $2 }'
}

# wait_for_scrape PORT: until a scrape of PORT answers (10 s x TIME_SCALE).
wait_for_scrape() {
	local i
	for ((i = 0; i < 100 * TIME_SCALE; i++)); do
		curl -sf --max-time 1 "http://127.0.0.1:$1/metrics" | grep -q '^bpfkit_build_info{' && return 0
		sleep 0.1
	done
	return 1
}

@test "units: started by systemd, bpfkit-syscount@127.0.0.1:PORT answers a scrape" {
	[ "$(cat /proc/1/comm)" = systemd ] && systemctl is-system-running >/dev/null 2>&1 ||
		skip "PID 1 is $(cat /proc/1/comm), not systemd: the next test runs the unit's ExecStart as the unit would"
	local port
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cp "$(local_unit syscount)" /run/systemd/system/
	systemctl daemon-reload
	systemctl start "bpfkit-syscount@127.0.0.1:$port.service"
	status=0
	wait_for_scrape "$port" || status=$?
	systemctl stop "bpfkit-syscount@127.0.0.1:$port.service"
	rm -f /run/systemd/system/bpfkit-syscount@.service
	systemctl daemon-reload
	[ "$status" = 0 ]
}

@test "units: syscount's and bashreadline's ExecStart (the two capability sets), run with the unit's uid and capabilities, trace and answer scrapes" {
	local t u port pid n=0 comm caps
	comm=$(unique_comm)
	for t in syscount bashreadline; do
		u=$UNITS/bpfkit-$t@.service
		port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		unit_launcher "$u"
		(cd / && exec "${AS_UNIT[@]}" "$DEST/root/usr/sbin/bpfkit-$t" \
			--metrics "127.0.0.1:$port" -c "$comm") \
			2>"$BATS_TEST_TMPDIR/$t.err" &
		pid=$!
		wait_tracing "$pid" "$BATS_TEST_TMPDIR/$t.err" || {
			echo "# $t: $(first_error "$BATS_TEST_TMPDIR/$t.err")" >&3
			return 1
		}
		# Its capabilities are the unit's, in every set but the inheritable.
		caps=$(grep '^CapEff:' "/proc/$pid/status" | cut -f2)
		[ "$caps" = "$(grep '^CapPrm:' "/proc/$pid/status" | cut -f2)" ]
		[ "$caps" = "$(grep '^CapBnd:' "/proc/$pid/status" | cut -f2)" ]
		[ "$caps" != 0000000000000000 ]
		grep -Eq '^Uid:\s+61184\s' "/proc/$pid/status"
		grep -Eq '^NoNewPrivs:\s+1$' "/proc/$pid/status"
		[ -n "$(curl -sf --max-time $((5 * TIME_SCALE)) "http://127.0.0.1:$port/metrics" | grep "^bpfkit_build_info{")" ]
		if [ "$t" = syscount ]; then
			rm -f "$BATS_TEST_TMPDIR/go"
			"$HELPERS/sysc-trigger" "$comm" "$BATS_TEST_TMPDIR/go" 700 \
				>/dev/null &
			touch "$BATS_TEST_TMPDIR/go"
			wait "$!"
			[ "$(scrape_value "$port" 'bpfkit_syscount_syscalls_total{syscall="getppid"}')" = 700 ]
		fi
		kill -INT "$pid"
		wait "$pid"
		n=$((n + 1))
	done
	[ "$n" = 2 ]
}
