#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcpstates: one loopback session on a port of the test's choosing shows
# the full sequence of its sockets: the listener, the server's (LISTEN ->
# SYN_RECV ... LAST_ACK -> CLOSE, its process from its close) and the
# client's (CLOSE -> SYN_SENT ... FIN_WAIT2 -> CLOSE, its process from its
# connect), with the time spent in ESTABLISHED no shorter than the sleep
# the client made there; -L, -D, -j.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
	PORT=$((20000 + RANDOM % 12000))
}

# session ADDR: a session to $PORT that sleeps 300 ms before the client
# closes; sets CLIENT, SERVER and CPORT.
session() {
	trigger "$COMM" session "$1" 1000 2000 300 "$PORT"
	read -r _ CLIENT SERVER CPORT _ <<<"$LINES"
}

# changes FILE PATTERN: "OLD NEW" per line of FILE matching PATTERN.
changes() {
	grep -E "$2" "$1" | awk '{ print $(NF-2), $(NF-1) }' | tr '\n' ' '
}

@test "tcpstates: the full sequence of one connection, client and server side" {
	start_tool tcpstates -L "$PORT"
	session 127.0.0.1
	# Both sockets closed before the server exited, and tcp-trigger
	# waited for that: their lines may come in either order.
	wait_for "$OUT" " LAST_ACK +CLOSE " 5
	wait_for "$OUT" " LISTEN +CLOSE " 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^SKADDR +PID +COMM +IP +LADDR +LPORT +RADDR +RPORT +OLDSTATE +NEWSTATE +MS$'
	# Sockets by address: the listener's, and the accepted one's (whose
	# first change, LISTEN -> SYN_RECV, has no remote address yet on 6.1).
	listener=$(awk '$(NF-2) == "CLOSE" && $(NF-1) == "LISTEN" { print $1 }' "$OUT")
	accepted=$(awk '$(NF-2) == "SYN_RECV" && $(NF-1) == "ESTABLISHED" { print $1 }' "$OUT")
	# The listener: in listen(2) of the client (the server is forked
	# after listen), so the client's pid.
	[ "$(changes "$OUT" "^$listener ")" = "CLOSE LISTEN LISTEN CLOSE " ]
	grep -Eq "^$listener +$CLIENT +$COMM +4 +127\.0\.0\.1 +$PORT +0\.0\.0\.0 +0 +CLOSE +LISTEN +-$" "$OUT"
	# The accepted socket: its process from LAST_ACK on.
	[ "$(changes "$OUT" "^$accepted ")" = "LISTEN SYN_RECV SYN_RECV ESTABLISHED ESTABLISHED CLOSE_WAIT CLOSE_WAIT LAST_ACK LAST_ACK CLOSE " ]
	grep -Eq "^$accepted +$SERVER +$COMM +4 +127\.0\.0\.1 +$PORT +127\.0\.0\.1 +$CPORT +LAST_ACK +CLOSE +[0-9.]+$" "$OUT"
	grep -Eq "^$accepted +- +- +4 .* $CPORT +SYN_RECV +ESTABLISHED +[0-9.]+$" "$OUT"
	# ESTABLISHED lasted the client's sleep at least.
	ms=$(grep -E " ESTABLISHED +CLOSE_WAIT " "$OUT" | awk '{ print $NF }')
	awk -v ms="$ms" 'BEGIN { exit !(ms >= 300) }'

	start_tool tcpstates -D "$PORT"
	session 127.0.0.1
	wait_for "$OUT" " FIN_WAIT2 +CLOSE " 5
	stop_tool
	[ "$(changes "$OUT" " $PORT [A-Z]")" = "CLOSE SYN_SENT SYN_SENT ESTABLISHED ESTABLISHED FIN_WAIT1 FIN_WAIT1 FIN_WAIT2 FIN_WAIT2 CLOSE " ]
	grep -Eq "^[0-9a-f]+ +$CLIENT +$COMM +4 +127\.0\.0\.1 +$CPORT +127\.0\.0\.1 +$PORT +SYN_SENT +ESTABLISHED +[0-9.]+$" "$OUT"
	[ "$(grep -c " $CLIENT  *$COMM " "$OUT")" = 5 ]
	ms=$(grep -E " ESTABLISHED +FIN_WAIT1 " "$OUT" | awk '{ print $NF }')
	awk -v ms="$ms" 'BEGIN { exit !(ms >= 300) }'
}

@test "tcpstates: -j over IPv6: addresses as strings, ports as numbers, states by name" {
	require_ipv6
	start_tool tcpstates -j -D "$PORT"
	session ::1
	wait_for "$OUT" '"oldstate":"FIN_WAIT2","newstate":"CLOSE"' 5
	stop_tool
	jq -es --argjson c "$CLIENT" --arg comm "$COMM" --argjson cp "$CPORT" \
		--argjson p "$PORT" '
		map(select(has("skaddr"))) | length == 5 and
		(map(.newstate) == ["SYN_SENT", "ESTABLISHED", "FIN_WAIT1",
			"FIN_WAIT2", "CLOSE"]) and
		(.[0] | has("ms") | not) and
		all(.pid == $c and .comm == $comm and .ip == 6 and
			.saddr == "::1" and .daddr == "::1" and .dport == $p) and
		all(.[1:][]; .sport == $cp and (.ms | type == "number")) and
		(map(.skaddr) | unique | length == 1)
	' "$OUT"
}

@test "tcpstates: a bad port list exits 2 with one line and no output" {
	run --separate-stderr "$BIN/tcpstates" -D 1,x
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}

@test "tcpstates: inet_sock_set_state's format has the layout the TCP tools read without CO-RE" {
	# include/bpfkit/net.bpf.h declares the tracepoint's context at these
	# offsets and sizes (struct bpfkit_sock_state_ctx) instead of
	# relocating vmlinux.h's type.
	format_has sock/inet_sock_set_state \
		'const void * skaddr;	offset:8;	size:8;' \
		'int oldstate;	offset:16;	size:4;' \
		'int newstate;	offset:20;	size:4;' \
		'__u16 sport;	offset:24;	size:2;' \
		'__u16 dport;	offset:26;	size:2;' \
		'__u16 family;	offset:28;	size:2;' \
		'__u16 protocol;	offset:30;	size:2;' \
		'__u8 saddr[4];	offset:32;	size:4;' \
		'__u8 daddr[4];	offset:36;	size:4;' \
		'__u8 saddr_v6[16];	offset:40;	size:16;' \
		'__u8 daddr_v6[16];	offset:56;	size:16;'
}
