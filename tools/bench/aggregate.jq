# SPDX-License-Identifier: GPL-2.0
# tools/bench/run's samples -> bench.json: ratios within each repetition,
# then the median, minimum and maximum of every measured value.
# Input: jq -n with $samples, $sizes (arrays) and the run's named args.
#
# Costs are CPU time of the process making the calls or execs (user +
# system), so that the time other processes hold the CPU on a busy machine
# does not count; wall-clock rates are kept beside them.

def median:
	sort | if length % 2 == 1 then .[length / 2 | floor]
	else (.[length / 2 - 1] + .[length / 2]) / 2 end;

# The value below which a fraction $p of the values lie (nearest rank).
def percentile($p): sort | .[(length * $p | ceil) - 1];

def stats:
	map(select(. != null))
	| if length == 0 then null
	else {median: median, p99: percentile(0.99), min: min, max: max} end;

def ratio($a; $b): if $a != null and $b != null and $b != 0 then $a / $b
	else null end;
def diff($a; $b): if $a != null and $b != null then $a - $b else null end;

# Values of one sample on its own: CPU cost per call or exec.
def own:
	if .calls and .cpu_seconds then .ns_per_call = .cpu_seconds * 1e9 / .calls
		| .cpu_rate = .calls / .cpu_seconds
	else . end
	| if .ids_cpu_seconds then .ids_ns_per_record =
		(.ids_cpu_seconds - .noids_cpu_seconds) * 1e9 / .calls
	else . end
	| if .bpf_run_ns then .bpf_ns_per_call = .bpf_run_ns / .calls
	else . end
	| if .reader_cpu_ns and .delivered and .delivered > 0 then
		.reader_ns_per_record = .reader_cpu_ns / .delivered
	else . end
	| if .window_events then
		.read_bytes_per_event = .window_read_bytes / .window_events
	else . end
	| if .execs then .us_per_exec = .cpu_seconds * 1e6 / .execs else . end
	| if .tracer_cpu_ns then
		.tracer_cpu_ms_per_1000 = .tracer_cpu_ns / .execs / 1000
		| .missed = .execs - .reported
	else . end;

# The sample of the repetition $rep on this sample's path (perf, ring)
# in the variant $kind (baseline-perf, noids-ring ...), if there is one.
def same_path($rep; $kind):
	.variant as $v | $rep | map(select(.variant == "\($kind)-\($v)"))[0];

