#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcpconnlat: a connect on loopback, SYN_SENT to ESTABLISHED, takes no
# longer than the connect(2) call the helper timed, and shows with the
# connecting pid and ports; through a veth
# pair between two namespaces of the test's own whose sending side netem
# delays by 20 ms (SKIP where the kernel has no netem), at least 20 ms;
# -H counts them in the shared histogram; -j.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
}

@test "tcpconnlat: a loopback connect's latency, within the connect call's own time, with pid and ports" {
	# A first connect untraced: in an emulated guest (TCG) the kernel's
	# code paths run first through its translator, tens of ms.
	trigger "$COMM" connect 127.0.0.1
	start_tool tcpconnlat -c "$COMM"
	trigger "$COMM" connect 127.0.0.1
	read -r _ SPORT DPORT <<<"$(grep '^established ' <<<"$LINES")"
	wait_for "$OUT" "^$PID " 5
	sleep 0.2
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +IP +SADDR +SPORT +DADDR +DPORT +LAT\(ms\)$'
	# The refused connect is no latency: one line.
	[ "$(wc -l <"$OUT")" = 2 ]
	line=$(sed -n 2p "$OUT")
	[[ "$line" =~ ^$PID\ +$COMM\ +4\ +127\.0\.0\.1\ +$SPORT\ +127\.0\.0\.1\ +$DPORT\ +([0-9.]+)$ ]]
	# SYN_SENT to ESTABLISHED lies within the connect(2) the helper timed.
	read -r _ us <<<"$(grep '^connect_us ' <<<"$LINES")"
	echo "# latency ${BASH_REMATCH[1]} ms, the connect call $us us" >&3
	awk -v ms="${BASH_REMATCH[1]}" -v us="$us" \
		'BEGIN { exit !(ms > 0 && ms * 1000 <= us + 10) }'
}

@test "tcpconnlat: through a veth whose sender netem delays by 20 ms, at least 20 ms" {
	make_veth
	netem_delay 20
	ip netns exec "$PEERNS" "$HELPERS/tcp-trigger" "$COMM" serve 10.231.0.2 8080 \
		>"$BATS_TEST_TMPDIR/serve" &
	wait_for "$BATS_TEST_TMPDIR/serve" '^serve 8080$' 5
	start_tool tcpconnlat -j -c "$COMM"
	trigger "$COMM" dial 10.231.0.2 8080 0
	wait_for "$OUT" "\"pid\":$PID," 5
	stop_tool
	wait
	jq -es --argjson p "$PID" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $p and .saddr == "10.231.0.1" and
			.daddr == "10.231.0.2" and .dport == 8080 and .ms >= 20)
	' "$OUT"
}

@test "tcpconnlat: -H counts every established connect in the histogram" {
	start_tool tcpconnlat -H -j -c "$COMM"
	for _ in 1 2 3; do
		trigger "$COMM" connect 127.0.0.1
	done
	sleep 0.2
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es 'map(select(has("buckets"))) | length == 1 and .[0].count == 3 and
		.[0].unit == "usecs"' "$OUT"
}

@test "tcpconnlat: -H --metrics serves the histogram, its _count every connect" {
	local port body i
	port=$(free_port)
	start_tool tcpconnlat -H --metrics "127.0.0.1:$port" -c "$COMM"
	for _ in 1 2 3 4; do
		trigger "$COMM" connect 127.0.0.1
	done
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		body=$(scrape "$port")
		grep -qx 'bpfkit_tcpconnlat_connect_latency_seconds_count 4' <<<"$body" && break
		sleep 0.2
	done
	grep -qx 'bpfkit_tcpconnlat_connect_latency_seconds_count 4' <<<"$body"
	grep -qx 'bpfkit_tcpconnlat_connect_latency_seconds_bucket{le="+Inf"} 4' <<<"$body"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "tcpconnlat: an interval without -H exits 2 with one line" {
	run --separate-stderr "$BIN/tcpconnlat" 1
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "tcpconnlat: INTERVAL, COUNT, -i, -m, --cumulative and --linear shape the histogram; add -H" ]
}
