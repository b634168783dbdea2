#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Prometheus metrics (--metrics, --textfile): promtool accepts every tool's
# /metrics; a real Prometheus scraping syscount and biolatency every second
# sees exactly the calls and reads a test made; node_exporter's textfile
# collector serves --textfile's file; bad requests neither crash the tool,
# nor block a scrape, nor change a value. Ports are free loopback ports
# picked at run time.

bats_require_minimum_version 1.5.0
load helpers
load blockio

setup() {
	require_root
	GO=$BATS_TEST_TMPDIR/go
	PROM_PID=
	EXPORTER_PID=
	SYSCOUNT_PID=
}

eval "blockio_$(declare -f teardown)"
teardown() {
	local pid
	for pid in $PROM_PID $EXPORTER_PID $SYSCOUNT_PID; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	rm -rf "$BATS_TEST_TMPDIR/prometheus-data"
	blockio_teardown
}

# trigger VAR COMM N: sysc-trigger named COMM, waiting for $GO to make N
# getppid calls; VAR is its pid.
trigger() {
	local out=$BATS_TEST_TMPDIR/$1
	"$HELPERS/sysc-trigger" "$2" "$GO" "$3" >"$out" &
	printf -v "$1" %s "$!"
	wait_for "$out" '^[0-9]+$' 5
}

# run_trigger COMM N: N getppid calls by a process named COMM, to the end.
run_trigger() {
	rm -f "$GO"
	trigger T "$1" "$2"
	touch "$GO"
	wait "$T"
}

# start_prometheus TARGET...: a Prometheus scraping each TARGET (host:port)
# every second, on a port of its own (PROM_PORT), with its data in the
# test's directory; returns once it is ready.
start_prometheus() {
	local cfg=$BATS_TEST_TMPDIR/prometheus.yml t targets=
	command -v prometheus >/dev/null ||
		skip "no prometheus (tools/deps.sh test installs it)"
	for t; do targets+="${targets:+, }'$t'"; done
	cat >"$cfg" <<-EOF
		global:
		  scrape_interval: 1s
		  scrape_timeout: 1s
		scrape_configs:
		  - job_name: bpfkit
		    static_configs:
		      - targets: [$targets]
	EOF
	PROM_PORT=$(free_port)
	prometheus --config.file="$cfg" \
		--storage.tsdb.path="$BATS_TEST_TMPDIR/prometheus-data" \
		--web.listen-address="127.0.0.1:$PROM_PORT" \
		>"$BATS_TEST_TMPDIR/prometheus.log" 2>&1 &
	PROM_PID=$!
	local i
	for ((i = 0; i < 200 * TIME_SCALE; i++)); do
		curl -sf "http://127.0.0.1:$PROM_PORT/-/ready" >/dev/null && return 0
		sleep 0.1
	done
	echo "# prometheus did not get ready:" >&3
	tail -5 "$BATS_TEST_TMPDIR/prometheus.log" | sed 's/^/# /' >&3
	return 1
}

# query EXPR: the value of Prometheus's instant query EXPR ("" if none).
query() {
	curl -sf "http://127.0.0.1:$PROM_PORT/api/v1/query" \
		--data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // ""'
}

# wait_query EXPR VALUE: until EXPR is VALUE, 20 s (times TIME_SCALE) at most.
wait_query() {
	local i v
	for ((i = 0; i < 100 * TIME_SCALE; i++)); do
		v=$(query "$1")
		[ "$v" = "$2" ] && return 0
		sleep 0.2
	done
	echo "# $1 is '$v', not $2" >&3
	return 1
}

