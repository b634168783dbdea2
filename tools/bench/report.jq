# SPDX-License-Identifier: GPL-2.0
# bench.json -> the markdown tables `make bench` prints (jq -r).
# Every cell is the median over the repetitions, with (min–max) after it.

# N rounded to D decimals; a dash when missing.
def num($d): if . == null then "–"
	else (. * pow(10; $d) | round) / pow(10; $d) | tostring end;

# Median (min–max) of a stats object, each scaled by S and rounded to D.
def span($s; $d): if . == null then "–"
	else "\(.median * $s | num($d)) (\(.min * $s | num($d))–\(.max * $s | num($d)))"
	end;
def span($d): span(1; $d);
def times($d): if . == null then "–" else span($d) + "x" end;

def kib: if . == null then "–" else "\(. / 1024 | num(0)) KiB" end;
def mib: if . == null then "–" else "\(. / 1048576 | num(1)) MiB" end;
def rss: if . == null then "–" else .median * 1024 | mib end;
def row: "| " + join(" | ") + " |";
# A stats object's median scaled by S, rounded to D.
def med($s; $d): if . == null then "–" else .median * $s | num($d) end;
# F (given a variant name) for each of the three tracers.
def peers(f): [("bpfkit", "libbpf-tools", "bpftrace") | f];
def yes($ok): if $ok then "met" else "**not met**" end;

