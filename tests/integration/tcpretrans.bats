#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcpretrans: in a network namespace of the test's own, a connection on
# its loopback is established, then an nftables rule drops what goes to
# the server's port and the client sends: the kernel retransmits, and each
# retransmit shows with the client's ports, state ESTABLISHED and the
# client's pid (its connect named it); -j, -C (its totals as the
# namespace's TcpRetransSegs counts them), --metrics, -4/-6 and --cgroup
# with a rule that drops every data segment; SKIP without nftables.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
}

eval "tcp_$(declare -f teardown)"
teardown() {
	[ -z "${OTHER_PID:-}" ] || kill "$OTHER_PID" 2>/dev/null || true
	tcp_teardown
	local d i
	# A reaped task can linger in its cgroup for a moment.
	for d in "${CGPARENT:-}/child" "${CGPARENT:-}-sibling" "${CGPARENT:-}"; do
		[ -d "$d" ] || continue
		for ((i = 0; i < 50; i++)); do
			rmdir "$d" 2>/dev/null && break
			sleep 0.1
		done
	done
	return 0
}

# stall_retransmits FORMAT ARG...: tcpretrans ARG... while tcp-trigger's
# stall mode in $NETNS sends into a drop rule, until a retransmit of the
# data shows (FORMAT: text or json); sets PID, CPORT and PORT.
stall_retransmits() {
	local format=$1
	shift
	make_netns
	drop_rule "tcp dport 1"
	start_tool tcpretrans "$@"
	coproc STALL { ip netns exec "$NETNS" "$HELPERS/tcp-trigger" "$COMM" stall 127.0.0.1; }
	read -r PID <&"${STALL[0]}"
	read -r _ CPORT PORT <&"${STALL[0]}"
	ip netns exec "$NETNS" nft add rule inet bkdrop in tcp dport "$PORT" drop
	echo go >&"${STALL[1]}"
	if [ "$format" = json ]; then
		wait_for "$OUT" "\"sport\":$CPORT,.*\"dport\":$PORT,.*\"ESTABLISHED\"" 5
	else
		wait_for "$OUT" " $CPORT .* $PORT ESTABLISHED$" 5
	fi
	wait "$STALL_PID" || true
	stop_tool
}

@test "tcpretrans: retransmits into a drop rule, with the ports, state and pid" {
	stall_retransmits text -c "$COMM"
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +IP +LADDR +LPORT +RADDR +RPORT +STATE$'
	grep -Eq "^$PID +$COMM +4 +127\.0\.0\.1 +$CPORT +127\.0\.0\.1 +$PORT +ESTABLISHED$" "$OUT"
	# Every line is this connection's, either way (the server's FIN is
	# retransmitted too: the client's ACKs to it are dropped), in the
	# states the ends go through as they close.
	refute grep -Evq "^(PID|$PID +$COMM +4 +127\.0\.0\.1 +($CPORT +127\.0\.0\.1 +$PORT|$PORT +127\.0\.0\.1 +$CPORT) +[A-Z_0-9]+$)" "$OUT"
}

@test "tcpretrans: -j carries every field" {
	stall_retransmits json -j -4 -c "$COMM"
	jq -es --argjson p "$PID" --arg c "$COMM" --argjson cp "$CPORT" \
		--argjson port "$PORT" '
		map(select(.sport == $cp and .dport == $port and
			.state == "ESTABLISHED")) | length >= 1 and
		all(.pid == $p and .uid == 0 and .comm == $c and .ip == 4 and
			.saddr == "127.0.0.1" and .daddr == "127.0.0.1")
	' "$OUT"
}

# stall_bg COMM ADDR FILE [CGROUP]: in the background, tcp-trigger's stall
# mode in $NETNS as COMM to ADDR (in the cgroup v2 directory CGROUP when
# given), its output in FILE; a drop rule of every data segment must be in
# place ("meta length > 500": the handshake and FINs pass).
stall_bg() {
	sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1
		shift; exec "$@"' sh "${4:-}" \
		ip netns exec "$NETNS" "$HELPERS/tcp-trigger" "$1" stall "$2" \
		<<<go >"$3" &
}

