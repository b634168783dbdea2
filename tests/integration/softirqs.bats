#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# softirqs: loopback traffic moves NET_RX, in the totals table, with -D
# and in JSON, as /proc/softirqs counts it; -C, -i COUNT.

bats_require_minimum_version 1.5.0
load helpers
load histogram

setup() {
	require_root
}

# net_rx: the NET_RX softirqs run so far, summed over CPUs: /proc/softirqs.
net_rx() {
	awk '$1 == "NET_RX:" { for (i = 2; i <= NF; i++) n += $i }
		END { print n + 0 }' /proc/softirqs
}

# traced_loop TOOL_ARG...: 2000 loopback datagrams under softirqs, with
# the kernel's own count of NET_RX runs read around them: INNER from just
# after the tool attached to just before it was stopped, OUTER from before
# it started to after it exited. The tool traced a window between the
# two, so its net_rx count is at least INNER and at most OUTER, exactly;
# OUTER - INNER is what other traffic on this shared machine added while
# the tool started and stopped.
traced_loop() {
	local outer0 inner0
	outer0=$(net_rx)
	start_tool softirqs "$@"
	inner0=$(net_rx)
	"$HELPERS/udp-loop" 2000
	INNER=$(($(net_rx) - inner0))
	stop_tool
	OUTER=$(($(net_rx) - outer0))
	[ "$TOOL_STATUS" = 0 ]
}

# in_bounds COUNT: COUNT is within [INNER, OUTER], and the datagrams
# raised NET_RX.
in_bounds() {
	echo "# net_rx: softirqs counted $1; /proc/softirqs: $INNER while it surely traced, $OUTER around it" >&3
	[ "$INNER" -gt 0 ]
	[ "$1" -ge "$INNER" ]
	[ "$1" -le "$OUTER" ]
}

@test "softirqs: loopback traffic shows net_rx in the totals table, as /proc/softirqs counts" {
	traced_loop
	head -1 "$OUT" | grep -Eq '^SOFTIRQ +TOTAL_usecs +COUNT +AVG$'
	in_bounds "$(awk '$1 == "net_rx" { print $3 }' "$OUT")"
	# TOTAL / COUNT is AVG, to the printed precision.
	awk '$1 == "net_rx" && $3 > 0 &&
		($2 / $3 - $4 < 0.002 && $4 - $2 / $3 < 0.002) { ok = 1 }
		END { exit !ok }' "$OUT"
}

@test "softirqs: -j carries net_rx's histogram and totals; -C per CPU, adding up to /proc/softirqs" {
	traced_loop -j -C
	check_hist_json "$OUT" '(.softirq | type == "string") and (.cpu >= 0)'
	in_bounds "$(jq -s 'map(select(.softirq == "net_rx") | .count) | add // 0' "$OUT")"
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
