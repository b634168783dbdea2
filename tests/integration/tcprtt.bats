#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcprtt: a loopback session (tcp-trigger) gives RTT samples on both of
# its sockets, keyed by their ports (--by lport,rport), and none for the
# other family (-6); -D keeps the client's socket only; through a veth
# pair between two namespaces of the test's own whose sending side netem
# delays by 20 ms (SKIP where the kernel has no netem), every sample is at
# least 20 ms; --metrics; bad input.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
	PORT=$((20000 + RANDOM % 20000))
}

# session: a loopback session of 100000 bytes out, 200000 back on PORT;
# sets CPORT, the client's port.
session() {
	trigger "$COMM" session 127.0.0.1 100000 200000 0 "$PORT"
	read -r _ _ _ CPORT _ <<<"$LINES"
	[ -n "$CPORT" ]
}

@test "tcprtt: a loopback session's two sockets have RTT samples, by port" {
	start_tool tcprtt -j --by lport,rport
	session
	sleep 0.2
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson c "$CPORT" --argjson s "$PORT" '
		map(select(.lport == $c or .rport == $c)) as $h |
		($h | length == 2) and
		($h | map(select(.lport == $c and .rport == $s)) | length == 1) and
		($h | map(select(.lport == $s and .rport == $c)) | length == 1) and
		all($h[]; .count >= 1 and .unit == "usecs" and
			([.buckets[].count] | add) == .count and .avg > 0)
	' "$OUT"
}

@test "tcprtt: -D keeps the client's socket, -6 neither of an IPv4 session" {
	start_tool tcprtt -j -D "$PORT" --by lport,rport,raddr
	session
	sleep 0.2
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson c "$CPORT" --argjson s "$PORT" '
		length == 1 and (.[0] | .lport == $c and .rport == $s and
			.ip == 4 and .raddr == "127.0.0.1" and .count >= 1)
	' "$OUT"
	start_tool tcprtt -j -6 -L "$PORT"
	session
	sleep 0.2
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es 'length == 1 and .[0].count == 0' "$OUT"
}

@test "tcprtt: through a veth whose sender netem delays by 20 ms, every sample at least 20 ms" {
	make_veth
	netem_delay 20
	ip netns exec "$PEERNS" "$HELPERS/tcp-trigger" "$COMM" sink 10.231.0.2 8080 \
		>"$BATS_TEST_TMPDIR/sink" &
	sink=$!
	wait_for "$BATS_TEST_TMPDIR/sink" '^sink 8080$' 5
	start_tool tcprtt -j -m -D 8080 -A 10.231.0.2
	trigger "$COMM" send 10.231.0.2 8080 200000
	wait_for "$BATS_TEST_TMPDIR/sink" '^sunk 200000$' 10
	wait "$sink"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es '
		length == 1 and (.[0] | .unit == "msecs" and .count >= 1 and
			.sum / .count >= 20 and
			all(.buckets[] | select(.count > 0); .min >= 16))
	' "$OUT"
}

@test "tcprtt: --metrics serves the histogram of the samples" {
	local port body i
	port=$(free_port)
	start_tool tcprtt --metrics "127.0.0.1:$port" -L "$PORT"
	session
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		body=$(scrape "$port")
		grep -Eq '^bpfkit_tcprtt_rtt_seconds_count [1-9]' <<<"$body" && break
		sleep 0.2
	done
	grep -Eq '^bpfkit_tcprtt_rtt_seconds_count [1-9][0-9]*$' <<<"$body"
	grep -Eq '^bpfkit_tcprtt_rtt_seconds_bucket\{le="\+Inf"\} [1-9]' <<<"$body"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "tcprtt: a bad address or --by key exits 2 with one line" {
	run --separate-stderr "$BIN/tcprtt" -A 10.0.0
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "tcprtt: -A/--raddr: '10.0.0' is no IPv4 or IPv6 address" ]
	run --separate-stderr "$BIN/tcprtt" --by pid
	[ "$status" = 2 ]
	[ "$stderr" = "tcprtt: --by: 'pid' is none of laddr, raddr, lport, rport" ]
}
