#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcptop: a loopback session of known bytes (tcp-trigger: the client sends
# SEND and receives RECV) shows both ends' flows with those exact bytes,
# each under its own pid, as JSON and (in KiB) as the table; -r keeps the
# top rows, -D and -p filter in the kernel; COUNT ends the run; --metrics
# serves the bytes per flow; bad input. On kernels before 6.3 the bytes
# come from the read/write/send/recv syscalls, from 6.3 from the sock
# tracepoints: the same oracles hold on both.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
}

eval "tcp_$(declare -f teardown)"
teardown() {
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

# session SEND RECV: a loopback session as COMM; sets CLIENT, SERVER,
# CPORT and SPORT.
session() {
	trigger "$COMM" session 127.0.0.1 "$1" "$2" 0
	read -r _ CLIENT SERVER CPORT SPORT _ <<<"$LINES"
	[ -n "$SPORT" ]
}

@test "tcptop: a session's exact bytes each way, under each end's pid and flow" {
	start_tool tcptop -j -c "$COMM" 60
	session 123456 654321
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson c "$CLIENT" --argjson s "$SERVER" \
		--argjson cp "$CPORT" --argjson sp "$SPORT" --arg comm "$COMM" '
		length == 1 and (.[0] | .interval == 1 and .seconds > 0) and
		(.[0].flows | length == 2 and
			all(.comm == $comm and .ip == 4 and
				.saddr == "127.0.0.1" and .daddr == "127.0.0.1") and
			(map(select(.pid == $c)) == [{pid: $c, comm: $comm, ip: 4,
				saddr: "127.0.0.1", sport: $cp,
				daddr: "127.0.0.1", dport: $sp,
				rx_bytes: 654321, tx_bytes: 123456}]) and
			(map(select(.pid == $s)) == [{pid: $s, comm: $comm, ip: 4,
				saddr: "127.0.0.1", sport: $sp,
				daddr: "127.0.0.1", dport: $cp,
				rx_bytes: 123456, tx_bytes: 654321}]))
	' "$OUT"
}

@test "tcptop: the table in KiB, most bytes first; -r 1 keeps the top row" {
	start_tool tcptop -C -r 1 -c "$COMM" 60
	session 1048576 3145728
	trigger "$COMM" session 127.0.0.1 1024 2048 0
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(wc -l <"$OUT")" = 3 ]
	grep -Eq '^[0-9:]{8} loadavg: [0-9.]+ ' "$OUT"
	sed -n 2p "$OUT" | grep -Eq '^PID +COMM +IP +LADDR +LPORT +RADDR +RPORT +RX_KB +TX_KB$'
	row=$(sed -n 3p "$OUT")
	# Client and server moved 4 MiB each: the tie goes to the lower key.
	[[ "$row" =~ ^($CLIENT|$SERVER)\ +$COMM\ +4\ +127\.0\.0\.1\ +[0-9]+\ +127\.0\.0\.1\ +[0-9]+\ +([0-9]+)\ +([0-9]+)$ ]]
	if [ "${BASH_REMATCH[1]}" = "$CLIENT" ]; then
		[ "${BASH_REMATCH[2]} ${BASH_REMATCH[3]}" = "3072 1024" ]
	else
		[ "${BASH_REMATCH[2]} ${BASH_REMATCH[3]}" = "1024 3072" ]
	fi
}

@test "tcptop: -D keeps the client's flow, -p one process; COUNT ends the run" {
	port=$((20000 + RANDOM % 20000))
	start_tool tcptop -j -D "$port" 60
	trigger "$COMM" session 127.0.0.1 5000 7000 0 "$port"
	read -r _ client _ cport _ <<<"$LINES"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson c "$client" --argjson cp "$cport" --argjson p "$port" \
		--arg comm "$COMM" '
		map(.flows[]) == [{pid: $c, comm: $comm, ip: 4,
			saddr: "127.0.0.1", sport: $cp, daddr: "127.0.0.1",
			dport: $p, rx_bytes: 7000, tx_bytes: 5000}]
	' "$OUT"

	start_tool tcptop -j -c "$COMM" 60
	"$HELPERS/tcp-trigger" "$COMM" sink 127.0.0.1 "$port" \
		>"$BATS_TEST_TMPDIR/sink" &
	sinker=$!
	wait_for "$BATS_TEST_TMPDIR/sink" "^sink $port\$" 5
	sink=$(head -1 "$BATS_TEST_TMPDIR/sink")
	trigger "$COMM" send 127.0.0.1 "$port" 99999
	wait "$sinker"
	grep -qx 'sunk 99999' "$BATS_TEST_TMPDIR/sink"
	stop_tool
	jq -es --argjson s "$sink" --argjson c "$PID" '
		map(.flows[]) | length == 2 and
		(map(select(.pid == $s)) | .[0] | .rx_bytes == 99999 and .tx_bytes == 0) and
		(map(select(.pid == $c)) | .[0] | .rx_bytes == 0 and .tx_bytes == 99999)
	' "$OUT"

	# Another process's session, while -p watches this shell only.
	start_tool tcptop -j -p "$BASHPID" 1 2
	session 5000 7000
	wait "$TOOL_PID"
	TOOL_PID=
	[ "$(wc -l <"$OUT")" = 2 ]
	jq -es 'map(.interval) == [1, 2] and all(.flows == [])' "$OUT"
}

@test "tcptop: --cgroup counts a child cgroup's session, no sibling's" {
	local root
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no cgroup v2 mounted"
	CGPARENT=$root/bpfkit-test-$$-$RANDOM
	mkdir -p "$CGPARENT/child" "$CGPARENT-sibling"
	start_tool tcptop -j --cgroup "$CGPARENT" 60
	for cg in "$CGPARENT-sibling" "$CGPARENT/child"; do
		sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh \
			"$cg" "$HELPERS/tcp-trigger" "$COMM" session 127.0.0.1 \
			3333 4444 0 >"$BATS_TEST_TMPDIR/${cg##*[-/]}"
	done
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	read -r _ client server _ < <(tail -1 "$BATS_TEST_TMPDIR/child")
	read -r _ _ sibling _ < <(tail -1 "$BATS_TEST_TMPDIR/sibling")
	[ -n "$sibling" ]
	jq -es --argjson c "${client:?}" --argjson s "${server:?}" '
		map(.flows[]) | length == 2 and
		(map(select(.pid == $c)) | .[0] | .tx_bytes == 3333 and .rx_bytes == 4444) and
		(map(select(.pid == $s)) | .[0] | .tx_bytes == 4444 and .rx_bytes == 3333)
	' "$OUT"
}

@test "tcptop: --metrics serves a flow's bytes sent and received" {
	local port body i
	port=$(free_port)
	start_tool tcptop --metrics "127.0.0.1:$port" -c "$COMM"
	session 4321 8765
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		body=$(scrape "$port")
		grep -q "^bpfkit_tcptop_sent_bytes_total{.*lport=\"$CPORT\".*} 4321$" <<<"$body" && break
		sleep 0.2
	done
	grep -qx "bpfkit_tcptop_sent_bytes_total{laddr=\"127.0.0.1\",lport=\"$CPORT\",raddr=\"127.0.0.1\",rport=\"$SPORT\"} 4321" <<<"$body"
	grep -qx "bpfkit_tcptop_received_bytes_total{laddr=\"127.0.0.1\",lport=\"$CPORT\",raddr=\"127.0.0.1\",rport=\"$SPORT\"} 8765" <<<"$body"
	grep -qx "bpfkit_tcptop_received_bytes_total{laddr=\"127.0.0.1\",lport=\"$SPORT\",raddr=\"127.0.0.1\",rport=\"$CPORT\"} 4321" <<<"$body"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "tcptop: a bad interval or row count exits 2 with one line" {
	run --separate-stderr "$BIN/tcptop" 0
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "tcptop: invalid INTERVAL '0': expected a whole number from 1 to 86400" ]
	run --separate-stderr "$BIN/tcptop" -r x
	[ "$status" = 2 ]
	[ "$stderr" = "tcptop: invalid -r/--rows 'x': expected a whole number from 0 to 10240" ]
}
