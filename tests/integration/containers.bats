#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Containers, with a real runtime: two podman containers run known
# workloads (an exec of a marker program, an open of a marker file, a
# loopback connect); execsnoop, opensnoop and tcpconnect label each event
# with its container's id and name (JSON and the CONTAINER column), a
# host process with none ("-"); pidns_pid is what `echo $$` prints inside;
# --container NAME shows only that container's events, counting the
# other's as filtered, and selects one that starts after the tool did.
#
# podman runs with a test-private configuration (CONTAINERS_CONF and
# CONTAINERS_STORAGE_CONF in the file's temporary directory): the cgroupfs
# manager and the file events logger (PID 1 need not be systemd), runc
# (crun refuses hybrid cgroup layouts with a v2 controller), the vfs
# storage driver and no network but loopback. The image is imported from a
# tarball of busybox-static alone: no registry, made in a blink.

bats_require_minimum_version 1.5.0
load helpers

IMAGE=localhost/bpfkit-test:latest

# pm ARG...: podman with this file's private configuration.
pm() {
	CONTAINERS_CONF=$PM_DIR/containers.conf \
		CONTAINERS_STORAGE_CONF=$PM_DIR/storage.conf podman "$@"
}

setup_file() {
	[ "$(id -u)" = 0 ] || return 0
	command -v podman >/dev/null || return 0
	command -v runc >/dev/null || return 0
	[ -x /bin/busybox ] || return 0
	PM_DIR=$BATS_FILE_TMPDIR/podman
	# The tools read container names where podman keeps them.
	export PM_DIR CONTAINERS_STORAGE_CONF=$PM_DIR/storage.conf
	mkdir -p "$PM_DIR/root/bin"
	cat >"$PM_DIR/containers.conf" <<-EOF
		[engine]
		cgroup_manager = "cgroupfs"
		events_logger = "file"
		events_logfile_path = "$PM_DIR/events.log"
		runtime = "runc"
		[containers]
		netns = "none"
		default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
	EOF
	cat >"$PM_DIR/storage.conf" <<-EOF
		[storage]
		driver = "vfs"
		graphroot = "$PM_DIR/storage"
		runroot = "$PM_DIR/run"
	EOF
	cp /bin/busybox "$PM_DIR/root/bin/"
	for a in sh true cat nc sleep echo; do
		ln -s busybox "$PM_DIR/root/bin/$a"
	done
	touch "$PM_DIR/root/marker-a" "$PM_DIR/root/marker-b"
	tar -C "$PM_DIR/root" -cf "$PM_DIR/image.tar" .
	pm import -q "$PM_DIR/image.tar" "$IMAGE" >/dev/null
	# Two containers, each with a unique name, idle until exec'd into.
	A=bk-a-$$
	B=bk-b-$$
	export A B
	A_ID=$(pm run -d --name "$A" "$IMAGE" /bin/sleep 1000)
	B_ID=$(pm run -d --name "$B" "$IMAGE" /bin/sleep 1000)
	export A_ID B_ID
}

teardown_file() {
	[ -n "${PM_DIR:-}" ] || return 0
	pm rm -f -t 0 -a >/dev/null 2>&1
	pm rmi -a -f >/dev/null 2>&1
	rm -rf "$PM_DIR" 2>/dev/null || true
}

setup() {
	require_root
}

# need_podman: SKIP, saying why, where podman cannot run the containers.
need_podman() {
	command -v podman >/dev/null ||
		skip "no podman (tools/deps.sh containers installs it)"
	command -v runc >/dev/null ||
		skip "no runc (tools/deps.sh containers installs it)"
	[ -x /bin/busybox ] ||
		skip "no /bin/busybox (busybox-static: tools/deps.sh containers)"
	[ -n "${A_ID:-}" ] && [ -n "${B_ID:-}" ] ||
		skip "podman could not run a container here"
}

