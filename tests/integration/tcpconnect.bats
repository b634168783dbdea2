#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcpconnect: a helper connects on loopback to a listener (established) and
# to a port nothing listens on (refused), over IPv4 and IPv6, and in a
# network namespace of the test's own to a port whose SYNs a drop rule eats
# (timeout); each arrives with the connecting pid, ports and result; -x,
# -P, -4/-6, -U, -C, --metrics and -j.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
}

# connects ADDR: tcp-trigger's connect mode on ADDR; sets PID, SPORT and
# DPORT (established) and CLOSED (the refused port).
connects() {
	trigger "$COMM" connect "$1"
	read -r _ SPORT DPORT <<<"$(grep '^established ' <<<"$LINES")"
	read -r _ CLOSED ERRNO <<<"$(grep '^refused ' <<<"$LINES")"
	[ "$ERRNO" = 111 ]
}

# row IP SADDR SPORT DADDR DPORT RESULT: a line as tcpconnect prints it.
row() {
	printf '%-7s %-15s %-2s %-25s %5s %-25s %5s %s' "$PID" "$COMM" "$@"
}

@test "tcpconnect: established and refused over IPv4 and IPv6, with pid and ports" {
	require_ipv6
	start_tool tcpconnect -c "$COMM"
	connects 127.0.0.1
	PID4=$PID SPORT4=$SPORT DPORT4=$DPORT CLOSED4=$CLOSED
	connects ::1
	wait_for "$OUT" "^$PID .* $CLOSED refused$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +IP +SADDR +SPORT +DADDR +DPORT +RESULT$'
	[ "$(sed -n 2p "$OUT")" = "$(PID=$PID4 row 4 127.0.0.1 "$SPORT4" 127.0.0.1 "$DPORT4" established)" ]
	sed -n 3p "$OUT" | grep -Eq "^$PID4 +$COMM +4 +127\.0\.0\.1 +[0-9]+ 127\.0\.0\.1 +$CLOSED4 refused$"
	[ "$(sed -n 4p "$OUT")" = "$(row 6 ::1 "$SPORT" ::1 "$DPORT" established)" ]
	sed -n 5p "$OUT" | grep -Eq "^$PID +$COMM +6 +::1 +[0-9]+ ::1 +$CLOSED refused$"
	[ "$(wc -l <"$OUT")" = 5 ]
	grep -Eq '^tcpconnect: 4 events, 0 lost$' "$ERR"
}

@test "tcpconnect: -x keeps the refused connect, -j carries every field" {
	start_tool tcpconnect -x -j -c "$COMM"
	connects 127.0.0.1
	wait_for "$OUT" '"refused"' 5
	stop_tool
	jq -es --argjson p "$PID" --arg c "$COMM" --argjson port "$CLOSED" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $p and .tid == $p and .uid == 0 and
			.comm == $c and .ip == 4 and .saddr == "127.0.0.1" and
			.daddr == "127.0.0.1" and .dport == $port and
			(.sport | type == "number" and . > 0) and
			.result == "refused" and .errno == 111 and
			.error == "ECONNREFUSED")
	' "$OUT"
}

@test "tcpconnect: IPv4-mapped IPv6 shows as IPv4 and passes -4; -6 leaves it out" {
	require_ipv6
	start_tool tcpconnect -4 -j -c "$COMM"
	connects ::ffff:127.0.0.1
	connects ::1
	wait_for "$OUT" '"refused"' 5
	sleep 0.2
	stop_tool
	jq -es '
		map(select(has("pid"))) | length == 2 and
		all(.ip == 4 and .saddr == "127.0.0.1" and .daddr == "127.0.0.1")
	' "$OUT"
	start_tool tcpconnect -6 -j -c "$COMM"
	connects ::ffff:127.0.0.1
	connects ::1
	wait_for "$OUT" '"refused"' 5
	stop_tool
	jq -es --argjson port "$CLOSED" '
		map(select(has("pid"))) | length == 2 and
		all(.ip == 6 and .daddr == "::1") and .[1].dport == $port
	' "$OUT"
}

