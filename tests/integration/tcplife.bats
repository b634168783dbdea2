#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcplife: a session on loopback that sends exactly 123456 bytes and
# receives 654321, then sleeps before closing, shows those byte counts on
# the client's side and the reverse on the server's (a forked process of
# its own), each with its pid and ports, and a duration no shorter than the
# sleep and within 20% of it of the session's life as the client measured
# it; IPv4 and IPv6; -L/-D, -p and -j.

bats_require_minimum_version 1.5.0
load helpers
load tcp

SLEEP_MS=500

setup() {
	require_root
	COMM=$(unique_comm)
}

# session ADDR: tcp-trigger's session mode on ADDR; sets CLIENT, SERVER,
# CPORT, SPORT and ELAPSED (ms, connect to close as the client saw it).
session() {
	trigger "$COMM" session "$1" 123456 654321 "$SLEEP_MS"
	read -r _ CLIENT SERVER CPORT SPORT ELAPSED <<<"$LINES"
}

# check_duration MS: no shorter than the sleep, within 20% of the sleep
# from the session's measured life.
check_duration() {
	awk -v ms="$1" -v sleep="$SLEEP_MS" -v life="$ELAPSED" 'BEGIN {
		d = ms - life; if (d < 0) d = -d
		exit !(ms >= sleep && d <= 0.2 * sleep)
	}' || { echo "# duration $1 ms: sleep $SLEEP_MS, life $ELAPSED" >&3; false; }
}

# check_sessions IP ADDR: the two lines of the last session, in $OUT.
check_sessions() {
	local client server
	client=$(grep -E "^$CLIENT +$COMM +$1 +$2 +$CPORT +$2 +$SPORT +123456 +654321 +[0-9.]+$" "$OUT")
	server=$(grep -E "^$SERVER +$COMM +$1 +$2 +$SPORT +$2 +$CPORT +654321 +123456 +[0-9.]+$" "$OUT")
	check_duration "${client##* }"
	check_duration "${server##* }"
}

@test "tcplife: a session's bytes each way, pids, ports and duration, IPv4 and IPv6" {
	require_ipv6
	start_tool tcplife -c "$COMM"
	session 127.0.0.1
	wait_for "$OUT" "^$SERVER " 5
	check_sessions 4 127.0.0.1
	session ::1
	wait_for "$OUT" "^$SERVER " 5
	check_sessions 6 ::1
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +IP +LADDR +LPORT +RADDR +RPORT +TX_BYTES +RX_BYTES +MS$'
	[ "$(wc -l <"$OUT")" = 5 ]
	grep -Eq '^tcplife: 4 events, 0 lost$' "$ERR"
}

@test "tcplife: -L keeps the server's side, -D the client's; -j carries every field" {
	local port=$((20000 + RANDOM % 12000))
	start_tool tcplife -j -c "$COMM" -L "$port"
	trigger "$COMM" session 127.0.0.1 123456 654321 0 "$port"
	read -r _ CLIENT SERVER CPORT SPORT ELAPSED <<<"$LINES"
	[ "$SPORT" = "$port" ]
	wait_for "$OUT" "\"pid\":$SERVER," 5
	sleep 0.2
	stop_tool
	jq -es --argjson s "$SERVER" --arg comm "$COMM" \
		--argjson cp "$CPORT" --argjson sp "$SPORT" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $s and .uid == 0 and .comm == $comm and
			.ip == 4 and .saddr == "127.0.0.1" and .sport == $sp and
			.daddr == "127.0.0.1" and .dport == $cp and
			.tx_bytes == 654321 and .rx_bytes == 123456 and
			(.ms | type == "number"))
	' "$OUT"
	start_tool tcplife -j -c "$COMM" -D "1,$port"
	trigger "$COMM" session 127.0.0.1 123456 654321 0 "$port"
	read -r _ CLIENT SERVER CPORT SPORT ELAPSED <<<"$LINES"
	wait_for "$OUT" "\"pid\":$CLIENT," 5
	sleep 0.2
	stop_tool
	jq -es --argjson c "$CLIENT" --argjson sp "$SPORT" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $c and .dport == $sp and
			.tx_bytes == 123456 and .rx_bytes == 654321)
	' "$OUT"
}

@test "tcplife: -p keeps one process's sessions: the client's, not its forked server's" {
	mkfifo "$BATS_TEST_TMPDIR/go"
	# The subshell becomes tcp-trigger: its pid is known before it runs.
	(
		read -r _ <"$BATS_TEST_TMPDIR/go"
		exec "$HELPERS/tcp-trigger" "$COMM" session 127.0.0.1 1000 2000 0
	) >"$BATS_TEST_TMPDIR/trigger" &
	local pid=$!
	start_tool tcplife -p "$pid"
	echo go >"$BATS_TEST_TMPDIR/go"
	wait "$pid"
	read -r _ CLIENT SERVER CPORT SPORT ELAPSED < <(tail -1 "$BATS_TEST_TMPDIR/trigger")
	[ "$CLIENT" = "$pid" ]
	wait_for "$OUT" "^$pid " 5
	sleep 0.2
	stop_tool
	[ "$(wc -l <"$OUT")" = 2 ]
	grep -Eq "^$pid +$COMM +4 +127\.0\.0\.1 +$CPORT +127\.0\.0\.1 +$SPORT +1000 +2000 " "$OUT"
}

@test "tcplife: a bad port list exits 2 with one line and no output" {
	run --separate-stderr "$BIN/tcplife" -L 0
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
	grep -q "invalid -L/--localport '0'" <<<"$stderr"
}
