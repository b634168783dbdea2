#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# --cgroup PATH: every tool that takes it traces the cgroup v2 PATH and the
# cgroups below it (processes live in the leaves), not a sibling's nor
# anyone else's; a path that is not a cgroup v2 directory is refused in one
# line.

bats_require_minimum_version 1.5.0
load helpers

# Every tool with --cgroup, each tested below.
TOOLS="hello hello-buffer hello-config hello-attach hello-tail hello-map execsnoop exitsnoop opensnoop sigsnoop syscount
statsnoop bindsnoop mountsnoop gethostlatency bashreadline pyimport cpudist
tcpconnect tcplife tcpstates tcpaccept tcpconnlat solisten
vfsstat syncsnoop filelife filetop fsslower fsdist cachestat"
# ...or in its own file (a test named "TOOL: --cgroup ...").
OWN_FILE="runqlat oomkill profile offcputime wakeuptime tcpretrans tcptop bitesize biopattern biotop capable funclatency memleak runqslower drsnoop futexctn klockstat"

setup() {
	CGROOT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$CGROOT" ] || skip "no cgroup v2 hierarchy mounted"
	require_root
	# parent/child holds the traced process; sibling is left out.
	PARENT=$CGROOT/bpfkit-test-$$-$RANDOM
	SIBLING=$PARENT-sibling
	mkdir -p "$PARENT/child" "$SIBLING"
}

teardown() {
	local i d
	if [ -n "${TOOL_PID:-}" ]; then
		kill -KILL "$TOOL_PID" 2>/dev/null
	fi
	wait 2>/dev/null
	# A reaped task can linger in its cgroup for a moment.
	for d in "${PARENT:-}/child" "${PARENT:-}" "${SIBLING:-}"; do
		[ -d "$d" ] || continue
		for ((i = 0; i < 50; i++)); do
			rmdir "$d" 2>/dev/null && break
			sleep 0.1
		done
	done
	if [ -n "${V1:-}" ]; then
		umount "$V1"
	fi
	return 0
}

# in_cgroup DIR CMD...: run CMD as a process of cgroup DIR ("": this one).
in_cgroup() {
	sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1
		shift; exec "$@"' sh "$@"
}

# trigger DIR: in cgroup DIR, a process named with a new unique comm (set
# in COMM) calls execve to run a copy of /bin/true of that name, so it
# opens its libraries, exits and signals its parent as COMM too; its pid
# is in PID.
trigger() {
	COMM=$(unique_comm)
	cp /bin/true "$BATS_TEST_TMPDIR/$COMM"
	PID=$(in_cgroup "$1" "$HELPERS/execas" "$COMM" "$BATS_TEST_TMPDIR/$COMM")
}

# check_subtree TOOL [ARG...]: TOOL --cgroup $PARENT shows the process
# run in $PARENT/child and neither the sibling cgroup's nor one outside.
check_subtree() {
	start_tool "$1" --cgroup "$PARENT" "${@:2}"
	trigger ""
	outside=$COMM
	trigger "$SIBLING"
	sibling=$COMM
	trigger "$PARENT/child"
	inside=$COMM
	wait_for "$OUT" "$inside" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -Fq "$inside" "$OUT"
	refute grep -F -e "$outside" -e "$sibling" "$OUT"
}

@test "cgroup: every tool with --cgroup is tested here" {
	local tool t
	for tool in "$BIN"/*; do
		"$tool" --help | grep -q -- --cgroup || continue
		t=${tool##*/}
		if [[ " $OWN_FILE " == *" $t "* ]]; then
			grep -q "^@test \"$t: --cgroup " "$BATS_TEST_DIRNAME/$t.bats" ||
				{ echo "# $t: no --cgroup test in $t.bats"; false; }
			continue
		fi
		[[ " ${TOOLS//$'\n'/ } " == *" $t "* ]] ||
			{ echo "# $t takes --cgroup but is not tested"; false; }
	done
}

