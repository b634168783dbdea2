#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tcpdrop: in a network namespace of the test's own, an nftables rule drops
# the SYNs of a connect to port $PORT (IPv4 and IPv6): each SYN the kernel
# dropped shows with the connect's ports, the SYN flag and the reason
# NETFILTER_DROP, in softirq (no pid); a connect to a closed port's SYN
# shows as NO_SOCKET; -R keeps the reasons named, -a adds UDP, -4/-6, -C
# counts per reason and flow, --metrics per reason, -j; bad -R names.
# Before Linux 5.17 skb:kfree_skb gives no reason: the drops show "not
# given" (no reason in -j) and -R is refused, as the tests expect there.
# The machine's own drops come too (other tests drop port 9 in their own
# namespaces): every check picks the test's flows by its random ports.

bats_require_minimum_version 1.5.0
load helpers
load tcp

setup() {
	require_root
	COMM=$(unique_comm)
	# A port whose SYNs the rule drops, and a closed one.
	PORT=$((20000 + RANDOM % 20000))
	CLOSED=$((PORT + 1))
	# The reasons the rule's and the closed port's drops show.
	if kfree_skb_reasons; then
		REASONS=true NF=NETFILTER_DROP NS=NO_SOCKET
	else
		REASONS=false NF="not given" NS="not given"
	fi
}

# kfree_skb_reasons: does skb:kfree_skb give a drop reason (Linux 5.17+)?
kfree_skb_reasons() {
	local f
	for f in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -r "$f/events/skb/kfree_skb/format" ] && break
	done
	grep -q 'field:enum skb_drop_reason reason;' \
		"$f/events/skb/kfree_skb/format"
}

# require_reasons: skip where skb:kfree_skb gives no reason.
require_reasons() {
	[ "$REASONS" = true ] ||
		skip "skb:kfree_skb gives no drop reason before Linux 5.17"
}