# The tools that offer --metrics, from the build.
metrics_tools() {
	local t
	for t in "$BIN"/*; do
		"$t" --help 2>/dev/null | grep -q -- '--metrics=ADDR:PORT' &&
			basename "$t"
	done
}

@test "metrics: promtool check metrics accepts every tool's /metrics" {
	command -v promtool >/dev/null ||
		skip "no promtool (tools/deps.sh test installs prometheus)"
	local t port n=0
	for t in $(metrics_tools); do
		port=$(free_port)
		start_tool "$t" $(plain_args "$t") --metrics "127.0.0.1:$port"
		scrape "$port" >"$BATS_TEST_TMPDIR/$t.prom"
		stop_tool
		[ "$TOOL_STATUS" = 0 ]
		# Without --print the terminal output is off.
		[ ! -s "$OUT" ]
		promtool check metrics <"$BATS_TEST_TMPDIR/$t.prom" || {
			echo "# promtool refused $t's metrics" >&3
			return 1
		}
		grep -q "^bpfkit_build_info{tool=\"$t\",version=\"[^\"]*\"} 1$" \
			"$BATS_TEST_TMPDIR/$t.prom"
		grep -q '^process_resident_memory_bytes [1-9]' "$BATS_TEST_TMPDIR/$t.prom"
		n=$((n + 1))
	done
	echo "# $n tools" >&3
	[ "$n" -ge 20 ]
	# Their own families: counters, histograms, the channel's health and
	# the programs' run counts.
	grep -q '^bpfkit_syscount_syscalls_total{syscall="[a-z0-9_]*"} [0-9]' \
		"$BATS_TEST_TMPDIR/syscount.prom"
	grep -q '^bpfkit_runqlat_run_queue_latency_seconds_bucket{le="+Inf"} ' \
		"$BATS_TEST_TMPDIR/runqlat.prom"
	grep -q '^bpfkit_lost_events_total{reason="buffer_full"} 0$' \
		"$BATS_TEST_TMPDIR/execsnoop.prom"
	grep -q '^bpfkit_bpf_program_runs_total{program="[a-z_]*"} [0-9]' \
		"$BATS_TEST_TMPDIR/execsnoop.prom"
}

@test "metrics: Prometheus sees exactly 5000 more getppid calls from syscount, and exactly 37 more reads in biolatency's _count" {
	local comm sport bport
	comm=$(unique_comm)
	make_loop
	sport=$(free_port)
	bport=$(free_port)
	"$BIN/syscount" -c "$comm" --metrics "127.0.0.1:$sport" \
		>/dev/null 2>"$BATS_TEST_TMPDIR/syscount.err" &
	SYSCOUNT_PID=$!
	start_tool biolatency -D --metrics "127.0.0.1:$bport"
	wait_for "$BATS_TEST_TMPDIR/syscount.err" 'tracing' 20
	start_prometheus "127.0.0.1:$sport" "127.0.0.1:$bport"

	# A first count, seen by Prometheus, then exactly 5000 more.
	run_trigger "$comm" 100
	wait_query "bpfkit_syscount_syscalls_total{syscall=\"getppid\",instance=\"127.0.0.1:$sport\"}" 100
	run_trigger "$comm" 5000
	wait_query "bpfkit_syscount_syscalls_total{syscall=\"getppid\",instance=\"127.0.0.1:$sport\"}" 5100

	read_direct 3 0
	wait "$READER"
	wait_query "bpfkit_biolatency_request_seconds_count{disk=\"$LOOP_NAME\"}" 3
	read_direct 37 3
	wait "$READER"
	wait_query "bpfkit_biolatency_request_seconds_count{disk=\"$LOOP_NAME\"}" 40
	# The buckets add up to the count.
	[ "$(query "bpfkit_biolatency_request_seconds_bucket{disk=\"$LOOP_NAME\",le=\"+Inf\"}")" = 40 ]
	[ "$(query "up{instance=\"127.0.0.1:$sport\"}")" = 1 ]

	kill -INT "$SYSCOUNT_PID"
	wait "$SYSCOUNT_PID"
	SYSCOUNT_PID=
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	kill "$PROM_PID"
	wait "$PROM_PID" || true
	PROM_PID=
	rm -rf "$BATS_TEST_TMPDIR/prometheus-data"
	[ ! -e "$BATS_TEST_TMPDIR/prometheus-data" ]
}

@test "metrics: node_exporter's textfile collector serves --textfile's bpfkit_syscount.prom" {
	command -v prometheus-node-exporter >/dev/null ||
		skip "no prometheus-node-exporter (tools/deps.sh test installs it)"
	local comm dir=$BATS_TEST_TMPDIR/textfile port
	comm=$(unique_comm)
	mkdir "$dir"
	start_tool syscount -c "$comm" --textfile "$dir" -i 1
	port=$(free_port)
	prometheus-node-exporter --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$dir" \
		--web.listen-address="127.0.0.1:$port" \
		>"$BATS_TEST_TMPDIR/exporter.log" 2>&1 &
	EXPORTER_PID=$!
	run_trigger "$comm" 4321
	local i line=
	for ((i = 0; i < 100 * TIME_SCALE; i++)); do
		line=$(scrape "$port" | grep '^bpfkit_syscount_syscalls_total{syscall="getppid"}' || true)
		[ "$line" = 'bpfkit_syscount_syscalls_total{syscall="getppid"} 4321' ] && break
		sleep 0.2
	done
	[ "$line" = 'bpfkit_syscount_syscalls_total{syscall="getppid"} 4321' ]
	# Written by rename: no temporary file is left beside it.
	[ "$(ls "$dir")" = bpfkit_syscount.prom ]
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "metrics: 200 bad requests, a 1 MB header and idle connections neither crash syscount nor block a scrape nor change its values" {
	local comm port
	comm=$(unique_comm)
	port=$(free_port)
	start_tool syscount -c "$comm" --metrics "127.0.0.1:$port"
	run_trigger "$comm" 777
	# Answers: 405 for POST, 404 elsewhere, 200 for / and /metrics.
	[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://127.0.0.1:$port/metrics")" = 405 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/nothing")" = 404 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")" = 200 ]
	run python3 - "$port" "$((5 * TIME_SCALE))" <<-'EOF'
		import random, socket, sys, time
		port, limit = int(sys.argv[1]), float(sys.argv[2])
		def conn():
		    s = socket.create_connection(("127.0.0.1", port), timeout=limit)
		    return s
		def scrape():
		    t = time.monotonic()
		    s = conn()
		    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
		    data = b""
		    while True:
		        d = s.recv(65536)
		        if not d:
		            break
		        data += d
		    s.close()
		    assert data.startswith(b"HTTP/1.1 200 OK\r\n"), data[:80]
		    assert time.monotonic() - t < limit
		    return data
		# Idle connections, more than the responder holds, kept open.
		idle = [conn() for _ in range(40)]
		scrape()
		# A 1 MB header: refused (431) or cut off, never served.
		s = conn()
		try:
		    s.sendall(b"GET /metrics HTTP/1.1\r\nX: " + b"a" * (1 << 20))
		except OSError:
		    pass
		s.close()
		# The table: methods, versions, targets, framing, bytes.
		cases = [b"POST /metrics HTTP/1.1\r\n\r\n", b"PUT / HTTP/1.1\r\n\r\n",
		         b"DELETE /metrics HTTP/1.0\r\n\r\n", b"HEAD /metrics HTTP/1.1\r\n\r\n",
		         b"GET /metrics HTTP/2.0\r\n\r\n", b"GET /metrics HTTP/9\r\n\r\n",
		         b"GET /metrics\r\n\r\n", b"GET\r\n\r\n", b"\r\n\r\n", b"\n",
		         b"GET metrics HTTP/1.1\r\n\r\n", b"GET /metrics HTTP/1.1\r\nbad\r\n\r\n",
		         b"GET /metrics HTTP/1.1\r\n folded\r\n\r\n", b"GET /../etc/passwd HTTP/1.1\r\n\r\n",
		         b"GET /metrics\x00 HTTP/1.1\r\n\r\n", b"G\xffT / HTTP/1.1\r\n\r\n",
		         b"GET /" + b"m" * 9000 + b" HTTP/1.1\r\n\r\n", b"GET / HTTP/1.1\r\n" + b"H: v\r\n" * 2000,
		         b"GET /metrics HTTP/1.1\r\n", b"GET /metr", b""]
		rnd = random.Random(19)
		while len(cases) < 200:
		    base = bytearray(rnd.choice(cases[:16]) or b"GET / HTTP/1.1\r\n\r\n")
		    for _ in range(rnd.randint(1, 8)):
		        base[rnd.randrange(len(base))] = rnd.randrange(256)
		    cases.append(bytes(base))
		for i, c in enumerate(cases):
		    s = conn()
		    try:
		        s.sendall(c)
		        # The end of the request: an incomplete one is dropped
		        # at once, not at its time limit.
		        s.shutdown(socket.SHUT_WR)
		        s.recv(4096)
		    except OSError:
		        pass
		    s.close()
		    if i % 50 == 0:
		        scrape()
		body = scrape()
		for s in idle:
		    s.close()
		sys.stdout.write(body.decode())
	EOF
	echo "$output" | tail -3 | sed 's/^/# /' >&3
	[ "$status" = 0 ]
	# The value is still exactly what the trigger did.
	echo "$output" | grep -qx 'bpfkit_syscount_syscalls_total{syscall="getppid"} 777'
	scrape "$port" | grep -qx 'bpfkit_syscount_syscalls_total{syscall="getppid"} 777'
	# Still alive, and it stops as usual.
	kill -0 "$TOOL_PID"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "metrics: --max-series folds the smallest series into 'other' and says how many" {
	local port
	port=$(free_port)
	start_tool syscount --metrics "127.0.0.1:$port" --max-series 3
	scrape "$port" >"$BATS_TEST_TMPDIR/m"
	stop_tool
	[ "$(grep -c '^bpfkit_syscount_syscalls_total{' "$BATS_TEST_TMPDIR/m")" = 3 ]
	grep -q '^bpfkit_syscount_syscalls_total{syscall="other"} [1-9]' "$BATS_TEST_TMPDIR/m"
	grep -q '^bpfkit_metrics_folded_series{family="bpfkit_syscount_syscalls_total"} [1-9]' \
		"$BATS_TEST_TMPDIR/m"
}

@test "metrics: --metrics-labels pid,comm labels syscount -P's processes; --print keeps the terminal output" {
	local comm port
	comm=$(unique_comm)
	port=$(free_port)
	trigger A "$comm" 250
	start_tool syscount -P -p "$A" --metrics "127.0.0.1:$port" --metrics-labels pid,comm --print
	touch "$GO"
	wait "$A"
	scrape "$port" | grep -qx "bpfkit_syscount_syscalls_total{pid=\"$A\",comm=\"$comm\"} [0-9]*"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# --print: the table at exit, as without metrics.
	grep -Eq "^$A +$comm +[0-9]+$" "$OUT"
}

@test "metrics: as nobody with only CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH, syscount serves the exact count" {
	local comm port caps=+bpf,+perfmon,+dac_read_search
	comm=$(unique_comm)
	port=$(free_port)
	# As start_tool does, through setpriv.
	OUT=$BATS_TEST_TMPDIR/out ERR=$BATS_TEST_TMPDIR/err
	cd /
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps="$caps" \
		--ambient-caps="$caps" "$BIN/syscount" -c "$comm" \
		--metrics "127.0.0.1:$port" >"$OUT" 2>"$ERR" &
	TOOL_PID=$!
	wait_for "$ERR" 'tracing; hit Ctrl-C to end' 20
	run_trigger "$comm" 321
	scrape "$port" | grep -qx 'bpfkit_syscount_syscalls_total{syscall="getppid"} 321'
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "metrics: bad metrics options and a port in use fail in one line" {
	local port
	for args in "--metrics 9435" "--metrics host:1" "--metrics-labels uid" \
		"--max-series 0" "--textfile /nonexistent" "--print"; do
		run -2 "$BIN/syscount" $args
		[ "${#lines[@]}" = 1 ]
		echo "$output" | grep -q '^syscount: '
	done
	port=$(free_port)
	python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
print("listening", flush=True); time.sleep(30)' "$port" >"$BATS_TEST_TMPDIR/holder" &
	local holder=$!
	wait_for "$BATS_TEST_TMPDIR/holder" listening
	run -1 "$BIN/syscount" --metrics "127.0.0.1:$port"
	kill "$holder"
	wait "$holder" || true
	echo "$output" | grep -qx "syscount: cannot serve metrics on 127.0.0.1:$port: Address already in use; give a free ADDR:PORT to --metrics"
	[ "${#lines[@]}" = 1 ]
}