# storm_in DIR MODE: a rel-storm of MODE in cgroup DIR ("": this one)
# makes 20 events, from a process whose pid is set in PID.
storm_in() {
	echo 20 | in_cgroup "$1" "$HELPERS/rel-storm" "$2" "$(unique_comm)" \
		>"$BATS_TEST_TMPDIR/storm"
	PID=$(head -1 "$BATS_TEST_TMPDIR/storm")
}

# check_storm TOOL MODE [ARG...]: TOOL -j --cgroup $PARENT ARG... shows the
# events of a MODE storm (tests/helpers/rel-storm) run in $PARENT/child, by
# pid, and none of one in the sibling cgroup or outside.
check_storm() {
	start_tool "$1" -j --cgroup "$PARENT" "${@:3}"
	storm_in "" "$2"
	outside=$PID
	storm_in "$SIBLING" "$2"
	sibling=$PID
	storm_in "$PARENT/child" "$2"
	wait_for "$OUT" "\"pid\":$PID[,}]" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	refute grep -Eq "\"pid\":($outside|$sibling)[,}]" "$OUT"
}

@test "cgroup: statsnoop traces a child cgroup's stat(2), no sibling's" {
	check_storm statsnoop stat
}

@test "cgroup: bindsnoop traces a child cgroup's bind(2), no sibling's" {
	check_storm bindsnoop bind
}

@test "cgroup: tcpconnect traces a child cgroup's connects, no sibling's" {
	check_storm tcpconnect connect
}

@test "cgroup: tcplife traces a child cgroup's sessions, no sibling's" {
	check_storm tcplife connect
}

@test "cgroup: tcpstates traces a child cgroup's sockets, no sibling's" {
	check_storm tcpstates connect
}

@test "cgroup: tcpaccept traces a child cgroup's accepts, no sibling's" {
	check_storm tcpaccept accept
}

@test "cgroup: tcpconnlat traces a child cgroup's connects, no sibling's" {
	check_storm tcpconnlat accept
}

@test "cgroup: solisten traces a child cgroup's listen(2), no sibling's" {
	check_storm solisten listen
}

@test "cgroup: mountsnoop traces a child cgroup's mount(2), no sibling's" {
	check_storm mountsnoop mount
}

@test "cgroup: gethostlatency traces a child cgroup's lookups, no sibling's" {
	check_storm gethostlatency resolve
}

@test "cgroup: bashreadline traces a child cgroup's readline(), no sibling's" {
	check_storm bashreadline readline --shell "$HELPERS/rel-storm"
}

@test "cgroup: pyimport traces a child cgroup's imports, no sibling's" {
	check_storm pyimport import --python "$HELPERS/rel-storm"
}

@test "cgroup: cpudist -P times a child cgroup's process, no sibling's" {
	start_tool cpudist -j -P --cgroup "$PARENT"
	storm_in "" syscall
	outside=$PID
	storm_in "$SIBLING" syscall
	sibling=$PID
	storm_in "$PARENT/child" syscall
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -Eq "\"pid\":$PID[,}]" "$OUT"
	refute grep -Eq "\"pid\":($outside|$sibling)[,}]" "$OUT"
}

# file_in DIR ACTION FILE [ARG...]: in cgroup DIR ("": this one), a
# tests/helpers/file-trigger of a new unique comm makes ACTION's file
# calls on FILE at once; its pid is in PID.
file_in() {
	touch "$BATS_TEST_TMPDIR/go"
	in_cgroup "$1" "$HELPERS/file-trigger" "$(unique_comm)" \
		"$BATS_TEST_TMPDIR/go" "${@:2}" >"$BATS_TEST_TMPDIR/file.pid"
	PID=$(head -1 "$BATS_TEST_TMPDIR/file.pid")
}

