#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcpretrans: in a network namespace of the test's own, a connection on
# its loopback is established, then an nftables rule drops what goes to
# the server's port and the client sends: the kernel retransmits, and each
# retransmit shows with the client's ports, state ESTABLISHED and the
# client's pid (its connect named it); -j; SKIP without nftables.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
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

@test "tcpretrans: a bad option exits 2 with one line and no output" {
	run --separate-stderr "$BIN/tcpretrans" --bogus
	[ "$status" = 2 ] && [ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}
