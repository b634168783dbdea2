#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, issue 35's network tools: listens, round-trip times and
# top flows on loopback, made by tcp-trigger, with the pids, ports, backlog
# and byte counts the helper reports.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load ../integration/tcp
load helpers

@test "solisten: a listen with backlog 17 on its port and a pipe's ENOTSOCK, with the pid" {
	COMM=$(unique_comm)
	port=$((20000 + RANDOM % 20000))
	launch solisten -j -c "$COMM"
	trigger "$COMM" listen 127.0.0.1 "$port" 17
	read -r _ fd got <<<"$(grep '^listen ' <<<"$LINES")"
	[ "$got" = "$port" ]
	await "$OUT" '"ENOTSOCK"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$PID" --argjson fd "$fd" --argjson port "$port" '
		map(select(has("pid"))) | length == 2 and all(.pid == $p) and
		(.[0] | .ret == 0 and .fd == $fd and .backlog == 17 and
			.proto == "TCP" and .ip == 4 and .addr == "127.0.0.1" and
			.port == $port) and
		(.[1] | .errno == 88 and .backlog == 17 and (has("port") | not))'
}

@test "tcprtt: a loopback session's RTT samples, by the two sockets' ports (5.10's tcp_probe has no family)" {
	COMM=$(unique_comm)
	port=$((20000 + RANDOM % 20000))
	launch tcprtt -j --by lport,rport,raddr
	trigger "$COMM" session 127.0.0.1 100000 200000 0 "$port"
	read -r _ _ _ cport _ <<<"$LINES"
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson c "$cport" --argjson s "$port" '
		map(select(.lport == $c or .rport == $c)) |
		length == 2 and
		all(.ip == 4 and .raddr == "127.0.0.1" and .count >= 1 and
			([.buckets[].count] | add) == .count) and
		(map(select(.lport == $c and .rport == $s)) | length == 1) and
		(map(select(.lport == $s and .rport == $c)) | length == 1)'
}

@test "tcptop: a session's exact bytes each way under each end's pid (6.3+: sock tracepoints; before: the syscalls)" {
	COMM=$(unique_comm)
	launch tcptop -j -c "$COMM" 600
	trigger "$COMM" session 127.0.0.1 123456 654321 0
	read -r _ client server cport sport _ <<<"$LINES"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson c "$client" --argjson s "$server" \
		--argjson cp "$cport" --argjson sp "$sport" '
		map(.flows[]) | length == 2 and
		all(.ip == 4 and .saddr == "127.0.0.1" and .daddr == "127.0.0.1") and
		(map(select(.pid == $c)) | length == 1 and (.[0] | .sport == $cp and
			.dport == $sp and .tx_bytes == 123456 and
			.rx_bytes == 654321)) and
		(map(select(.pid == $s)) | length == 1 and (.[0] | .sport == $sp and
			.dport == $cp and .tx_bytes == 654321 and
			.rx_bytes == 123456))'
}
