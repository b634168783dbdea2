#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, network: binds, connects, accepts and sessions on loopback
# by tcp-trigger and bind-trigger, each with the pids, addresses, ports
# and byte counts the helper reports; retransmits and drops in a network
# namespace of the test's own where an nftables rule drops packets.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load ../integration/tcp
load helpers

@test "bindsnoop: IPv4, IPv6 and UDP binds and a taken port, with the ports bound" {
	comm=$(unique_comm)
	launch bindsnoop -j -c "$comm"
	run "$HELPERS/bind-trigger" "$comm"
	[ "$status" = 0 ]
	while read -r name port ret; do
		printf -v "PORT_$name" %s "$port"
	done < <(printf '%s\n' "${lines[@]:1}")
	await "$OUT" '"EADDRINUSE"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson pid "${lines[0]}" --argjson t4 "$PORT_tcp4" \
		--argjson t6 "$PORT_tcp6" --argjson u4 "$PORT_udp4" '
		map(select(has("pid"))) | length == 4 and all(.pid == $pid) and
		(.[0] | .family == "INET" and .proto == "TCP" and
			.addr == "127.0.0.1" and .bound_port == $t4 and .reuseaddr) and
		(.[1] | .family == "INET6" and .addr == "::1" and
			.bound_port == $t6 and .reuseport) and
		(.[2] | .proto == "UDP" and .bound_port == $u4) and
		(.[3] | .port == $t4 and .bound_port == 0 and .errno == 98)'
}

@test "tcpconnect: an established and a refused loopback connect, with pid and ports (#31: 6.1-rt's longer trace_entry)" {
	COMM=$(unique_comm)
	launch tcpconnect -j -c "$COMM"
	trigger "$COMM" connect 127.0.0.1
	read -r _ sport dport <<<"$(grep '^established ' <<<"$LINES")"
	read -r _ closed errno <<<"$(grep '^refused ' <<<"$LINES")"
	[ "$errno" = 111 ]
	await "$OUT" '"refused"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$PID" --argjson sp "$sport" --argjson dp "$dport" \
		--argjson cl "$closed" '
		map(select(has("pid"))) | length == 2 and
		all(.pid == $p and .ip == 4 and .saddr == "127.0.0.1" and
			.daddr == "127.0.0.1") and
		(.[0] | .sport == $sp and .dport == $dp and
			.result == "established") and
		(.[1] | .dport == $cl and .result == "refused" and .errno == 111)'
}

@test "tcpaccept: the accepting pid, the listener's port and the peer's" {
	COMM=$(unique_comm)
	launch tcpaccept -j -c "$COMM"
	trigger "$COMM" session 127.0.0.1 10 10 0
	read -r _ client server cport sport _ <<<"$LINES"
	await "$OUT" "\"pid\":$server," 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson s "$server" --argjson cp "$cport" --argjson sp "$sport" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $s and .ip == 4 and .saddr == "127.0.0.1" and
			.sport == $sp and .daddr == "127.0.0.1" and .dport == $cp)'
}

@test "tcpconnlat: a loopback connect's latency with pid and ports (#31: 6.1-rt's longer trace_entry)" {
	COMM=$(unique_comm)
	launch tcpconnlat -j -c "$COMM"
	trigger "$COMM" connect 127.0.0.1
	read -r _ sport dport <<<"$(grep '^established ' <<<"$LINES")"
	await "$OUT" "\"pid\":$PID," 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$PID" --argjson sp "$sport" --argjson dp "$dport" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $p and .saddr == "127.0.0.1" and .sport == $sp and
			.daddr == "127.0.0.1" and .dport == $dp and .ms >= 0)'
}