.results as $r
| .params as $p
| [
	"CPU costs are the CPU time (user + system) of the process making the",
	"calls or execs, so they hold on a busy machine; wall-clock rates beside",
	"them also count time spent waiting for a CPU. Median (min–max) of",
	"\($p.reps) repetitions; ratios are taken within each repetition.",
	"Tracers run under `stdbuf -oL` (libbpf-tools' tools otherwise hold",
	"their lines in a stdio buffer when writing to a pipe or a file).",
	(.machine | (.loadavg_start | split(" ")[0] | tonumber) as $load
		| select($load >= .cpus)
		| "**The machine was busy** (load average \($load) on \(.cpus) "
		+ "CPUs): wall-clock times, startup included, are inflated and noisy; "
		+ "compare the CPU columns."),
	"",
	"### Event delivery: \($p.delivery_calls) getppid calls, one 72-byte record each",
	"",
	"| path | ns per call | calls/s (M) | wall calls/s (M) | delivered (min) | lost (max) | reader ns per record | cost vs untraced | rate vs stock | wall rate vs stock |",
	"|---|---|---|---|---|---|---|---|---|---|",
	(
		["untraced", "no program attached"],
		["stock", "stock `perf_buffer__new` (libbpf-tools' way)"],
		["perf", "bpfkit perf buffer (default)"],
		["ring", "bpfkit ring buffer (`--ringbuf`)"],
		(select($r.delivery["perf-limited"])
			| ["perf-limited", "bpfkit perf buffer, `--rate-limit 1000`"]),
		(select($r.delivery["noids-perf"])
			| ["noids-perf", "bpfkit perf buffer, records without task ids"],
			["noids-ring", "bpfkit ring buffer, records without task ids"]),
		(select($p.baseline) | ["baseline-perf", "baseline perf buffer"],
			["baseline-ring", "baseline ring buffer"])
		| . as [$v, $name] | $r.delivery[$v] as $x
		| [$name, ($x.ns_per_call | span(0)), ($x.cpu_rate | span(1e-6; 2)),
		   ($x.rate | span(1e-6; 2)), ($x.delivered.min | num(0)),
		   ($x.lost.max | num(0)), ($x.reader_ns_per_record | span(0)),
		   ($x.cost_vs_untraced | times(2)),
		   ($x.speedup_vs_stock | times(1)), ($x.wall_speedup_vs_stock | times(1))]
		| row
	),
	"",
	(select($r.delivery.perf.vs_noids)
		| "The task's ids in each record (cgroup, namespaces, pid), measured "
		+ "in pairs (two processes taking turns on one CPU, one traced with "
		+ "them, one without): ns added per record "
		+ "perf \($r.delivery["pair-perf"].ids_ns_per_record | span(1)), "
		+ "ring \($r.delivery["pair-ring"].ids_ns_per_record | span(1)), "
		+ "every record delivered; "
		+ "against a call without them, path by path in each repetition: "
		+ "perf \($r.delivery.perf.vs_noids | times(3)), "
		+ "ring \($r.delivery.ring.vs_noids | times(3)) "
		+ "(target: at most 1.05x, "
		+ "\(yes([$r.delivery.perf.vs_noids.median,
			$r.delivery.ring.vs_noids.median]
			| all(. != null and . <= 1.05))))",
		""),
	(select($p.baseline)
		| "Against the baseline build (\($p.baseline)), path by path in each "
		+ "repetition: ns per call "
		+ "perf \($r.delivery.perf.vs_baseline | times(3)), "
		+ "ring \($r.delivery.ring.vs_baseline | times(3)); "
		+ "reader's CPU per record "
		+ "perf \($r.delivery.perf.reader_vs_baseline | times(3)), "
		+ "ring \($r.delivery.ring.reader_vs_baseline | times(3)).",
		""),
	"Targets: default path lossless: \(yes(.targets.default_path_lossless)) "
	+ "(\(.targets.default_path_lossless_runs) of \($p.reps) runs); "
	+ "default path's rate >= 5x the stock path's: "
	+ "\(.targets.default_path_speedup_vs_stock | num(1))x by CPU cost, "
	+ "\(yes((.targets.default_path_speedup_vs_stock // 0) >= 5)) "
	+ "(\(.targets.default_path_wall_speedup_vs_stock | num(1))x by wall clock); "
	+ "ring path's traced call within 3x of an untraced call: "
	+ "\(.targets.ring_path_cost_vs_untraced | num(2))x, "
	+ "\(yes((.targets.ring_path_cost_vs_untraced // 1e9) <= 3)).",
	"",
	(select($r.reader)
		| "### The reader alone: \($p.reader_calls) records read at once",
		"",
		"The storm program stopped while the calls fill its buffers, then",
		"continued: its CPU time per record read.",
		"",
		"| path | reader ns per record | delivered (min) | lost (max) | vs baseline |",
		"|---|---|---|---|---|",
		(["perf", "bpfkit perf buffer"], ["ring", "bpfkit ring buffer"],
			["baseline-perf", "baseline perf buffer"],
			["baseline-ring", "baseline ring buffer"]
			| . as [$v, $name] | $r.reader[$v] | select(.)
			| [$name, (.reader_ns_per_record | span(1)),
			   (.delivered.min | num(0)), (.lost.max | num(0)),
			   (.reader_vs_baseline | times(3))]
			| row),
		""),
	"### Side by side (medians)",
	"",
	"| | bpfkit | libbpf-tools | bpftrace |",
	"|---|---|---|---|",
	(
		(.sizes) as $sizes
		| def size($name; $kind; f):
			[$sizes[] | select(.name == $name and .kind == $kind)][0]
			| if . then f else "–" end;
		["execsnoop: spawn to first event, ms"]
			+ peers($r.startup[.].first_ms | med(1; 0)),
		  ["execsnoop: its CPU until then, ms"]
			+ peers($r.startup[.].cpu_ms | med(1; 0)),
		  ["execsnoop: CPU per exec vs untraced"]
			+ peers($r.execstorm[.].cost_vs_untraced | med(1; 2) + "x"),
		  ["execsnoop: its own CPU per 1000 execs, ms"]
			+ peers($r.execstorm[.].tracer_cpu_ms_per_1000 | med(1; 0)),
		  ["execsnoop: execs missed (worst run)"]
			+ peers($r.execstorm[.].missed | if . then .max | num(0) else "–" end),
		  ["syscount: ns added per getppid"]
			+ peers($r.syscallstorm[.].added | med(1; 0)),
		  ["peak RSS, execsnoop / syscount, MiB"]
			+ peers("\($r.execstorm[.].rss_kb | med(1 / 1024; 1)) / \($r.syscallstorm[.].rss_kb | med(1 / 1024; 1))"),
		  ["execsnoop binary, stripped",
		   size("bpfkit execsnoop"; "dynamic"; .stripped | kib)
		   + size("bpfkit execsnoop"; "static"; " (static: \(.stripped | kib))"),
		   size("libbpf-tools execsnoop"; "dynamic"; .stripped | kib),
		   size("bpftrace"; "dynamic"; .stripped | kib)],
		  ["... with the shared libraries it loads"]
			+ peers(size(if . == "bpftrace" then . else "\(.) execsnoop" end;
				"dynamic"; .stripped + .libs | mib))
		| row
	),
	"",
	"### Startup: spawn to the first exec event printed",
	"",
	"| tool | first event, ms | attached, ms | tool's CPU by first event, ms |",
	"|---|---|---|---|",
	(
		["bpfkit", "bpfkit execsnoop"],
		["libbpf-tools", "libbpf-tools execsnoop"],
		["bpftrace", "bpftrace one-liner"]
		| . as [$v, $name] | $r.startup[$v] as $x
		| [$name, ($x.first_ms | span(0)), ($x.attached_ms | span(0)),
		   ($x.cpu_ms | span(0))]
		| row
	),
	"",
	"### Startup of every tool: spawn to the line saying it is attached",
	"",
	"Beside its libbpf-tools counterpart (– where that one cannot run here:",
	"it needs a kprobe) and the floor: tests/progs/startfloor, one tracepoint",
	"program without CO-RE, loaded with libbpf alone, attached in",
	"\($r.startup.floor.attached_ms | med(1; 1)) ms with",
	"\($r.startup.floor.attached_cpu_ms | med(1; 1)) ms of CPU. The phases are",
	"the medians of what each tool's `-v` prints (a separate run): the",
	"kernel's BTF parsed by libbpf, all programs' verification (the",
	"verifier's own time, and the instructions it walked) and the rest.",
	"",
	"| tool | bpfkit, ms | libbpf-tools, ms | vs libbpf-tools | vs floor | CPU, ms | libbpf-tools CPU, ms | CPU vs libbpf-tools | kernel BTF, ms | verification, ms (insns) | open, ms | load, ms | attach, ms |",
	"|---|---|---|---|---|---|---|---|---|---|---|---|---|",
	(
		$r.startup // {} | keys[] | select(startswith("bpfkit:"))
		| split(":")[1] as $t
		| $r.startup["bpfkit:\($t)"] as $x
		| $r.startup["libbpf-tools:\($t)"] as $y
		| $r.startup["phases:\($t)"] as $ph
		| [$t, ($x.attached_ms | span(1)), ($y.attached_ms | span(1)),
		   ($x.vs_peer | times(2)), ($x.vs_floor | times(1)),
		   ($x.attached_cpu_ms | span(1)), ($y.attached_cpu_ms | span(1)),
		   ($x.cpu_vs_peer | times(2)),
		   ($ph.phase_kernel_btf_ms | med(1; 1)),
		   "\($ph.verify_ms | med(1; 1)) (\($ph.verified_insns | med(1; 0)))",
		   ($ph.phase_open_ms | med(1; 1)), ($ph.phase_load_ms | med(1; 1)),
		   ($ph.phase_channel_and_attach_ms | med(1; 1))]
		| row
	),
	"",
	"Targets: spawn to attached at most \(.targets.startup_vs_peer_target)x "
	+ "the counterpart's: "
	+ (.targets.startup_slower_than_peer
		| if length == 0 then "met" else "**not met** by \(join(", "))" end)
	+ "; CPU until attached at most the counterpart's: "
	+ (.targets.startup_cpu_above_peer
		| if length == 0 then "met" else "**not met** by \(join(", "))" end)
	+ "; at most \(.targets.startup_vs_floor_target)x the floor: "
	+ (.targets.startup_above_floor_target
		| if length == 0 then "met" else "**not met** by \(join(", "))" end)
	+ ".",
	"",
	"### Exec storm: fork+exec of /bin/true for \($p.exec_storm_seconds) s",
	"",
	"| tracer | CPU µs per exec | cost vs untraced | wall execs/s | execs reported | tracer CPU ms / 1000 execs | peak RSS |",
	"|---|---|---|---|---|---|---|",
	(
		["untraced", "none"],
		["bpfkit", "bpfkit execsnoop"],
		["libbpf-tools", "libbpf-tools execsnoop"],
		["bpftrace", "bpftrace one-liner"]
		| . as [$v, $name] | $r.execstorm[$v] as $x
		| [$name, ($x.us_per_exec | span(0)), ($x.cost_vs_untraced | times(2)),
		   ($x.rate | span(0)),
		   (if $x.missed == null then "–"
		    elif $x.missed.max <= 0 then "all"
		    else "**\($x.missed.max) missed** (worst run)" end),
		   ($x.tracer_cpu_ms_per_1000 | span(1)), ($x.rss_kb | rss)]
		| row
	),
	"",
	"### Syscall storm: \($p.syscall_storm_calls) getppid calls under a syscall counter",
	"",
	"| tracer | ns per call | cost vs untraced | ns added | wall calls/s (M) | getppid counted (min) | peak RSS |",
	"|---|---|---|---|---|---|---|",
	(
		["untraced", "none"],
		["bpfkit", "bpfkit syscount"],
		["libbpf-tools", "libbpf-tools syscount"],
		["bpftrace", "bpftrace one-liner"]
		| . as [$v, $name] | $r.syscallstorm[$v] as $x
		| [$name, ($x.ns_per_call | span(0)), ($x.cost_vs_untraced | times(2)),
		   (if $v == "untraced" then "–" else $x.added | span(0) end),
		   ($x.rate | span(1e-6; 2)), ($x.counted.min | num(0)),
		   ($x.rss_kb | rss)]
		| row
	),
	"",
	"### Latency: isolated execs \($p.lone_gap_ms) ms apart, execve to the line at a pipe reader",
	"",
	"| tracer | median, ms | p99, ms | min–max, ms | execs |",
	"|---|---|---|---|---|",
	(
		["perf", "bpfkit execsnoop (perf buffer)"],
		["ring", "bpfkit execsnoop (`--ringbuf`)"],
		["libbpf-tools", "libbpf-tools execsnoop (wakes per event)"]
		| . as [$v, $name] | ($r.latency // {})[$v] as $x
		| [$name, ($x.latency_ms.median | num(2)),
		   ($x.latency_ms.p99 | num(2)),
		   "\($x.latency_ms.min | num(2))–\($x.latency_ms.max | num(2))",
		   ($x.reps | num(0))]
		| row
	),
	"",
	"Targets: an isolated exec's line within \(.targets.lone_exec_median_ms_target) ms "
	+ "at the median and \(.targets.lone_exec_p99_ms_target) ms at p99 on both "
	+ "transports: \(yes(.targets.lone_exec_met)).",
	"### Context-switch storm: \($p.switch_storm_passes) pipe passes between two processes on one CPU",
	"",
	"Each pass is one wakeup and one context switch; the floor is a program",
	"on runqlat's three tracepoints that only increments a per-CPU counter.",
	"",
	"| tracer | ns per pass | cost vs untraced | ns added | added vs floor | BPF ns per pass | BPF vs floor | peak RSS |",
	"|---|---|---|---|---|---|---|---|",
	(
		["untraced", "none"],
		["floor", "floor (tests/progs/switchfloor)"],
		["bpfkit", "bpfkit runqlat"],
		["libbpf-tools", "libbpf-tools runqlat"]
		| . as [$v, $name] | $r.switchstorm[$v] as $x
		| [$name, ($x.ns_per_call | span(0)), ($x.cost_vs_untraced | times(2)),
		   (if $v == "untraced" then "–" else $x.added | span(0) end),
		   (if $v == "untraced" or $v == "floor" then "–"
		    else [$x.added.median, $r.switchstorm.floor.added.median]
			| if any(. == null) or .[1] == 0 then "–"
			  else (.[0] / .[1] | num(2)) + "x" end end),
		   ($x.bpf_ns_per_call | span(0)),
		   (if $v == "untraced" or $v == "floor" then "–"
		    else [$x.bpf_ns_per_call.median,
			  $r.switchstorm.floor.bpf_ns_per_call.median]
			| if any(. == null) or .[1] == 0 then "–"
			  else (.[0] / .[1] | num(2)) + "x" end end),
		   ($x.rss_kb | rss)]
		| row
	),
	"",
	(select($r.throttle) | $r.throttle as $t
	| "### Throttled events: \($p.syscall_storm_calls) getppid calls",
	"",
	"What a throttled event adds to its call: the storm program with",
	"`--rate-limit 1` (every record throttled in the kernel but one in two",
	"seconds a CPU) against the floor, a program on the same tracepoint",
	"that only increments a per-CPU counter (tests/progs/callfloor).",
	"",
	"| tracer | ns per call | cost vs untraced | ns added | added vs floor |",
	"|---|---|---|---|---|",
	(
		["untraced", "none"],
		["floor", "floor (tests/progs/callfloor)"],
		["throttled", "storm `--rate-limit 1`"]
		| . as [$v, $name] | $t[$v] as $x
		| [$name, ($x.ns_per_call | span(0)), ($x.cost_vs_untraced | times(2)),
		   (if $v == "untraced" then "–" else $x.added | span(0) end),
		   (if $v != "throttled" then "–"
		    else [$x.added.median, $t.floor.added.median]
			| if any(. == null) or .[1] == 0 then "–"
			  else (.[0] / .[1] | num(2)) + "x" end end)]
		| row
	),
	"",
	([$t.throttled.added.median, $t.floor.added.median] as [$a, $f]
	| "Target: a throttled event adds at most 1.5x the floor's cost: "
	+ (if $a == null or $f == null or $f == 0 then "not measured"
	   else "\($a / $f | num(2))x, \(yes($a / $f <= 1.5))" end) + "."),
	([$r.delivery["perf-limited"].reader_cpu_ns.median,
	  $r.delivery.perf.reader_cpu_ns.median] as [$l, $u]
	| "Target: the delivery storm's reader under `--rate-limit 1000` takes "
	+ "at most a tenth of the unlimited run's CPU: "
	+ (if $l == null or $u == null or $u == 0 then "not measured"
	   else "\($l / $u | num(3))x, \(yes($l / $u <= 0.1))" end) + "."),
	""),
	(select($r.tools) | $r.tools as $t
	| "### Tools: each tool's tracepoints driven by a workload",
	"",
	"Per event: reads and writes of a tmpfs file (rw: \($p.tool_events) a run),",
	"fsyncs (\($p.tool_events)), files created and unlinked on tmpfs (create:",
	"\($p.tool_files)), O_DIRECT 4 KiB reads of a loop device (io: \($p.tool_ios)),",
	"buffered 4 KiB reads of it dropped from the page cache (cache: \($p.tool_ios)),",
	"listens (\($p.tool_files)), loopback TCP messages (tcp: \($p.tool_events)),",
	"pipe passes between two processes on one CPU (switch: \($p.tool_events)),",
	"futex turns between two threads (futex: \($p.tool_events)), setuid(2)",
	"capability checks (cap: \($p.tool_files)), renames by two threads in one",
	"tmpfs directory (rename: \($p.tool_files)).",
	"ns added: the workload's CPU per event above the untraced run's; the",
	"floor (tests/progs/tpfloor) is one per-CPU counter increment on the",
	"tracepoints the tool attached. BPF: the programs' own run time per",
	"event (BENCH_BPF_STATS=1). The timed floor (tpfloor --timed), for a tool",
	"on syscall entries and exits: the least a tool timing a call does, the",
	"entry's time kept in the task's storage and the time taken counted at",
	"the exit. Ratios: median of the per-repetition ratios (min–max); an",
	"added cost within the noise can come out negative.",
	"Target: at most libbpf-tools' where it attaches here, else 1.2x the floor.",
	"",
	"| tool | workload | untraced ns | floor ns added | ns added | vs floor | libbpf-tools ns added | vs libbpf-tools | floor BPF ns | BPF ns | BPF vs floor | timed floor BPF ns | BPF vs timed floor | libbpf-tools BPF ns | BPF vs libbpf-tools | baseline ns added | baseline BPF ns | BPF vs baseline | tracer CPU ns | peak RSS |",
	"|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
	(
		[$t | keys[] | split(":")[0]] | unique[] as $tool
		| ($p.tools_row | split("\n") | map(split(" ") | select(.[0] == $tool))[0][1]) as $kind
		| $t["\($tool):untraced"] as $u | $t["\($tool):floor"] as $f
		| $t["\($tool):timed"] as $tf
		| $t["\($tool):bpfkit"] as $b | $t["\($tool):libbpf-tools"] as $l
		| $t["\($tool):baseline"] as $o
		| [$tool, $kind // "–", ($u.ns_per_call | span(0)),
		   ($f.added | span(0)), ($b.added | span(0)),
		   ($b.vs_floor | times(2)), ($l.added | span(0)),
		   ($b.vs_peer | times(2)), ($f.bpf_ns_per_call | span(0)),
		   ($b.bpf_ns_per_call | span(0)), ($b.bpf_vs_floor | times(2)),
		   ($tf.bpf_ns_per_call | span(0)), ($b.bpf_vs_timed | times(2)),
		   ($l.bpf_ns_per_call | span(0)), ($b.bpf_vs_peer | times(2)),
		   ($o.added | span(0)), ($o.bpf_ns_per_call | span(0)),
		   ($b.bpf_vs_baseline | times(2)),
		   ($b.tracer_ns_per_event | span(1)), ($b.rss_kb | rss)]
		| row
	),
	""),
	"### I/O storm: \($p.io_storm_reads) O_DIRECT reads of 4 KiB from a loop device",
	"",
	"CPU of the reading thread: the issue side of each I/O.",
	"",
	"| tracer | ns per read | cost vs untraced | ns added | BPF ns per read | wall reads/s | peak RSS |",
	"|---|---|---|---|---|---|---|",
	(
		["untraced", "none"],
		["bpfkit", "bpfkit biolatency"],
		["libbpf-tools", "libbpf-tools biolatency"]
		| . as [$v, $name] | $r.iostorm[$v] as $x
		| [$name, ($x.ns_per_call | span(0)), ($x.cost_vs_untraced | times(2)),
		   (if $v == "untraced" then "–" else $x.added | span(0) end),
		   ($x.bpf_ns_per_call | span(0)), ($x.rate | span(0)),
		   ($x.rss_kb | rss)]
		| row
	),
	"",
	"### Memory: RSS of each histogram tool, peak and after 2 s attached",
	"",
	"| tool | bpfkit peak | libbpf-tools peak | peak ratio | bpfkit now | libbpf-tools now | now ratio |",
	"|---|---|---|---|---|---|---|",
	(
		($r.memory // {}) as $m
		| ("runqlat", "cpudist", "biolatency", "biosnoop", "softirqs",
		   "hardirqs")
		| . as $t
		| [$t] + ([("rss_kb_" + $t), ("now_kb_" + $t)]
			| map(. as $k
				| [$m.bpfkit[$k], $m["libbpf-tools"][$k]] as $x
				| [$x[].median] as $v
				| ($x[0] | rss), ($x[1] | rss),
				  (if any($v[]; . == null) then "–"
				   else ($v[0] / $v[1] | num(2)) + "x" end)))
		| row
	),
	"",
	(select($r.containers)
		| "### Containers: execsnoop --containers, 100 processes each running /bin/true once a second",
		"",
		"In 100 podman containers, or on the host; from 3 s to 6 s after",
		"attaching, its events and the bytes it read (the run loop's timer",
		"reads 8 bytes a tick; a file read per event would read hundreds).",
		"",
		"| processes | containers named | peak RSS | events, 3-6 s | bytes read per event, 3-6 s |",
		"|---|---|---|---|---|",
		(["host", "100 on the host"], ["containers", "100 in containers"]
			| . as [$v, $name] | $r.containers[$v] | select(.)
			| [$name, (.named | span(0)), (.rss_kb | rss),
			   (.window_events | span(0)), (.read_bytes_per_event | span(2))]
			| row),
		"",
		"Target: peak RSS at most \(.targets.containers_rss_growth_kb_target) KiB "
		+ "more with 100 containers known: "
		+ "\($r.containers.containers.rss_growth_kb | span(0)) KiB, "
		+ "\(yes((.targets.containers_rss_growth_kb // 1e9) <= .targets.containers_rss_growth_kb_target)).",
		""),
	"### Metrics: \($p.scrapes) scrapes of syscount -P with \($p.scrape_series) processes' series",
	"",
	"The tool's own CPU per scrape, from its process_cpu_seconds_total.",
	"",
	"| tool | series | CPU per scrape, ms | wall per scrape, ms | bytes |",
	"|---|---|---|---|---|",
	(
		($r.scrape // {}).bpfkit as $x
		| ["bpfkit syscount --metrics", ($x.series | med(1; 0)),
		   ($x.cpu_ms | span(3)), ($x.wall_ms | span(3)),
		   ($x.bytes | med(1; 0))]
		| row
	),
	"",
	"Target: a scrape under \(.targets.scrape_cpu_ms_target) ms of the tool's CPU: "
	+ "\(yes(.targets.scrape_met)).",
	"",
	"### Connect storm: \($p.conn_storm_sessions) TCP sessions on loopback, connect to close",
	"",
	"CPU of the connecting thread, which on loopback also runs both ends'",
	"softirq work: the TCP state changes the tracers' programs see.",
	"",
	"| tracer | ns per session | cost vs untraced | ns added | wall sessions/s | peak RSS |",
	"|---|---|---|---|---|---|",
	(
		["untraced", "none"],
		["tcplife", "bpfkit tcplife"],
		["tcpconnect", "bpfkit tcpconnect"],
		["libbpf-tools", "libbpf-tools tcplife"]
		| . as [$v, $name] | ($r.connstorm // {})[$v] as $x
		| select($x)
		| [$name, ($x.ns_per_call | span(0)), ($x.cost_vs_untraced | times(2)),
		   (if $v == "untraced" then "–" else $x.added | span(0) end),
		   ($x.rate | span(0)), ($x.rss_kb | rss)]
		| row
	),
	"",
	"### Profile: cpu-spin, \($p.profile_spins) iterations of CPU-bound work, under a whole-machine stack sampler",
	"",
	"Slowdown: the workload's CPU per iteration and its wall-clock time against the untraced run; the sampler's own CPU while the workload ran (bpfkit's symbolization at exit apart, per unique stack it printed).",
	"",
	"| sampler | Hz | workload CPU vs untraced | workload wall time vs untraced | sampler CPU, ms | samples | unique stacks | symbolization, ms | per unique stack, us |",
	"|---|---|---|---|---|---|---|---|---|",
	(
		["bpfkit:49", "bpfkit profile"], ["bpfkit:999", "bpfkit profile"],
		["perf:49", "`perf record -g -a`"], ["perf:999", "`perf record -g -a`"],
		["libbpf-tools:49", "libbpf-tools profile"],
		["libbpf-tools:999", "libbpf-tools profile"]
		| . as [$v, $name] | ($r.profile // {})[$v] as $x
		| select($x)
		| [$name, ($v | split(":")[1]), ($x.cost_vs_untraced | times(3)),
		   (if $x.wall_vs_untraced then 1 / $x.wall_vs_untraced.median | num(3) | . + "x" else "–" end),
		   ($x.sampler_cpu_ms | span(0)), ($x.samples | span(0)),
		   ($x.unique_stacks | span(0)), ($x.symbolize_ms | span(1)),
		   ($x.symbolize_us_per_stack | span(0))]
		| row
	),
	"",
	"### Binary sizes",
	"",
	"| binary | linked | file | stripped | stripped + shared libraries |",
	"|---|---|---|---|---|",
	(.sizes[] | [.name, .kind, (.bytes | kib), (.stripped | kib),
		     ((.stripped + .libs) | mib)] | row),
	"",
	"\(.machine.date): Linux \(.machine.kernel), \(.machine.cpu_model), "
	+ "\(.machine.cpus) CPUs, "
	+ "load average \(.machine.loadavg_start) at start, "
	+ "\(.machine.loadavg_end) at end; BPF programs loaded by others: "
	+ "\(.machine.other_bpf_programs_start) at start, "
	+ "\(.machine.other_bpf_programs_end) at end; \($p.reps) repetitions in "
	+ "\(.machine.seconds) s; libbpf-tools \($p.libbpf_tools), \($p.bpftrace).",
	"bpftrace's execsnoop: `\($p.bpftrace_execsnoop)`; its syscount: "
	+ "`\($p.bpftrace_syscount)`.",
	(.skipped[] | "Skipped: \(.)")
] | .[]