# Values against the untraced ($u) and stock ($s) runs of the repetition,
# and a delivery path against the same path of the baseline build; and
# what the task's ids add to its record (its pair run) against its cost
# per call without them ($rep).
def against($u; $s; $rep):
	(.ns_per_call // .us_per_exec) as $c
	| ($u.ns_per_call // $u.us_per_exec) as $uc
	| if .test == "startup" or .test == "latency" then .
	else .cost_vs_untraced = ratio($c; $uc)
		| .added = diff($c; $uc)
		| .wall_vs_untraced = ratio(.rate; $u.rate)
	end
	| if .test == "delivery" then
		.speedup_vs_stock = ratio($s.ns_per_call; .ns_per_call)
		| .wall_speedup_vs_stock = ratio(.rate; $s.rate)
	else . end
	| same_path($rep; "baseline") as $b
	| if $b then
		.vs_baseline = ratio(.ns_per_call; $b.ns_per_call)
		| .reader_vs_baseline =
			ratio(.reader_ns_per_record; $b.reader_ns_per_record)
	else . end
	| same_path($rep; "noids") as $n
	| same_path($rep; "pair") as $p
	| if $n.ns_per_call and $p.ids_ns_per_record then
		.ids_ns_per_record = $p.ids_ns_per_record
		| .vs_noids = ratio($n.ns_per_call + $p.ids_ns_per_record;
			$n.ns_per_call)
	else . end;

# A tool's spawn-to-attached against the floor ($f) and, for bpfkit:TOOL,
# against libbpf-tools:TOOL, both from the repetition's samples ($rep).
def startup_ratios($rep; $f):
	if .test == "startup" and .attached_ms then
		(.variant | split(":")[1]) as $t
		| ($rep | map(select(.variant == "libbpf-tools:\($t)"))[0]) as $p
		| .vs_floor = ratio(.attached_ms; $f.attached_ms)
		| if .variant | startswith("bpfkit:") then
			.vs_peer = ratio(.attached_ms; $p.attached_ms)
			| .cpu_vs_peer = ratio(.attached_cpu_ms; $p.attached_cpu_ms)
		else . end
	else . end;

# The containers row: peak RSS with 100 containers known against none,
# from the repetition's samples ($rep).
def container_ratios($rep):
	if .test == "containers" and .variant == "containers" then
		($rep | map(select(.variant == "host"))[0]) as $h
		| .rss_growth_kb = diff(.rss_kb; $h.rss_kb)
	else . end;

# A sample's variant without its tool (the tools row's are TOOL:VARIANT).
def kind: if .tool then .variant | split(":")[1] else .variant end;

# The tools row: what the tracer adds per event, and its BPF programs' run
# time per event, against the floor's on the same tracepoints (and the
# timed floor's, for a tool timing syscalls) and against
# libbpf-tools' counterpart's and BENCH_BASELINE's build's, from the
# repetition's samples ($rep, their added costs already taken); the tracer's own CPU per event.
def tool_ratios($rep):
	if .test == "tools" then
		($rep | map(select(kind == "floor"))[0]) as $f
		| ($rep | map(select(kind == "timed"))[0]) as $tf
		| ($rep | map(select(kind == "libbpf-tools"))[0]) as $p
		| ($rep | map(select(kind == "baseline"))[0]) as $b
		| if .tracer_ns then .tracer_ns_per_event = .tracer_ns / .calls
		else . end
		| if kind == "bpfkit" or kind == "libbpf-tools" then
			.vs_floor = ratio(.added; $f.added)
			| .bpf_vs_floor = ratio(.bpf_ns_per_call; $f.bpf_ns_per_call)
		else . end
		| if kind == "bpfkit" then
			.vs_peer = ratio(.added; $p.added)
			| .bpf_vs_peer = ratio(.bpf_ns_per_call; $p.bpf_ns_per_call)
			| .bpf_vs_baseline = ratio(.bpf_ns_per_call; $b.bpf_ns_per_call)
			| .bpf_vs_timed = ratio(.bpf_ns_per_call; $tf.bpf_ns_per_call)
		else . end
	else . end;

# Each sample next to the baseline runs of its own repetition (and, in the
# tools row, of its own tool).
def with_ratios:
	map(own)
	| group_by([.test, .rep, .tool // ""])
	| map(. as $rep
		| map(select(kind == "untraced"))[0] as $u
		| map(select(kind == "stock"))[0] as $s
		| map(select(kind == "floor"))[0] as $f
		| map(against($u; $s; $rep) | startup_ratios($rep; $f)
			| container_ratios($rep))
		| . as $done | map(tool_ratios($done)))
	| flatten;

# {test: {variant: {key: stats, reps: n}}}
def summarize:
	group_by(.test)
	| map({key: .[0].test, value: (group_by(.variant)
		| map(. as $runs
			| {key: .[0].variant, value: (
				[$runs[] | keys[]] | unique
				- ["test", "variant", "rep", "tool"]
				| map(. as $k
					| {key: $k,
					   value: ([$runs[] | .[$k]] | stats)})
				| from_entries
				| .reps = ($runs | length))})
		| from_entries)})
	| from_entries;

($samples | with_ratios) as $all
| ($all | summarize) as $results
| [$all[] | select(.test == "delivery" and .variant == "perf")] as $perf
| [$results.latency // {} | (.perf, .ring) | select(.)] as $lone
| [$results.startup // {} | to_entries[]
	| select(.key | startswith("bpfkit:"))
	| {tool: (.key | split(":")[1]), vs_peer: .value.vs_peer.median,
	   vs_floor: .value.vs_floor.median,
	   cpu_vs_peer: .value.cpu_vs_peer.median}] as $starts
| {
	machine: {kernel: $kernel, cpu_model: $cpu_model, cpus: $cpus, date: $date,
		  loadavg_start: $load_start, loadavg_end: $load_end,
		  other_bpf_programs_start: $progs_start,
		  other_bpf_programs_end: $progs_end,
		  seconds: $seconds},
	params: {reps: $reps, delivery_calls: $calls, reader_calls: $read_calls,
		 syscall_storm_calls: $syscalls,
		 exec_storm_seconds: $exec_seconds,
		 lone_execs: $lone_execs, lone_gap_ms: $lone_gap_ms,
		 rows: ($rows | split(" ") | map(select(. != ""))),
		 baseline: (if $baseline == "" then null else $baseline end),
		 switch_storm_passes: ($switches * 2), io_storm_reads: $ios,
		 scrape_series: $series, scrapes: $scrapes,
		 conn_storm_sessions: $conns, profile_spins: $spins,
		 tool_events: $tool_events, tool_files: $tool_files,
		 tool_ios: $tool_ios, tools_row: $tools_row,
		 bpftrace: $bpftrace, libbpf_tools: $libbpf_tools,
		 bpftrace_execsnoop: $bt_exec, bpftrace_syscount: $bt_syscount},
	results: $results,
	targets: {
		default_path_lossless: (($perf | length) > 0 and
			all($perf[]; .lost == 0 and .delivered == .calls)),
		default_path_lossless_runs: ([$perf[]
			| select(.lost == 0 and .delivered == .calls)] | length),
		default_path_speedup_vs_stock:
			$results.delivery.perf.speedup_vs_stock.median,
		default_path_wall_speedup_vs_stock:
			$results.delivery.perf.wall_speedup_vs_stock.median,
		default_path_speedup_target: 5,
		ring_path_cost_vs_untraced:
			$results.delivery.ring.cost_vs_untraced.median,
		ring_path_cost_target: 3,
		lone_exec_median_ms_target: 2,
		lone_exec_p99_ms_target: 5,
		lone_exec_met: (($lone | length) == 2 and all($lone[];
			.latency_ms.median <= 2 and .latency_ms.p99 <= 5)),
		startup_vs_peer_target: 1,
		startup_vs_floor_target: 1.5,
		startup_slower_than_peer: [$starts[]
			| select(.vs_peer != null and .vs_peer > 1) | .tool],
		startup_cpu_above_peer: [$starts[]
			| select(.cpu_vs_peer != null and .cpu_vs_peer > 1) | .tool],
		startup_above_floor_target: [$starts[]
			| select(.vs_floor != null and .vs_floor > 1.5) | .tool],
		containers_rss_growth_kb_target: 1024,
		containers_rss_growth_kb:
			$results.containers.containers.rss_growth_kb.median,
		scrape_cpu_ms_target: 5,
		scrape_met: (($results.scrape.bpfkit.cpu_ms.median // 1e9) <= 5)
	},
	sizes: $sizes,
	skipped: $skipped,
	samples: $all
}
| .targets.met = (.targets.default_path_lossless
	and (.targets.default_path_speedup_vs_stock // 0) >= 5
	and (.targets.ring_path_cost_vs_untraced // 1e9) <= 3)