@test "tcplife: a session's exact bytes each way, both ends' pids and ports (#31: 6.1-rt's longer trace_entry)" {
	COMM=$(unique_comm)
	launch tcplife -j -c "$COMM"
	trigger "$COMM" session 127.0.0.1 123456 654321 0
	read -r _ client server cport sport _ <<<"$LINES"
	await "$OUT" "\"pid\":$server," 5
	await "$OUT" "\"pid\":$client," 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson c "$client" --argjson s "$server" \
		--argjson cp "$cport" --argjson sp "$sport" '
		map(select(has("pid"))) | length == 2 and
		all(.ip == 4 and .saddr == "127.0.0.1" and .daddr == "127.0.0.1") and
		(map(select(.pid == $c)) | length == 1 and (.[0] | .sport == $cp and
			.dport == $sp and .tx_bytes == 123456 and
			.rx_bytes == 654321)) and
		(map(select(.pid == $s)) | length == 1 and (.[0] | .sport == $sp and
			.dport == $cp and .tx_bytes == 654321 and
			.rx_bytes == 123456))'
}

@test "tcpstates: a client socket's states, SYN_SENT to CLOSE, with pid and ports (#31: 6.1-rt's longer trace_entry)" {
	COMM=$(unique_comm)
	port=$((20000 + RANDOM % 12000))
	launch tcpstates -j -D "$port"
	trigger "$COMM" session 127.0.0.1 1000 2000 0 "$port"
	read -r _ client _ cport _ <<<"$LINES"
	await "$OUT" '"oldstate":"FIN_WAIT2","newstate":"CLOSE"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson c "$client" --arg comm "$COMM" --argjson cp "$cport" \
		--argjson p "$port" '
		map(select(has("skaddr"))) |
		map(.newstate) == ["SYN_SENT", "ESTABLISHED", "FIN_WAIT1",
			"FIN_WAIT2", "CLOSE"] and
		all(.pid == $c and .comm == $comm and .ip == 4 and
			.saddr == "127.0.0.1" and .daddr == "127.0.0.1" and
			.dport == $p) and
		all(.[1:][]; .sport == $cp)'
}

@test "tcpretrans: a retransmit into a drop rule, with the ports, state and pid (#31: 6.1-rt's longer trace_entry)" {
	COMM=$(unique_comm)
	make_netns
	drop_rule "tcp dport 1"
	launch tcpretrans -j -c "$COMM"
	coproc STALL { ip netns exec "$NETNS" "$HELPERS/tcp-trigger" "$COMM" stall 127.0.0.1; }
	JOBS+=" $STALL_PID"
	read -r pid <&"${STALL[0]}"
	read -r _ cport port <&"${STALL[0]}"
	ip netns exec "$NETNS" nft add rule inet bkdrop in tcp dport "$port" drop
	echo go >&"${STALL[1]}"
	await "$OUT" "\"sport\":$cport,.*\"dport\":$port,.*\"ESTABLISHED\"" 5
	wait "$STALL_PID" || true
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$pid" --argjson cp "$cport" --argjson port "$port" '
		map(select(.sport == $cp and .dport == $port and
			.state == "ESTABLISHED")) | length >= 1 and
		all(.pid == $p and .ip == 4 and .saddr == "127.0.0.1" and
			.daddr == "127.0.0.1")'
}

@test "tcpdrop: SYNs an nftables rule drops, with ports, SYN and (from 5.17) NETFILTER_DROP; -R refused before" {
	COMM=$(unique_comm)
	port=$((20000 + RANDOM % 20000))
	make_netns
	drop_rule "tcp dport $port"
	launch tcpdrop -j
	ip netns exec "$NETNS" "$HELPERS/tcp-trigger" "$COMM" dial 127.0.0.1 \
		"$port" 1 >"$BATS_TEST_TMPDIR/dial"
	[ "$(tail -1 "$BATS_TEST_TMPDIR/dial")" = "dial 0 110" ]
	await "$OUT" "\"dport\":$port," 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson port "$port" '
		map(select(.dport == $port)) | length >= 2 and
		(map(.sport) | unique | length == 1) and
		all(.proto == "TCP" and .ip == 4 and .saddr == "127.0.0.1" and
			.daddr == "127.0.0.1" and .tcpflags == "SYN")'
	# Drop reasons: the kernel's own tracepoint says whether it has them.
	if grep -q 'field:.* reason;' /sys/kernel/tracing/events/skb/kfree_skb/format; then
		check_out --argjson port "$port" '
			map(select(.dport == $port)) | all(.reason == "NETFILTER_DROP")'
	fi
	if refused tcpdrop -R NETFILTER_DROP; then
		refusal tcpdrop -R NETFILTER_DROP
	fi
}