# drop_syns ADDR...: in $NETNS (whose rule drops TCP port $PORT), one
# connect to $PORT of each ADDR with one SYN retry, all at once. Each
# times out (ETIMEDOUT) after 2 SYNs or more (the retry timer decides
# whether a third goes out), all from one source port.
drop_syns() {
	local addr i=0 pids=()
	for addr in "$@"; do
		ip netns exec "$NETNS" "$HELPERS/tcp-trigger" "$COMM" dial \
			"$addr" "$PORT" 1 >"$BATS_TEST_TMPDIR/dial$i" &
		pids+=("$!")
		i=$((i + 1))
	done
	wait "${pids[@]}"
	for ((i = 0; i < $#; i++)); do
		[ "$(tail -1 "$BATS_TEST_TMPDIR/dial$i")" = "dial 0 110" ]
	done
}

# refuse ADDR: one connect to $CLOSED on ADDR in $NETNS, refused: its SYN
# is answered by a reset, then dropped (NO_SOCKET).
refuse() {
	trigger "$COMM" dial "$1" "$CLOSED" 0
	[ "$LINES" = "dial 0 111" ]
}

# jq_drops FILTER: jq -e over the tool's JSON drop records (not its
# summary), as one array; reason_is(NAME) in FILTER: the reason is NAME,
# or none is given on a kernel without reasons.
jq_drops() {
	jq -es --argjson reasons "$REASONS" "
		def reason_is(r): if \$reasons then .reason == r and
			(.reason_code | type == \"number\")
			else has(\"reason\") or has(\"reason_code\") | not end;
		map(select(has(\"reason\") or has(\"proto\"))) | $1" "$OUT"
}

@test "tcpdrop: SYNs an nftables rule drops, IPv4 and IPv6: ports, SYN, NETFILTER_DROP, in softirq" {
	require_ipv6
	make_netns
	drop_rule "tcp dport $PORT"
	start_tool tcpdrop
	drop_syns 127.0.0.1 ::1
	wait_for "$OUT" " ::1 +$PORT SYN +$NF$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +PROTO +IP +SADDR +SPORT +DADDR +DPORT +FLAGS +REASON$'
	# Every drop of those flows is the rule's, in softirq: no task's pid;
	# each flow's SYNs come from one port.
	grep -E " 127\.0\.0\.1 +$PORT " "$OUT" >"$BATS_TEST_TMPDIR/v4"
	grep -E " ::1 +$PORT " "$OUT" >"$BATS_TEST_TMPDIR/v6"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/v4")" -ge 2 ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/v6")" -ge 2 ]
	[ "$(sort -u "$BATS_TEST_TMPDIR/v4" | wc -l)" = 1 ]
	[ "$(sort -u "$BATS_TEST_TMPDIR/v6" | wc -l)" = 1 ]
	grep -Eq "^- +\[interrupt\] +TCP +4 +127\.0\.0\.1 +[1-9][0-9]* 127\.0\.0\.1 +$PORT SYN +$NF$" "$BATS_TEST_TMPDIR/v4"
	grep -Eq "^- +\[interrupt\] +TCP +6 +::1 +[1-9][0-9]* ::1 +$PORT SYN +$NF$" "$BATS_TEST_TMPDIR/v6"
	grep -Eq '^tcpdrop: [0-9]+ events, 0 lost$' "$ERR"
}

@test "tcpdrop: -j carries addresses as strings, ports as numbers, the reason by name and code" {
	make_netns
	drop_rule "tcp dport $PORT"
	start_tool tcpdrop -j
	drop_syns 127.0.0.1
	wait_for "$OUT" "\"dport\":$PORT," 5
	stop_tool
	jq_drops "map(select(.dport == $PORT)) |
		length >= 2 and (map(.sport) | unique | length == 1) and
		all(.context == \"interrupt\" and
			(has(\"pid\") | not) and .proto == \"TCP\" and
			.ip == 4 and .saddr == \"127.0.0.1\" and
			.daddr == \"127.0.0.1\" and .tcpflags == \"SYN\" and
			reason_is(\"NETFILTER_DROP\"))"
	# The last record is the summary: every drop sent is accounted for.
	tail -1 "$OUT" | jq -e '.type == "summary" and
		.events + .filtered + .lost == .produced' || {
		tail -3 "$OUT" | sed 's/^/# /' >&3
		return 1
	}
}

@test "tcpdrop: -R keeps the reasons named: NO_SOCKET (a closed port), not NETFILTER_DROP" {
	require_reasons
	make_netns
	drop_rule "tcp dport $PORT"
	start_tool tcpdrop -j -R no_socket
	refuse 127.0.0.1
	drop_syns 127.0.0.1
	stop_tool
	jq_drops "all(.reason == \"NO_SOCKET\") and
		any(.dport == $CLOSED and .tcpflags == \"SYN\") and
		all(.dport != $PORT)"
}

@test "tcpdrop: UDP drops only with -a, with the protocol and addresses, no ports" {
	make_netns
	start_tool tcpdrop -j -a -4
	# Nothing listens on UDP port 7 in the namespace.
	ip netns exec "$NETNS" bash -c 'echo bpfkit >/dev/udp/127.0.0.1/7'
	wait_for "$OUT" '"proto":"UDP"' 5
	stop_tool
	jq_drops 'any(.proto == "UDP" and .ip == 4 and
			.saddr == "127.0.0.1" and .daddr == "127.0.0.1" and
			(has("sport") | not) and reason_is("NO_SOCKET")) and
		all(.ip == 4)'
	start_tool tcpdrop -j
	ip netns exec "$NETNS" bash -c 'echo bpfkit >/dev/udp/127.0.0.1/7'
	sleep 0.5
	stop_tool
	jq_drops 'all(.proto == "TCP")'
}

@test "tcpdrop: -6 keeps IPv6 drops only" {
	require_ipv6
	make_netns
	drop_rule "tcp dport $PORT"
	start_tool tcpdrop -6 -j
	drop_syns 127.0.0.1 ::1
	stop_tool
	jq_drops "all(.ip == 6) and
		any(.dport == $PORT and .daddr == \"::1\")"
}

@test "tcpdrop: -C counts drops per reason and TCP flow at exit" {
	make_netns
	drop_rule "tcp dport $PORT"
	start_tool tcpdrop -C
	drop_syns 127.0.0.1
	refuse 127.0.0.1
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^REASON +PROTO +SADDR +SPORT +DADDR +DPORT +DROPS$'
	# One row per flow: the connect's SYNs (2 or more), the refused one.
	[ "$(grep -Ec "^$NF +TCP +127\.0\.0\.1 +[0-9]+ 127\.0\.0\.1 +$PORT +([2-9]|[1-9][0-9]+)$" "$OUT")" = 1 ]
	[ "$(grep -Ec "^$NS +TCP +127\.0\.0\.1 +[0-9]+ 127\.0\.0\.1 +$CLOSED +1$" "$OUT")" = 1 ]
}

@test "tcpdrop: --metrics counts drops per reason" {
	command -v curl >/dev/null || skip "no curl(1)"
	make_netns
	drop_rule "tcp dport $PORT"
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	start_tool tcpdrop --metrics "127.0.0.1:$port"
	drop_syns 127.0.0.1
	curl -sf --max-time "$((5 * TIME_SCALE))" "http://127.0.0.1:$port/metrics" >"$BATS_TEST_TMPDIR/prom"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -q '^# TYPE bpfkit_tcpdrop_drops_total counter$' "$BATS_TEST_TMPDIR/prom"
	n=$(awk -v m="bpfkit_tcpdrop_drops_total{reason=\"$NF\"}" \
		'substr($0, 1, length(m)) == m { print $NF }' "$BATS_TEST_TMPDIR/prom")
	[ "${n:-0}" -ge 2 ]
}

# no_reasons_btf FILE: this kernel's BTF without enum skb_drop_reason, as
# kernels before Linux 5.17 have it (the enum's name is the only use of its
# string: renamed in place, same length).
no_reasons_btf() {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF here"
	python3 - /sys/kernel/btf/vmlinux "$1" <<-'EOF'
		import struct, sys
		d = bytearray(open(sys.argv[1], "rb").read())
		hdr_len, str_off, str_len = struct.unpack_from("<I8xII", d, 4)
		lo = hdr_len + str_off
		name = b"\0skb_drop_reason\0"
		at = d.find(name, lo, lo + str_len)
		assert at < 0 or d.find(name, at + 1, lo + str_len) < 0
		if at > 0: d[at + 1:at + 16] = b"no_drop_reasons"
		open(sys.argv[2], "wb").write(d)
	EOF
	[ "$(bpftool btf dump file "$1" | grep -c "ENUM 'skb_drop_reason'")" = 0 ]
}

@test "tcpdrop: -R on a kernel without drop reasons (before Linux 5.17): one line, exit 2" {
	no_reasons_btf "$BATS_TEST_TMPDIR/old.btf"
	run --separate-stderr timeout "$((10 * TIME_SCALE))" \
		"$BIN/tcpdrop" --btf "$BATS_TEST_TMPDIR/old.btf" \
		-R NETFILTER_DROP
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "tcpdrop: -R/--reason: this kernel gives no drop reasons (Linux 5.17+ does); trace without -R" ]
}

@test "tcpdrop: -4 with -6, an unknown -R reason, an empty -R list: one line, exit 2" {
	run --separate-stderr "$BIN/tcpdrop" -4 -6
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
	require_reasons
	run --separate-stderr "$BIN/tcpdrop" -R NETFILTER_DROP,NO_SUCH_REASON
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "tcpdrop: -R/--reason: unknown drop reason 'NO_SUCH_REASON' on this kernel; its names are in the print fmt of /sys/kernel/tracing/events/skb/kfree_skb/format" ]
	# A list of no names would trace nothing at all.
	run --separate-stderr "$BIN/tcpdrop" -R ,
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "tcpdrop: -R/--reason needs drop reason names, such as NETFILTER_DROP" ]
}
