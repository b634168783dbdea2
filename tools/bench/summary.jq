# SPDX-License-Identifier: GPL-2.0
# bench.json -> the one summary table of README.md's Performance section
# (jq -r). tools/bench/run writes it to BUILD/bench/summary.md and between
# README's two bench-summary markers. Medians only, each row's headline
# figure against its counterpart; bench.md keeps the spreads and the rest.
# A row the run did not measure is left out.

# N rounded to D decimals; a dash when missing.
def num($d): if . == null then "–"
	else (. * pow(10; $d) | round) / pow(10; $d) | tostring end;
# A stats object's median, scaled by S and rounded to D; a dash when missing.
def med($s; $d): if . == null then "–" else .median * $s | num($d) end;
def med($d): med(1; $d);
def times($d): if . == null then "–" else (.median | num($d)) + "x" end;
# The ratio of two stats objects' medians, as "0.42x"; a dash unless both
# are above 0 (an added cost within the noise can come out negative).
def over($a; $b): if $a == null or $b == null or $a.median <= 0
	or $b.median <= 0 then "–"
	else ($a.median / $b.median | num(2)) + "x" end;
def row: "| " + join(" | ") + " |";

.results as $r
| .params as $p
| .machine as $m
| ($r.startup // {}) as $st
| [
	"`make bench` on \($m.date | sub("T"; " ") | sub(":[0-9]+Z$"; " UTC")): "
	+ "Linux \($m.kernel), \($m.cpu_model // "CPU unknown"), "
	+ "\($m.cpus) cores, load average \($m.loadavg_start | split(" ")[0]) "
	+ "at the start; medians of \($p.reps) "
	+ "repetition\(if $p.reps == 1 then "" else "s" end) of "
	+ "\($p.rows | join(", ")).",
	"",
	"| measure | bpfkit | counterpart | bpfkit ÷ counterpart | note |",
	"|---|---|---|---|---|",
	(
		# Event delivery: one getppid() sending one 72-byte record.
		($r.delivery // {}) as $d
		| (["perf", "perf buffer"], ["ring", "ring buffer (`--ringbuf`)"])
		| . as [$v, $name] | $d[$v] | select(.)
		| ["delivery, \($name): a getppid() sending one record, vs untraced",
		   (.cost_vs_untraced | times(2)),
		   ($d.stock.cost_vs_untraced | times(1)),
		   (if .speedup_vs_stock then 1 / .speedup_vs_stock.median | num(2) + "x" else "–" end),
		   "counterpart: libbpf's stock perf buffer, woken per record; lost at most \(.lost.max | num(0)) of \($p.delivery_calls)"]
		| row
	),
	(
		# What the task's ids (containers) add to a record, in pairs.
		($r.delivery // {}) as $d
		| (["perf", "perf buffer"], ["ring", "ring buffer"])
		| . as [$v, $name] | $d[$v] | select(.vs_noids)
		| ["delivery, \($name): a record with the task's ids, vs without",
		   (.vs_noids | times(3)), "–", "–",
		   "\($d["pair-\($v)"].ids_ns_per_record | med(1)) ns per record, measured in pairs on one CPU; target 1.05x"]
		| row
	),
	(
		$r.containers // {} | select(.containers)
		| ["containers: execsnoop's peak RSS with 100 containers known, MiB",
		   (.containers.rss_kb | med(1 / 1024; 1)), (.host.rss_kb | med(1 / 1024; 1)),
		   "–",
		   "counterpart: 100 host processes; \(.containers.rss_growth_kb | med(0)) KiB more (target 1024), \(.containers.read_bytes_per_event | med(1)) bytes read per event"]
		| row
	),
	(
		$r.execstorm // {} | select(.bpfkit)
		| ["exec storm: execsnoop's CPU per 1000 execs, ms",
		   (.bpfkit.tracer_cpu_ms_per_1000 | med(1)),
		   (.["libbpf-tools"].tracer_cpu_ms_per_1000 | med(1)),
		   over(.bpfkit.tracer_cpu_ms_per_1000; .["libbpf-tools"].tracer_cpu_ms_per_1000),
		   "an exec costs \(.bpfkit.cost_vs_untraced | times(2)) untraced (libbpf-tools: \(.["libbpf-tools"].cost_vs_untraced | times(2)))"]
		| row
	),
	(
		$r.syscallstorm // {} | select(.bpfkit)
		| ["syscall storm: syscount's ns added per getppid()",
		   (.bpfkit.added | med(0)), (.["libbpf-tools"].added | med(0)),
		   over(.bpfkit.added; .["libbpf-tools"].added),
		   "a getppid() costs \(.bpfkit.cost_vs_untraced | times(2)) untraced (libbpf-tools: \(.["libbpf-tools"].cost_vs_untraced | times(2)))"]
		| row
	),
	(
		$r.switchstorm // {} | select(.bpfkit)
		| ["context-switch storm: runqlat's ns added per wakeup and switch",
		   (.bpfkit.added | med(0)), (.["libbpf-tools"].added | med(0)),
		   over(.bpfkit.added; .["libbpf-tools"].added),
		   "\(over(.bpfkit.added; .floor.added)) a floor program's (one per-CPU increment)"]
		| row
	),
	(
		$r.throttle // {} | select(.throttled)
		| ["throttled event: ns a throttled record adds to its getppid() (storm --rate-limit 1)",
		   (.throttled.added | med(0)), (.floor.added | med(0)),
		   over(.throttled.added; .floor.added),
		   "against a floor program's (tests/progs/callfloor: one per-CPU increment); target 1.5x"]
		| row
	),
	(
		$r.delivery // {} | select(.["perf-limited"] and .perf)
		| ["storm under --rate-limit 1000: the reader's CPU, ms",
		   (.["perf-limited"].reader_cpu_ns | med(1e-6; 2)),
		   (.perf.reader_cpu_ns | med(1e-6; 2)),
		   over(.["perf-limited"].reader_cpu_ns; .perf.reader_cpu_ns),
		   "against the same storm unlimited (delivery row's perf path); target 0.1x"]
		| row
	),
	(
		$r.iostorm // {} | select(.bpfkit)
		| ["I/O storm: biolatency's ns added per 4 KiB O_DIRECT read",
		   (.bpfkit.added | med(0)), (.["libbpf-tools"].added | med(0)),
		   over(.bpfkit.added; .["libbpf-tools"].added),
		   "a read costs \(.bpfkit.cost_vs_untraced | times(2)) untraced (libbpf-tools: \(.["libbpf-tools"].cost_vs_untraced | times(2)))"]
		| row
	),
	(
		$r.connstorm // {} | select(.tcplife or .tcpconnect) | . as $c
		| (["tcplife", "libbpf-tools"], ["tcpconnect", null])
		| . as [$v, $peer] | $c[$v] | select(.)
		| ["connect storm: \($v)'s ns added per loopback session",
		   (.added | med(0)),
		   (if $peer then $c[$peer].added | med(0) else "–" end),
		   (if $peer then over(.added; $c[$peer].added) else "–" end),
		   "a session costs \(.cost_vs_untraced | times(2)) untraced"
		   + (if $peer then " (libbpf-tools' tcplife: \($c[$peer].cost_vs_untraced | times(2)))" else "" end)]
		| row
	),
	(
		# The tools row: per tool, its BPF programs' run time per event
		# (or, without BENCH_BPF_STATS=1, the CPU it adds per event)
		# against libbpf-tools' counterpart where it attached, else the
		# floor on the same tracepoints.
		$r.tools // {} | . as $t
		| [keys[] | split(":")[0]] | unique[] as $tool
		| $t["\($tool):bpfkit"] as $b | select($b)
		| $t["\($tool):floor"] as $f
		| $t["\($tool):libbpf-tools"] as $l
		| (if $b.bpf_ns_per_call then "bpf_ns_per_call" else "added" end) as $k
		| (if $l[$k] then [$l, "libbpf-tools"] else [$f, "floor"] end) as [$c, $cname]
		| ["\($tool): \(if $k == "added" then "ns added" else "BPF ns" end) per event, counterpart: \($cname)",
		   ($b[$k] | med(0)), ($c[$k] | med(0)), over($b[$k]; $c[$k]),
		   "CPU added per event \($b.added | med(0)) ns, \(over($b.added; $c.added)) \(if $cname == "floor" then "the floor's" else "libbpf-tools'" end) (\($c.added | med(0)) ns); target \(if $cname == "floor" then "1.2x" else "1x" end) (floor: one per-CPU increment on the tool's tracepoints)"]
		| row
	),
	(
		$r.latency // {} | select(.perf or .ring) | . as $l
		| (["perf", "perf buffer"], ["ring", "`--ringbuf`"])
		| . as [$v, $name] | $l[$v] | select(.)
		| ["a lone exec to its line, execsnoop (\($name)), median ms",
		   (.latency_ms | med(2)), ($l["libbpf-tools"].latency_ms | med(2)),
		   over(.latency_ms; $l["libbpf-tools"].latency_ms),
		   "p99 \(.latency_ms.p99 | num(2)) ms (libbpf-tools: \($l["libbpf-tools"].latency_ms.p99 | num(2)))"]
		| row
	),
	(
		$r.profile // {} | select(.["bpfkit:999"])
		| ["profile at 999 Hz: a CPU-bound loop's CPU vs untraced",
		   (.["bpfkit:999"].cost_vs_untraced | times(3)),
		   (.["perf:999"].cost_vs_untraced | times(3)),
		   over(.["bpfkit:999"].cost_vs_untraced; .["perf:999"].cost_vs_untraced),
		   "counterpart: `perf record -g -a`; symbolizing at exit \(.["bpfkit:999"].symbolize_us_per_stack | med(0)) us per unique stack"]
		| row
	),
	(
		$r.scrape.bpfkit // empty
		| ["metrics: syscount's CPU per scrape of \(.series | med(0)) series, ms",
		   (.cpu_ms | med(2)), "–", "–", "\(.bytes | med(0)) bytes per scrape"]
		| row
	),
	(
		$st.floor // empty
		| ["start-up floor: one tracepoint program, libbpf alone, ms",
		   (.attached_ms | med(1)), "–", "–",
		   "tests/progs/startfloor; below, spawn to attached"]
		| row
	),
	(
		# A row per tool that has a counterpart here; the others folded
		# into one (bench.md lists each of them).
		$st | keys[] | select(startswith("bpfkit:")) | split(":")[1]
		| . as $t
		| $st["bpfkit:\($t)"] as $x
		| $st["libbpf-tools:\($t)"] as $y
		| select($y != null)
		| $st["phases:\($t)"] as $ph
		| ["start-up: \($t), ms", ($x.attached_ms | med(1)),
		   ($y.attached_ms | med(1)), ($x.vs_peer | times(2)),
		   ($ph.phase_kernel_btf_ms
			| if . == null then "–"
			  elif .median == 0 then "no kernel BTF"
			  else "kernel BTF \(med(1)) ms" end)]
		| row
	),
	(
		[$st | keys[] | select(startswith("bpfkit:")) | split(":")[1]
		 | select($st["libbpf-tools:\(.)"] == null)
		 | {t: ., ms: $st["bpfkit:\(.)"].attached_ms.median}
		 | select(.ms != null)] | sort_by(.ms)
		| select(length > 0)
		| ["start-up: the \(length) tools without a counterpart here, ms",
		   "median \(.[length / 2 | floor].ms | num(1)), at most \(.[-1].ms | num(1)) (\(.[-1].t))",
		   "–", "–", "each in build/bench/bench.md"]
		| row
	)
]
| .[]
