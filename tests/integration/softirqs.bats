#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# softirqs: loopback traffic moves NET_RX, in the totals table, with -D
# and in JSON; -C, -i COUNT.

bats_require_minimum_version 1.5.0
load helpers
load histogram

setup() {
	require_root
}

@test "softirqs: loopback traffic shows net_rx in the totals table" {
	start_tool softirqs
	"$HELPERS/udp-loop" 2000
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^SOFTIRQ +TOTAL_usecs +COUNT +AVG$'
	# TOTAL / COUNT is AVG, to the printed precision.
	awk '$1 == "net_rx" && $3 > 0 &&
		($2 / $3 - $4 < 0.002 && $4 - $2 / $3 < 0.002) { ok = 1 }
		END { exit !ok }' "$OUT"
}

@test "softirqs: -j carries net_rx's histogram and totals; -C per CPU" {
	start_tool softirqs -j -C
	"$HELPERS/udp-loop" 2000
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.softirq | type == "string") and (.cpu >= 0)'
	jq -es 'map(select(.softirq == "net_rx") | .count) | add > 0' "$OUT"
}

@test "softirqs: -D prints a histogram per softirq" {
	start_tool softirqs -D
	"$HELPERS/udp-loop" 2000
	stop_tool
	grep -qx 'softirq = net_rx' "$OUT"
	grep -Eq '^ +usecs +: count +distribution$' "$OUT"
}

@test "softirqs: -i 1 3 prints exactly 3 intervals and exits 0" {
	run --separate-stderr timeout 20 "$BIN/softirqs" -j -i 1 3
	[ "$status" = 0 ]
	[ "$(jq -s 'map(.interval) | unique' <<<"$output" | jq -c .)" = "[1,2,3]" ]
	check_hist_json <(echo "$output")
}
