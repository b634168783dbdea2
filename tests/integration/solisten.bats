#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# solisten: tcp-trigger listens on a known loopback port with backlog 17
# (IPv4 and IPv6), on an unbound socket (the kernel picks the port at the
# listen), and on a pipe (ENOTSOCK); each arrives with the process, the
# result, the protocol, the backlog, the port and the address; -x keeps the
# failure, -4/-6 and -P filter in the kernel, -j carries the same fields.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
	PORT=$((20000 + RANDOM % 20000))
}

# listens ADDR PORT BACKLOG: tcp-trigger listens as COMM; sets PID, FD,
# GOT (the port listened on) and NOTSOCK (the pipe's fd).
listens() {
	trigger "$COMM" listen "$@"
	read -r _ FD GOT <<<"$(grep '^listen ' <<<"$LINES")"
	read -r _ NOTSOCK errno <<<"$(grep '^notsock ' <<<"$LINES")"
	[ "$errno" = 88 ]
}

@test "solisten: a listen on a known port with backlog 17, an unbound socket's and a pipe's" {
	start_tool solisten -c "$COMM"
	listens 127.0.0.1 "$PORT" 17
	[ "$GOT" = "$PORT" ]
	pid1=$PID
	listens 127.0.0.1 0 5
	wait_for "$OUT" "^$PID .* ENOTSOCK " 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +RET +PROTO +BACKLOG +PORT +ADDR$'
	row() { printf '%-7s %-15s %-10s %-7s %-7s %5s %s' "$1" "$COMM" "${@:2}"; }
	[ "$(sed -n 2p "$OUT")" = "$(row "$pid1" 0 TCPv4 17 "$PORT" 127.0.0.1)" ]
	[ "$(sed -n 3p "$OUT")" = "$(row "$pid1" ENOTSOCK - 17 - -)" ]
	[ "$(sed -n 4p "$OUT")" = "$(row "$PID" 0 TCPv4 5 "$GOT" 0.0.0.0)" ]
	[ "$(sed -n 5p "$OUT")" = "$(row "$PID" ENOTSOCK - 5 - -)" ]
	[ "$(wc -l <"$OUT")" = 5 ]
	grep -Eq '^solisten: 4 events, 0 lost$' "$ERR"
}

@test "solisten: -x keeps the failed listen only; -j carries every field" {
	start_tool solisten -x -j -c "$COMM"
	listens 127.0.0.1 "$PORT" 17
	wait_for "$OUT" '"ENOTSOCK"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson p "$PID" --arg c "$COMM" --argjson fd "$NOTSOCK" '
		map(select(has("pid")) | del(.cgroup_id, .mntns, .pidns, .pidns_pid)) ==
			[{pid: $p, tid: $p, uid: 0, comm: $c,
			ret: -1, errno: 88, error: "ENOTSOCK", fd: $fd,
			backlog: 17}]' "$OUT"
}

@test "solisten: -6 keeps the IPv6 listen, -P its port; -j has its address" {
	require_ipv6
	start_tool solisten -6 -P "$PORT" -j -c "$COMM"
	listens 127.0.0.1 "$PORT" 17
	pid4=$PID
	listens ::1 $((PORT + 1)) 17
	listens ::1 "$PORT" 17
	wait_for "$OUT" "\"pid\":$PID," 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson p "$PID" --arg c "$COMM" --argjson fd "$FD" \
		--argjson port "$PORT" '
		map(select(has("pid")) | del(.cgroup_id, .mntns, .pidns, .pidns_pid)) ==
			[{pid: $p, tid: $p, uid: 0, comm: $c,
			ret: 0, errno: 0, fd: $fd, backlog: 17, family: "INET6",
			proto: "TCP", ip: 6, addr: "::1", port: $port}]' "$OUT"
	refute grep -q "\"pid\":$pid4," "$OUT"
}

@test "solisten: a bad port list exits 2 with one line" {
	run --separate-stderr "$BIN/solisten" -P 0
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ "$stderr" == solisten:* ]]
}