# stall_ports FILE: CPORT and PORT of the stall whose output is FILE.
stall_ports() {
	read -r _ CPORT PORT < <(sed -n 2p "$1")
	[ -n "$PORT" ]
}

# ns_retransmits: the retransmits $NETNS has sent: its TcpRetransSegs
# less TCPRetransFail (a try the device refused sent nothing, and the
# tool skips it), one segment each here (1000 bytes on loopback).
ns_retransmits() {
	ip netns exec "$NETNS" awk '
		!($1 in names) { names[$1] = $0; next }
		{ split(names[$1], n); for (i = 2; i <= NF; i++) v[$1 n[i]] = $i }
		END { print v["Tcp:RetransSegs"] - v["TcpExt:TCPRetransFail"] }
	' /proc/net/snmp /proc/net/netstat
}

# counted_stall ARG...: in a new $NETNS dropping every data segment,
# tcpretrans ARG... -c COMM over one stall, with the namespace's own count
# read around it: INNER from before the tool started to the stall's end,
# OUTER to after the tool exited (the closed socket retransmits on, in
# the kernel). Only this stall sends in the namespace.
counted_stall() {
	local before
	[ -z "${NETNS:-}" ] || ip netns del "$NETNS"
	make_netns
	drop_rule "meta length > 500"
	before=$(ns_retransmits)
	start_tool tcpretrans "$@" -c "$COMM"
	stall_bg "$COMM" 127.0.0.1 "$BATS_TEST_TMPDIR/stall"
	wait $!
	INNER=$(($(ns_retransmits) - before))
	stall_ports "$BATS_TEST_TMPDIR/stall"
	stop_tool
	OUTER=$(($(ns_retransmits) - before))
	[ "$TOOL_STATUS" = 0 ]
}

# in_bounds COUNT SKIPPED: the tool counted COUNT retransmits, and the
# kernel skipped SKIPPED runs of its programs (another BPF program was
# running on that CPU: counted for the whole system, so an upper bound of
# the ones of this namespace). COUNT is at most OUTER, and at least INNER
# less SKIPPED.
in_bounds() {
	echo "# tcpretrans counted $1 (the kernel skipped $2 runs); the namespace sent $INNER while it surely traced, $OUTER by its exit" >&3
	[ "$INNER" -gt 0 ]
	[ "$1" -ge $((INNER - $2)) ]
	[ "$1" -le "$OUTER" ]
}

@test "tcpretrans: -C counts per flow and state at exit, the events' sum, the namespace's TcpRetransSegs" {
	counted_stall -C
	head -1 "$OUT" | grep -Eq '^IP +LADDR +LPORT +RADDR +RPORT +STATE +RETRANSMITS$'
	# 1000 bytes unacknowledged for 2 s: the timer retransmits them
	# a few times (after 0.2 s, 0.6 s, 1.4 s...).
	grep -Eq "^4 +127\.0\.0\.1 +$CPORT +127\.0\.0\.1 +$PORT +ESTABLISHED +[1-9][0-9]*$" "$OUT"
	in_bounds "$(awk 'NR > 1 { n += $NF } END { print n + 0 }' "$OUT")" \
		"$(sed -En 's/.*the kernel skipped ([0-9]+) runs.*/\1/p' "$ERR" | grep . || echo 0)"

	counted_stall -C -j
	# One object per flow and state, all of this connection either way,
	# whose counts add up to the events the tool counted.
	jq -es --argjson cp "$CPORT" --argjson port "$PORT" '
		(map(select(.type == "summary")) | last | .events) as $events |
		map(select(.type == null)) |
		any(.sport == $cp and .dport == $port and
			.state == "ESTABLISHED" and .retransmits >= 1) and
		all(.ip == 4 and .saddr == "127.0.0.1" and
			.daddr == "127.0.0.1" and
			([.sport, .dport] | sort) == ([$cp, $port] | sort)) and
		(map([.sport, .dport, .state]) | unique | length) == length and
		(map(.retransmits) | add) == $events
	' "$OUT"
	in_bounds "$(jq -s 'map(select(.type == null) | .retransmits) | add' "$OUT")" \
		"$(jq -s 'map(select(.type == "summary")) | last | .skipped_runs' "$OUT")"
}