@test "tcpconnect: -P keeps the ports named, -U adds the uid" {
	start_tool tcpconnect -U -P 1 -c "$COMM"
	trigger "$COMM" dial 127.0.0.1 1 0
	wait_for "$OUT" "^$PID .* 1 refused$" 5
	connects 127.0.0.1
	sleep 0.2
	stop_tool
	head -1 "$OUT" | grep -Eq '^PID +COMM +UID +IP +SADDR'
	[ "$(wc -l <"$OUT")" = 2 ]
	grep -Eq "^[0-9]+ +$COMM +0 +4 +127\.0\.0\.1 +[0-9]+ 127\.0\.0\.1 +1 refused$" "$OUT"
}

@test "tcpconnect: a connect whose SYNs are dropped (namespace, nftables) times out" {
	make_netns
	drop_rule "tcp dport 9"
	start_tool tcpconnect -c "$COMM"
	# One SYN retry: the kernel gives up after about 3 s.
	trigger "$COMM" dial 127.0.0.1 9 1
	[ "$LINES" = "dial 0 110" ]
	wait_for "$OUT" "^$PID .* 9 timeout$" 5
	stop_tool
	grep -Eq "^$PID +$COMM +4 +127\.0\.0\.1 +[0-9]+ 127\.0\.0\.1 +9 timeout$" "$OUT"
}

@test "tcpconnect: -C counts connects per destination at exit" {
	start_tool tcpconnect -C -c "$COMM"
	connects 127.0.0.1
	first=$DPORT
	connects 127.0.0.1
	trigger "$COMM" dial 127.0.0.1 "$CLOSED" 0
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^DADDR +DPORT +CONNECTS +FAILED$'
	grep -Eq "^127\.0\.0\.1 +$first +1 +0$" "$OUT"
	grep -Eq "^127\.0\.0\.1 +$DPORT +1 +0$" "$OUT"
	grep -Eq "^127\.0\.0\.1 +$CLOSED +2 +2$" "$OUT"
	grep -Eq '^tcpconnect: 5 events, 0 lost$' "$ERR"
}

@test "tcpconnect: --metrics serves connects and failed connects per destination" {
	local port body i
	port=$(free_port)
	start_tool tcpconnect --metrics "127.0.0.1:$port" -c "$COMM"
	connects 127.0.0.1
	trigger "$COMM" dial 127.0.0.1 "$CLOSED" 0
	# Both refusals are counted once the second one's record is read.
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		body=$(scrape "$port")
		grep -qx "bpfkit_tcpconnect_connects_total{daddr=\"127.0.0.1\",dport=\"$CLOSED\"} 2" <<<"$body" && break
		sleep 0.2
	done
	grep -qx "bpfkit_tcpconnect_connects_total{daddr=\"127.0.0.1\",dport=\"$CLOSED\"} 2" <<<"$body"
	grep -qx "bpfkit_tcpconnect_failed_connects_total{daddr=\"127.0.0.1\",dport=\"$CLOSED\"} 2" <<<"$body"
	grep -qx "bpfkit_tcpconnect_connects_total{daddr=\"127.0.0.1\",dport=\"$DPORT\"} 1" <<<"$body"
	grep -qx "bpfkit_tcpconnect_failed_connects_total{daddr=\"127.0.0.1\",dport=\"$DPORT\"} 0" <<<"$body"
	[ "$(grep -c '^bpfkit_tcpconnect_connects_total{' <<<"$body")" = 2 ]
	grep -qx 'bpfkit_events_total 3' <<<"$body"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# Metrics mode prints no connect lines without --print.
	[ ! -s "$OUT" ]
}

@test "tcpconnect: -4 with -6, a bad port list: one line, exit 2" {
	run --separate-stderr "$BIN/tcpconnect" -4 -6
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "tcpconnect: -4 and -6 exclude each other; give one (neither traces both)" ]
	run --separate-stderr "$BIN/tcpconnect" -P 80,http
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
	grep -q "invalid -P/--port '80,http'" <<<"$stderr"
}