# check_files TOOL ACTION [ARG...]: TOOL -j --cgroup $PARENT ARG... shows
# the calls of a file-trigger ACTION run in $PARENT/child, by pid, and
# none of one in the sibling cgroup or outside (each on a file of its own).
check_files() {
	local d=$BATS_TEST_TMPDIR
	start_tool "$1" -j --cgroup "$PARENT" "${@:3}"
	file_in "" "$2" "$d/outside" ${ARGS:-}
	outside=$PID
	file_in "$SIBLING" "$2" "$d/sibling" ${ARGS:-}
	sibling=$PID
	file_in "$PARENT/child" "$2" "$d/inside" ${ARGS:-}
	wait_for "$OUT" "\"pid\":$PID[,}]" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	refute grep -Eq "\"pid\":($outside|$sibling)[,}]" "$OUT"
}

@test "cgroup: syncsnoop traces a child cgroup's sync calls, no sibling's" {
	check_files syncsnoop sync
}

@test "cgroup: filelife traces a child cgroup's short-lived files, no sibling's" {
	ARGS=10 check_files filelife life
}

@test "cgroup: fsslower -m 0 traces a child cgroup's file calls, no sibling's" {
	ARGS=3 check_files fsslower vfs -m 0
}

@test "cgroup: filetop shows a child cgroup's file writes, no sibling's" {
	ARGS="4096 4" check_files filetop write -i 1
}

# The calls of one process are counted, not per process: the child's
# file-trigger makes a few, the sibling's and one outside many more.

@test "cgroup: vfsstat counts a child cgroup's file calls, no sibling's" {
	local writes
	start_tool vfsstat -j --cgroup "$PARENT" -i 1
	file_in "" vfs "$BATS_TEST_TMPDIR/outside" 3000
	file_in "$SIBLING" vfs "$BATS_TEST_TMPDIR/sibling" 3000
	file_in "$PARENT/child" vfs "$BATS_TEST_TMPDIR/inside" 7
	wait_for "$OUT" '"interval":3,' 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	writes=$(jq -s 'map(.write) | add' "$OUT")
	echo "# $writes writes" >&3
	# file-trigger vfs 7 makes 9 writes; with its shell's and exec's few.
	((writes >= 9 && writes < 100))
}

@test "cgroup: fsdist counts a child cgroup's file writes, no sibling's" {
	local writes
	start_tool fsdist -j --cgroup "$PARENT"
	file_in "" vfs "$BATS_TEST_TMPDIR/outside" 3000
	file_in "$SIBLING" vfs "$BATS_TEST_TMPDIR/sibling" 3000
	file_in "$PARENT/child" vfs "$BATS_TEST_TMPDIR/inside" 7
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	writes=$(jq -s 'map(select(.op == "write") | .count) | add' "$OUT")
	echo "# $writes writes" >&3
	# file-trigger vfs 7 makes 9 writes, to a file of the test's.
	((writes >= 9 && writes < 100))
}

@test "cgroup: cachestat counts a child cgroup's page cache, no sibling's" {
	local added
	case $(stat -f -c %T "$BATS_TEST_TMPDIR") in
	tmpfs | overlayfs) skip "the temp dir is tmpfs or an overlay (a guest's): its pages are shared memory, which cachestat does not count" ;;
	esac
	start_tool cachestat -j --cgroup "$PARENT" 1
	in_cgroup "" dd if=/dev/zero of="$BATS_TEST_TMPDIR/outside" bs=1M \
		count=64 conv=fsync status=none
	in_cgroup "$SIBLING" dd if=/dev/zero of="$BATS_TEST_TMPDIR/sibling" \
		bs=1M count=64 conv=fsync status=none
	in_cgroup "$PARENT/child" dd if=/dev/zero of="$BATS_TEST_TMPDIR/inside" \
		bs=1M count=4 conv=fsync status=none
	sleep 1.5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	added=$(jq -s 'map(.added) | add' "$OUT")
	echo "# $added pages added" >&3
	# 4 MiB is 1024 pages of 4 KiB; each other dd adds 16384.
	((added >= 1000 && added < 4000))
}

@test "cgroup: hello-buffer traces a child cgroup of --cgroup, no sibling" {
	check_subtree hello-buffer
}