@test "tcpretrans: --metrics serves retransmits per flow and state" {
	local port body sum
	make_netns
	drop_rule "meta length > 500"
	port=$(free_port)
	start_tool tcpretrans --metrics "127.0.0.1:$port" -c "$COMM"
	stall_bg "$COMM" 127.0.0.1 "$BATS_TEST_TMPDIR/stall"
	wait $!
	stall_ports "$BATS_TEST_TMPDIR/stall"
	body=$(scrape "$port")
	grep -Eqx "bpfkit_tcpretrans_retransmits_total\{saddr=\"127\.0\.0\.1\",sport=\"$CPORT\",daddr=\"127\.0\.0\.1\",dport=\"$PORT\",state=\"ESTABLISHED\"\} [1-9][0-9]*" <<<"$body"
	# The series add up to the events the tool read by that scrape.
	sum=$(awk '/^bpfkit_tcpretrans_retransmits_total\{/ { n += $2 } END { print n }' <<<"$body")
	grep -qx "bpfkit_events_total $sum" <<<"$body"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# Metrics mode prints no retransmit lines without --print.
	[ ! -s "$OUT" ]
}

# family_only OPTION IP: tcpretrans OPTION while an IPv4 and an IPv6
# connection stall at once shows the one of family IP (4 or 6) only.
family_only() {
	start_tool tcpretrans -j "$1" -c "$COMM"
	local v4
	stall_bg "$COMM" 127.0.0.1 "$BATS_TEST_TMPDIR/stall4"
	v4=$!
	stall_bg "$COMM" ::1 "$BATS_TEST_TMPDIR/stall6"
	wait "$v4" "$!"
	stall_ports "$BATS_TEST_TMPDIR/stall$2"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson ip "$2" --argjson cp "$CPORT" '
		map(select(.type == null)) |
		any(.sport == $cp) and all(.ip == $ip)
	' "$OUT"
}

@test "tcpretrans: -4 and -6 show their family only" {
	require_ipv6
	make_netns
	drop_rule "meta length > 500"
	family_only -4 4
	family_only -6 6
}

@test "tcpretrans: --cgroup shows a child cgroup's sockets, no sibling's" {
	local root other sibling
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no cgroup v2 mounted"
	make_netns
	drop_rule "meta length > 500"
	CGPARENT=$root/bpfkit-test-$$-$RANDOM
	mkdir -p "$CGPARENT/child" "$CGPARENT-sibling"
	# The sibling's retransmits, seen by a second instance without
	# --cgroup: it did retransmit.
	other=$BATS_TEST_TMPDIR/other
	"$BIN/tcpretrans" -j -c "$COMM" >"$other" 2>&1 &
	OTHER_PID=$!
	start_tool tcpretrans -j --cgroup "$CGPARENT" -c "$COMM"
	wait_for "$other" 'tracing; hit Ctrl-C' 10
	stall_bg "$COMM" 127.0.0.1 "$BATS_TEST_TMPDIR/sibling" "$CGPARENT-sibling"
	sibling=$!
	stall_bg "$COMM" 127.0.0.1 "$BATS_TEST_TMPDIR/child" "$CGPARENT/child"
	wait "$!"
	stall_ports "$BATS_TEST_TMPDIR/child"
	wait_for "$OUT" "\"sport\":$CPORT," 5
	stop_tool
	stall_ports "$BATS_TEST_TMPDIR/sibling"
	wait_for "$other" "\"sport\":$CPORT," 5
	kill -INT "$OTHER_PID"
	wait "$OTHER_PID" "$sibling"
	[ "$TOOL_STATUS" = 0 ]
	stall_ports "$BATS_TEST_TMPDIR/child"
	grep -q "\"sport\":$CPORT," "$OUT"
	stall_ports "$BATS_TEST_TMPDIR/sibling"
	refute grep -Eq "\"(sport|dport)\":$CPORT," "$OUT"
}

@test "tcpretrans: a bad option exits 2 with one line and no output" {
	run --separate-stderr "$BIN/tcpretrans" --bogus
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}
