# SPDX-License-Identifier: GPL-2.0
# bench.json -> gnuplot data for chart.gp (jq -r): four blocks, two blank
# lines apart, of `"label" median min max`; a variant not measured is left out.

# One block: LABELS [variant, label] of TEST's KEY, scaled by S.
def block($test; $key; $s; $names):
	.results[$test] as $t
	| [$names[] | . as [$v, $name] | $t[$v][$key]
		| select(. != null)
		| "\"\($name)\" \(.median * $s) \(.min * $s) \(.max * $s)"]
	| join("\n");

[
	block("delivery"; "ns_per_call"; 1; [["untraced", "untraced"],
		["stock", "stock perf"], ["perf", "bpfkit perf"],
		["ring", "bpfkit ring"]]),
	block("startup"; "first_ms"; 1; [["bpfkit", "bpfkit"],
		["libbpf-tools", "libbpf-tools"], ["bpftrace", "bpftrace"]]),
	block("execstorm"; "tracer_cpu_ms_per_1000"; 1; [["bpfkit", "bpfkit"],
		["libbpf-tools", "libbpf-tools"], ["bpftrace", "bpftrace"]]),
	block("syscallstorm"; "ns_per_call"; 1; [["untraced", "untraced"],
		["bpfkit", "bpfkit"], ["libbpf-tools", "libbpf-tools"],
		["bpftrace", "bpftrace"]])
] | join("\n\n\n")