# json_of FILE MARKER: the JSON line of FILE about an exec of /bin/...
# with MARKER among its args (not podman's own exec, which names it too),
# or an open of the path MARKER.
json_of() {
	jq -c --arg m "$2" 'select(.type != "summary") | (.args // []) as $a
		| select(((($a[0] // "") | startswith("/bin/")) and ($a | index($m)))
			 or (.path // "") == $m)' "$1" |
		head -1
}

@test "containers: execsnoop: each container's exec carries its id and name, the host's none; pidns_pid is what \$\$ is inside" {
	need_podman
	start_tool execsnoop -j
	pm exec "$A" /bin/true marker-a
	pm exec "$B" /bin/true marker-b
	/bin/true marker-h
	pid=$(pm exec "$A" /bin/sh -c 'echo $$; exec /bin/true marker-pid')
	wait_for "$OUT" marker-pid 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	a=$(json_of "$OUT" marker-a)
	b=$(json_of "$OUT" marker-b)
	h=$(json_of "$OUT" marker-h)
	p=$(json_of "$OUT" marker-pid)
	[ "$(jq -r .container.id <<<"$a")" = "$A_ID" ]
	[ "$(jq -r .container.name <<<"$a")" = "$A" ]
	[ "$(jq -r .container.runtime <<<"$a")" = podman ]
	[ "$(jq -r .container.id <<<"$b")" = "$B_ID" ]
	[ "$(jq -r .container.name <<<"$b")" = "$B" ]
	[ "$(jq -r 'has("container")' <<<"$h")" = false ]
	# The host's own namespaces and pid, the container's own.
	[ "$(jq -r .mntns <<<"$h")" = "$(stat -L -c %i /proc/self/ns/mnt)" ]
	[ "$(jq -r .pidns_pid <<<"$h")" = "$(jq -r .pid <<<"$h")" ]
	[ "$(jq -r .pidns_pid <<<"$p")" = "$pid" ]
	[ "$(jq -r .pid <<<"$p")" != "$pid" ]
	[ "$(jq -r .container.name <<<"$p")" = "$A" ]
	cpid=$(pm inspect -f '{{.State.Pid}}' "$A")
	[ "$(jq -r .mntns <<<"$a")" = "$(stat -L -c %i "/proc/$cpid/ns/mnt")" ]
	[ "$(jq -r .pidns <<<"$a")" = "$(stat -L -c %i "/proc/$cpid/ns/pid")" ]
	# cgroup v2's id is its directory's inode number (kernfs).
	cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	dir=$cg2$(sed -n 's/^0:://p' "/proc/$cpid/cgroup")
	[ "$(jq -r .cgroup_id <<<"$a")" = "$(stat -c %i "$dir")" ]
	[ "$(jq -r .cgroup_id <<<"$a")" != "$(jq -r .cgroup_id <<<"$h")" ]
}

@test "containers: execsnoop --containers: a CONTAINER column with the name, - for the host" {
	need_podman
	start_tool execsnoop --containers
	pm exec "$A" /bin/true marker-a
	/bin/true marker-h
	wait_for "$OUT" marker-h 10
	wait_for "$OUT" marker-a 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^CONTAINER +PCOMM'
	grep -Eq "^$A +true .* /bin/true marker-a" "$OUT"
	grep -Eq '^- +true .* /bin/true marker-h' "$OUT"
}

@test "containers: opensnoop: an open of a marker file inside each container carries its name" {
	need_podman
	start_tool opensnoop -j
	pm exec "$A" /bin/cat /marker-a
	pm exec "$B" /bin/cat /marker-b
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -r .container.name <<<"$(json_of "$OUT" /marker-a)")" = "$A" ]
	[ "$(jq -r .container.name <<<"$(json_of "$OUT" /marker-b)")" = "$B" ]
}

@test "containers: tcpconnect: a loopback connect inside a container carries its id and name" {
	need_podman
	start_tool tcpconnect -j
	pm exec "$A" /bin/sh -c \
		'nc -l -p 7071 >/dev/null & sleep 0.3; echo x | nc 127.0.0.1 7071; wait'
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	line=$(jq -c 'select(.dport == 7071)' "$OUT" | head -1)
	[ -n "$line" ]
	[ "$(jq -r .container.name <<<"$line")" = "$A" ]
	[ "$(jq -r .container.id <<<"$line")" = "$A_ID" ]
}

# a_session: a loopback session from container A to a server of the host's
# (its cgroup and mount namespace) in A's network namespace (nsenter
# --net): tcp-trigger's sink, which reads to the end and closes after the
# client (busybox nc) sent a line and shut its side, so that the client's
# last change (FIN_WAIT2 -> CLOSE, at the server's FIN) runs in the
# server's task, not the client's. Sets PORT, the server's.
a_session() {
	local cpid sink=$BATS_TEST_TMPDIR/sink spid
	cpid=$(pm inspect -f '{{.State.Pid}}' "$A")
	: >"$sink"
	nsenter -t "$cpid" -n "$HELPERS/tcp-trigger" bk-sink sink 127.0.0.1 0 \
		>"$sink" &
	spid=$!
	wait_for "$sink" '^sink [0-9]+$' 10
	PORT=$(sed -n 's/^sink //p' "$sink")
	pm exec "$A" /bin/sh -c "echo x | nc 127.0.0.1 $PORT"
	wait "$spid"
	grep -q '^sunk 2$' "$sink"
}

# a_session_traced TOOL ARG...: TOOL ARG... traces a_session and stops
# cleanly.
a_session_traced() {
	start_tool "$@"
	a_session
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

# A's mount namespace and the host's.
a_mntns() {
	stat -L -c %i "/proc/$(pm inspect -f '{{.State.Pid}}' "$A")/ns/mnt"
}

@test "containers: tcplife: a session's record names its owner's container, though sent from the peer's task; the host's server none" {
	need_podman
	a_session_traced tcplife -j
	client=$(jq -c --argjson p "$PORT" 'select(.dport == $p)' "$OUT")
	server=$(jq -c --argjson p "$PORT" 'select(.sport == $p)' "$OUT")
	[ -n "$client" ]
	[ -n "$server" ]
	[ "$(jq -r .container.name <<<"$client")" = "$A" ]
	[ "$(jq -r .container.id <<<"$client")" = "$A_ID" ]
	[ "$(jq -r .mntns <<<"$client")" = "$(a_mntns)" ]
	[ "$(jq -r .comm <<<"$client")" = nc ]
	[ "$(jq -r .comm <<<"$server")" = bk-sink ]
	[ "$(jq -r 'has("container")' <<<"$server")" = false ]
	[ "$(jq -r .mntns <<<"$server")" = "$(stat -L -c %i /proc/self/ns/mnt)" ]
}

@test "containers: tcplife --container NAME: its sessions only, sent from another task's too; a host session counted as filtered" {
	need_podman
	start_tool tcplife -j --container "$A"
	a_session
	"$HELPERS/tcp-trigger" bk-host session 127.0.0.1 10 10 0 >/dev/null
	sleep 0.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ -n "$(jq -c --argjson p "$PORT" 'select(.dport == $p)' "$OUT")" ]
	# The server's session (the host's) and the host's two are left out.
	[ "$(jq -r 'select(.type != "summary") | .container.name' "$OUT" | sort -u)" = "$A" ]
	[ "$(jq -r 'select(.type != "summary") | .comm' "$OUT" | sort -u)" = nc ]
	filtered=$(jq -r 'select(.type == "summary") | .filtered' "$OUT")
	[ "$filtered" -ge 3 ]
}

@test "containers: tcpstates: each change names the socket's owner's container; a change before the owner is known has zero ids, ? in the column" {
	need_podman
	a_session_traced tcpstates -j
	host=$(stat -L -c %i /proc/self/ns/mnt)
	# The client's, its CLOSE at the server's FIN included: A's.
	[ "$(jq -r --argjson p "$PORT" 'select(.dport == $p) | .newstate' "$OUT" | grep -c CLOSE)" -ge 1 ]
	[ "$(jq -r --argjson p "$PORT" 'select(.dport == $p) | .container.name' "$OUT" | sort -u)" = "$A" ]
	# The server's socket, from the listener's clone in softirq until its
	# owner closes it: zeros; from then on the host's.
	unknown=$(jq -c --argjson p "$PORT" 'select(.sport == $p and .newstate == "SYN_RECV")' "$OUT")
	[ -n "$unknown" ]
	[ "$(jq -r '[.cgroup_id, .mntns, .pidns, .pidns_pid] | join(" ")' <<<"$unknown")" = "0 0 0 0" ]
	[ "$(jq -r 'has("container")' <<<"$unknown")" = false ]
	[ "$(jq -r --argjson p "$PORT" 'select(.sport == $p and .newstate == "LAST_ACK") | .mntns' "$OUT")" = "$host" ]
	a_session_traced tcpstates --containers
	head -1 "$OUT" | grep -Eq '^CONTAINER +SKADDR'
	grep -Eq "^\? +[0-9a-f]+ +- +- .* $PORT .* LISTEN +SYN_RECV " "$OUT"
	grep -Eq "^$A +[0-9a-f]+ .* nc .* $PORT +FIN_WAIT2 +CLOSE " "$OUT"
	grep -Eq "^- +[0-9a-f]+ .* bk-sink .* $PORT .* CLOSE_WAIT +LAST_ACK " "$OUT"
}

@test "containers: tcpconnlat: a connect's latency names the connecting task's container" {
	need_podman
	a_session_traced tcpconnlat -j
	line=$(jq -c --argjson p "$PORT" 'select(.dport == $p)' "$OUT")
	[ -n "$line" ]
	[ "$(jq -r .container.name <<<"$line")" = "$A" ]
	[ "$(jq -r .mntns <<<"$line")" = "$(a_mntns)" ]
}

@test "containers: runqslower: a wait names the waiting task's container, not the one it took the CPU from" {
	need_podman
	hog=bk-hogr-$$
	pm run -d --name "$hog" "$IMAGE" /bin/sh -c 'while :; do :; done' >/dev/null
	hpid=$(pm inspect -f '{{.State.Pid}}' "$hog")
	start_tool runqslower -j 0
	sleep 2
	stop_tool
	pm rm -f -t 0 "$hog" >/dev/null
	[ "$TOOL_STATUS" = 0 ]
	# The hog's waits: its container's, pid 1 in its own pid namespace.
	mine=$(jq -c --argjson p "$hpid" 'select(.pid == $p)' "$OUT")
	[ -n "$mine" ]
	[ "$(jq -r .container.name <<<"$mine" | sort -u)" = "$hog" ]
	[ "$(jq -r .pidns_pid <<<"$mine" | sort -u)" = 1 ]
	# Other tasks' waits, sent as they took the CPU from the hog: not its.
	theirs=$(jq -c --argjson p "$hpid" 'select(.type != "summary" and .prev_pid == $p and .pid != $p)' "$OUT")
	[ -n "$theirs" ]
	[ -z "$(jq -c --arg c "$hog" 'select(.container.name == $c)' <<<"$theirs")" ]
}

@test "containers: execsnoop --container NAME: that container's events only, the other's counted as filtered" {
	need_podman
	start_tool execsnoop -j --container "$A"
	pm exec "$B" /bin/true marker-b
	pm exec "$A" /bin/true marker-a
	/bin/true marker-h
	wait_for "$OUT" marker-a 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ -z "$(json_of "$OUT" marker-b)" ]
	[ -z "$(json_of "$OUT" marker-h)" ]
	# Every record shown is the container's.
	[ "$(jq -r 'select(.type != "summary") | .container.name' "$OUT" | sort -u)" = "$A" ]
	filtered=$(jq -r 'select(.type == "summary") | .filtered' "$OUT")
	[ "$filtered" -ge 2 ]
	grep -Eq "execsnoop: [0-9]+ events, 0 lost, $filtered filtered" "$ERR"
}

@test "containers: execsnoop --container ID (a 12-digit prefix) and --host-only" {
	need_podman
	start_tool execsnoop -j --container "${B_ID:0:12}"
	pm exec "$A" /bin/true marker-a
	pm exec "$B" /bin/true marker-b
	wait_for "$OUT" marker-b 10
	stop_tool
	[ -z "$(json_of "$OUT" marker-a)" ]
	start_tool execsnoop -j --host-only
	pm exec "$A" /bin/true marker-a
	/bin/true marker-h
	wait_for "$OUT" marker-h 10
	stop_tool
	[ -z "$(json_of "$OUT" marker-a)" ]
	[ "$(jq -r 'select(.type != "summary") | has("container")' "$OUT" | sort -u)" = false ]
}

@test "containers: execsnoop --container NAME: a container started after the tool is selected by name" {
	need_podman
	late=bk-late-$$
	start_tool execsnoop -j --container "$late"
	grep -q "no container '$late' runs yet: waiting for one to start" "$ERR"
	pm exec "$A" /bin/true marker-a
	pm run --rm --name "$late" "$IMAGE" /bin/true marker-late
	wait_for "$OUT" marker-late 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	line=$(json_of "$OUT" marker-late)
	[ "$(jq -r .container.name <<<"$line")" = "$late" ]
	[ -z "$(json_of "$OUT" marker-a)" ]
}

@test "containers: runqlat --per-container: a CPU hog's container has its own histogram, named, in text and JSON" {
	need_podman
	hog=bk-hog-$$
	pm run -d --name "$hog" "$IMAGE" /bin/sh -c 'while :; do :; done' >/dev/null
	run -0 "$BIN/runqlat" --per-container -d 2
	text=$output
	run -0 --separate-stderr "$BIN/runqlat" --per-container -j -d 2
	pm rm -f -t 0 "$hog" >/dev/null
	# The hog is switched out and back in: its waits are counted.
	[[ $text == *"container = $hog"* ]]
	count=$(jq -r --arg c "$hog" 'select(.container == $c) | .count' <<<"$output" | head -1)
	[ "$count" -gt 0 ]
	# The host's own histogram too.
	[[ $text == *"container = - (mntns $(stat -L -c %i /proc/self/ns/mnt))"* ]]
	# A container that ran nothing has none.
	[[ $text != *"container = $A"* ]]
}

@test "containers: runqlat --container NAME: only its tasks' waits, of a container started after the tool too" {
	need_podman
	hog=bk-hogl-$$
	# B only sleeps: nothing of it waits on a run queue.
	start_tool runqlat -j --container "$B"
	sleep 1
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	count=$(jq -r 'select(.count != null) | .count' "$OUT" | tail -1)
	[ "$count" = 0 ]
	# The hog, started once the tool runs, is selected by its name.
	start_tool runqlat -j --container "$hog"
	grep -q "no container '$hog' runs yet: waiting for one to start" "$ERR"
	pm run -d --name "$hog" "$IMAGE" /bin/sh -c 'while :; do :; done' >/dev/null
	sleep 2.5
	stop_tool
	pm rm -f -t 0 "$hog" >/dev/null
	[ "$TOOL_STATUS" = 0 ]
	count=$(jq -r 'select(.count != null) | .count' "$OUT" | tail -1)
	[ "$count" -gt 0 ]
}

@test "containers: runqlat --metrics-labels container: a series per container" {
	need_podman
	hog=bk-hogm-$$
	port=$(free_port)
	pm run -d --name "$hog" "$IMAGE" /bin/sh -c 'while :; do :; done' >/dev/null
	start_tool runqlat --metrics "127.0.0.1:$port" --metrics-labels container
	sleep 1
	body=$(scrape "$port")
	stop_tool
	pm rm -f -t 0 "$hog" >/dev/null
	grep -Eq "^bpfkit_runqlat_run_queue_latency_seconds_count\{container=\"$hog\"\} [1-9]" <<<"$body"
	grep -Eq '^bpfkit_runqlat_run_queue_latency_seconds_count\{container="-"\} [1-9]' <<<"$body"
	run -2 "$BIN/runqlat" --metrics-labels container -P
	[ "${#lines[@]}" = 1 ]
	run -2 "$BIN/execsnoop" --metrics-labels container
	[ "${#lines[@]}" = 1 ]
}

@test "containers: --container: a malformed id or name is a usage error in one line" {
	run -2 "$BIN/execsnoop" --container 'a/b'
	[ "${#lines[@]}" = 1 ]
	[[ $output == *"invalid --container 'a/b'"* ]]
	run -2 "$BIN/execsnoop" --container x --host-only
	[ "${#lines[@]}" = 1 ]
}

@test "containers: systemd-nspawn: a machine's events carry its name" {
	[ "$(cat /proc/1/comm)" = systemd ] ||
		skip "PID 1 is $(cat /proc/1/comm), not systemd: systemd-nspawn cannot register its machine"
	command -v systemd-nspawn >/dev/null ||
		skip "no systemd-nspawn (Debian: systemd-container)"
	need_podman
	name=bk-ns-$$
	start_tool execsnoop -j
	systemd-nspawn -q -D "$PM_DIR/root" -M "$name" /bin/true marker-ns
	wait_for "$OUT" marker-ns 10
	stop_tool
	line=$(json_of "$OUT" marker-ns)
	[ "$(jq -r .container.runtime <<<"$line")" = systemd-nspawn ]
	[ "$(jq -r .container.name <<<"$line")" = "$name" ]
}

@test "containers: docker: a container's exec carries its id and name" {
	command -v docker >/dev/null ||
		skip "no docker client (Debian: docker.io): docker is optional"
	docker info >/dev/null 2>&1 ||
		skip "no docker daemon answers (docker info fails): docker is optional"
	docker image inspect "$IMAGE" >/dev/null 2>&1 ||
		docker import -q "$PM_DIR/image.tar" "$IMAGE" >/dev/null
	need_podman
	name=bk-dk-$$
	start_tool execsnoop -j
	docker run --rm --network none --name "$name" "$IMAGE" /bin/true marker-dk
	wait_for "$OUT" marker-dk 10
	stop_tool
	line=$(json_of "$OUT" marker-dk)
	[ "$(jq -r .container.runtime <<<"$line")" = docker ]
	[ "$(jq -r .container.name <<<"$line")" = "$name" ]
}

@test "containers: unshare --pid --mount --fork: a record carries the new namespaces, and pid 1 in its own" {
	command -v unshare >/dev/null || skip "no unshare (util-linux)"
	start_tool execsnoop -j
	unshare --pid --mount --fork /bin/sh -c \
		'readlink /proc/self/ns/mnt; echo $$; exec /bin/true marker-ns' \
		>"$BATS_TEST_TMPDIR/ns"
	wait_for "$OUT" marker-ns 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	line=$(jq -c 'select(.args == ["/bin/true", "marker-ns"])' "$OUT")
	[ -n "$line" ]
	# What the shell printed: its mount namespace, then $$ (1: it is the
	# new pid namespace's first process; exec keeps the pid).
	mnt=$(sed -n 1p "$BATS_TEST_TMPDIR/ns" | tr -dc 0-9)
	[ "$(jq -r .mntns <<<"$line")" = "$mnt" ]
	[ "$mnt" != "$(stat -L -c %i /proc/self/ns/mnt)" ]
	[ "$(sed -n 2p "$BATS_TEST_TMPDIR/ns")" = 1 ]
	[ "$(jq -r .pidns_pid <<<"$line")" = 1 ]
	[ "$(jq -r .pid <<<"$line")" != 1 ]
	[ "$(jq -r .pidns <<<"$line")" != "$(stat -L -c %i /proc/self/ns/pid)" ]
	# Not a container: no cgroup path or runtime names one.
	[ "$(jq -r 'has("container")' <<<"$line")" = false ]
}
