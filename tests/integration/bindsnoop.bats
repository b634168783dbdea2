#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# bindsnoop: binds on loopback by a controlled child (TCP over IPv4 with
# SO_REUSEADDR, TCP over IPv6 with SO_REUSEPORT, UDP, and a taken port)
# arrive with protocol, address, port, the options read from the socket and
# the result; -x keeps the failure; -j carries the same fields.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
}

# binds COMM: run bind-trigger as COMM; set PID and PORT_<NAME> for each
# bind it reports, and skip when this host has no IPv6 loopback.
binds() {
	run "$HELPERS/bind-trigger" "$1"
	[ "$status" = 0 ]
	PID=${lines[0]}
	local name port ret
	while read -r name port ret; do
		[ "$name" != tcp6 ] || [ "$ret" = 0 ] ||
			skip "no IPv6 loopback here (bind to [::1]: $ret)"
		printf -v "PORT_$name" %s "$port"
		printf -v "RET_$name" %s "$ret"
	done < <(printf '%s\n' "${lines[@]:1}")
}

@test "bindsnoop: IPv4, IPv6, UDP and a taken port, with options and results" {
	start_tool bindsnoop -c "${COMM:=$(unique_comm)}"
	binds "$COMM"
	[ "$RET_tcp4" = 0 ]
	[ "$RET_udp4" = 0 ]
	[ "$RET_taken" = -98 ]
	[ "$PORT_taken" = "$PORT_tcp4" ]
	wait_for "$OUT" "^$PID +.* EADDRINUSE " 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +RET +PROTO +OPTS +PORT +ADDR$'
	row() { printf '%-7s %-15s %-10s %-7s %-4s %5s %s' "$PID" "$COMM" "$@"; }
	[ "$(sed -n 2p "$OUT")" = "$(row 0 TCP R. "$PORT_tcp4" 127.0.0.1)" ]
	[ "$(sed -n 3p "$OUT")" = "$(row 0 TCP .r "$PORT_tcp6" ::1)" ]
	[ "$(sed -n 4p "$OUT")" = "$(row 0 UDP .. "$PORT_udp4" 127.0.0.1)" ]
	[ "$(sed -n 5p "$OUT")" = "$(row EADDRINUSE TCP .. "$PORT_taken" 127.0.0.1)" ]
	[ "$(wc -l <"$OUT")" = 5 ]
	grep -Eq '^bindsnoop: 4 events, 0 lost$' "$ERR"
}

@test "bindsnoop: -x keeps the taken port only; -j carries every field" {
	start_tool bindsnoop -x -j -c "${COMM:=$(unique_comm)}"
	binds "$COMM"
	wait_for "$OUT" '"EADDRINUSE"' 5
	stop_tool
	jq -es --argjson p "$PID" --arg c "$COMM" --argjson port "$PORT_taken" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $p and .tid == $p and .uid == 0 and
			.comm == $c and .ret == -1 and .errno == 98 and
			.error == "EADDRINUSE" and .family == "INET" and
			.addr == "127.0.0.1" and .port == $port and
			.proto == "TCP" and .sock_type == 1 and
			.reuseaddr == false and .reuseport == false)
	' "$OUT"
}

@test "bindsnoop: -j shows each socket's options and the port it got" {
	start_tool bindsnoop -j -c "${COMM:=$(unique_comm)}"
	binds "$COMM"
	wait_for "$OUT" '"EADDRINUSE"' 5
	stop_tool
	jq -es --argjson t4 "$PORT_tcp4" --argjson t6 "$PORT_tcp6" \
		--argjson u4 "$PORT_udp4" '
		map(select(has("pid"))) | length == 4 and
		(.[0] | .family == "INET" and .proto == "TCP" and .port == 0 and
			.bound_port == $t4 and .reuseaddr and (.reuseport | not)) and
		(.[1] | .family == "INET6" and .addr == "::1" and
			.bound_port == $t6 and (.reuseaddr | not) and .reuseport) and
		(.[2] | .proto == "UDP" and .sock_type == 2 and .bound_port == $u4) and
		(.[3] | .port == $t4 and .bound_port == 0)
	' "$OUT"
}

@test "bindsnoop: a bad option exits 2 with one line and no output" {
	run --separate-stderr "$BIN/bindsnoop" --bogus
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}