@test "cgroup: hello-config traces a child cgroup of --cgroup, no sibling" {
	check_subtree hello-config
}

@test "cgroup: hello-attach traces a child cgroup of --cgroup, no sibling" {
	check_subtree hello-attach
}

@test "cgroup: hello-tail traces a child cgroup of --cgroup, no sibling" {
	check_subtree hello-tail
}

@test "cgroup: execsnoop traces a child cgroup of --cgroup, no sibling" {
	check_subtree execsnoop
}

@test "cgroup: exitsnoop traces a child cgroup of --cgroup, no sibling" {
	check_subtree exitsnoop
}

@test "cgroup: opensnoop traces a child cgroup of --cgroup, no sibling" {
	check_subtree opensnoop
}

@test "cgroup: sigsnoop traces a child cgroup's SIGCHLD, no sibling's" {
	check_subtree sigsnoop -s CHLD
}

@test "cgroup: syscount -P counts a child cgroup's process, no sibling's" {
	start_tool syscount --cgroup "$PARENT" -P -T 0
	trigger ""
	outside=$PID
	trigger "$SIBLING"
	sibling=$PID
	trigger "$PARENT/child"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# A process keeps the command name of its first counted syscall.
	awk -v p="$PID" '$1 == p && $3 > 0 { found = 1 } END { exit !found }' "$OUT"
	refute awk -v o="$outside" -v s="$sibling" \
		'$1 == o || $1 == s { found = 1 } END { exit !found }' "$OUT"
}

@test "cgroup: hello prints a child cgroup's execs, no sibling's" {
	start_tool hello --cgroup "$PARENT"
	trigger ""
	outside=$PID
	trigger "$SIBLING"
	sibling=$PID
	trigger "$PARENT/child"
	wait_for "$OUT" "^.+-$PID +\[" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	refute grep -E -e "-($outside|$sibling) +\[" "$OUT"
}

@test "cgroup: hello-map counts exactly a child cgroup's execs, no sibling's" {
	uid=$((50000 + RANDOM % 10000))
	start_tool hello-map --cgroup "$PARENT" -i 1
	in_cgroup "" "$HELPERS/hello-calls" $((uid + 1)) execve 2
	in_cgroup "$SIBLING" "$HELPERS/hello-calls" $((uid + 2)) execve 2
	in_cgroup "$PARENT/child" "$HELPERS/hello-calls" "$uid" execve 3
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(sed -n "s/^ID $uid: //p" "$OUT" | tail -1)" = 3 ]
	refute grep -E "^ID ($((uid + 1))|$((uid + 2))):" "$OUT"
}

@test "cgroup: a path that is not a cgroup v2 directory is refused in one line" {
	local tool path
	for tool in $TOOLS; do
		for path in /nonexistent/bpfkit /tmp "$PARENT/cgroup.procs"; do
			run -2 --separate-stderr "$BIN/$tool" --cgroup "$path"
			[ -z "$output" ]
			[ "${#stderr_lines[@]}" = 1 ]
			[[ $stderr == "$tool: invalid --cgroup '$path': "*"; cgroup v2 is mounted at $CGROOT, give a directory under it" ]]
		done
	done
}

@test "cgroup: a cgroup v1 directory is refused: cgroup v2 is needed, and where" {
	local tool
	V1=$BATS_TEST_TMPDIR/v1
	mkdir "$V1"
	mount -t cgroup -o none,name=bpfkit-test-$$ cgroup "$V1" ||
		{ V1=; skip "cannot mount a cgroup v1 hierarchy"; }
	for tool in $TOOLS; do
		run -2 --separate-stderr "$BIN/$tool" --cgroup "$V1"
		[ -z "$output" ]
		[ "$stderr" = "$tool: invalid --cgroup '$V1': a cgroup v1 directory, but cgroup v2 is needed; cgroup v2 is mounted at $CGROOT, give a directory under it" ]
	done
}
