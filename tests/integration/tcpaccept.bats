#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcpaccept: a forked server accepts a loopback connection; the line has
# the accepting process's pid (not the client's, whose packets run the
# handshake's softirq), the listener's address and port and the peer's
# port; IPv4, IPv6 and IPv4-mapped IPv6 (shown as IPv4); -P, -6, -j.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
}

# session ADDR [PORT]: a session; sets CLIENT, SERVER, CPORT and SPORT.
session() {
	trigger "$COMM" session "$1" 10 10 0 ${2:+"$2"}
	read -r _ CLIENT SERVER CPORT SPORT _ <<<"$LINES"
}

@test "tcpaccept: the accepting pid, the listener's port and the peer's, IPv4 and IPv6" {
	require_ipv6
	start_tool tcpaccept -c "$COMM"
	session 127.0.0.1
	S4=$SERVER C4=$CPORT P4=$SPORT
	session ::1
	S6=$SERVER C6=$CPORT P6=$SPORT
	session ::ffff:127.0.0.1
	wait_for "$OUT" "^$SERVER " 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +IP +LADDR +LPORT +RADDR +RPORT$'
	row() { printf '%-7s %-15s %-2s %-25s %5s %-25s %5s' "$@"; }
	[ "$(sed -n 2p "$OUT")" = "$(row "$S4" "$COMM" 4 127.0.0.1 "$P4" 127.0.0.1 "$C4")" ]
	[ "$(sed -n 3p "$OUT")" = "$(row "$S6" "$COMM" 6 ::1 "$P6" ::1 "$C6")" ]
	[ "$(sed -n 4p "$OUT")" = "$(row "$SERVER" "$COMM" 4 127.0.0.1 "$SPORT" 127.0.0.1 "$CPORT")" ]
	[ "$(wc -l <"$OUT")" = 4 ]
	grep -Eq '^tcpaccept: 3 events, 0 lost$' "$ERR"
}

@test "tcpaccept: -P keeps the ports named; -6 -j carries every field" {
	require_ipv6
	local port=$((20000 + RANDOM % 12000))
	start_tool tcpaccept -j -6 -P "1,$port" -c "$COMM"
	session 127.0.0.1 "$port"
	session ::1
	session ::1 "$port"
	wait_for "$OUT" "\"pid\":$SERVER," 5
	sleep 0.2
	stop_tool
	jq -es --argjson s "$SERVER" --arg c "$COMM" --argjson cp "$CPORT" \
		--argjson p "$port" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $s and .tid == $s and .uid == 0 and
			.comm == $c and (.fd | type == "number" and . >= 0) and
			.ip == 6 and .saddr == "::1" and .sport == $p and
			.daddr == "::1" and .dport == $cp)
	' "$OUT"
}

@test "tcpaccept: a bad port list exits 2 with one line and no output" {
	run --separate-stderr "$BIN/tcpaccept" -P 99999
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}
