# SPDX-License-Identifier: GPL-2.0
# Shared by the integration tests: run a tool in the background, trigger
# events, wait for its output, and clean up.

ROOT=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
BUILD=${BPFKIT_BUILD:-$ROOT/build}
BIN=$BUILD/bin
# The trigger programs; bpfkit-dev's, for a tool built outside the tree.
HELPERS=${BPFKIT_HELPERS:-$BUILD/test/helpers}
PROGS=$BUILD/test/progs
# Waits below are limits, never delays: a slow machine stretches them by
# this factor (tools/test-vm sets 3 for its emulated guest).
TIME_SCALE=${BPFKIT_TIME_SCALE:-1}

# Loading BPF needs root; without it the test says SKIP and why.
require_root() {
	[ "$(id -u)" = 0 ] || skip "needs root to load BPF programs"
}

# start_tool TOOL ARG...: run TOOL in the background, stdout to $OUT and
# stderr to $ERR, and return once it is attached and tracing.
start_tool() {
	OUT=$BATS_TEST_TMPDIR/out
	ERR=$BATS_TEST_TMPDIR/err
	# Empty them here: a second tool in the same test must not be taken
	# for started on the first one's "tracing" line before its shell
	# child gets to truncate them.
	: >"$OUT"
	: >"$ERR"
	"$BIN/$1" "${@:2}" >"$OUT" 2>"$ERR" &
	TOOL_PID=$!
	if ! wait_for "$ERR" 'tracing; hit Ctrl-C to end' 20; then
		echo "# $1 did not start:" >&3
		sed 's/^/# /' "$ERR" >&3
		return 1
	fi
}

# plain_args TOOL: what TOOL cannot start without, one argument a line, for
# the tests that start every tool alike (funclatency times a function it is
# given: bash's readline(), readable by every user).
plain_args() {
	case $1 in
	funclatency) printf '%s\n' -b /bin/bash readline ;;
	esac
}

# kernel_lacks TOOL: whether this kernel lacks what TOOL cannot work
# without (it then refuses in one line, as its portability test checks), so
# that the tests starting every tool leave it out: capable's
# capability:cap_capable tracepoint (Linux 6.14).
kernel_lacks() {
	local f
	case $1 in
	capable) f=events/capability/cap_capable ;;
	*) return 1 ;;
	esac
	[ ! -d "/sys/kernel/tracing/$f" ] && [ ! -d "/sys/kernel/debug/tracing/$f" ]
}

# staging_type PID: the kind of map (bpftool's name: task_storage, hash)
# process PID stages calls in, its bpfkit_staging.
staging_type() {
	local id
	for id in $(sed -n 's/^map_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2>/dev/null); do
		bpftool -j map show id "$id" 2>/dev/null |
			jq -r 'select(.name == "bpfkit_staging") | .type'
	done | head -1
}

# staging_expected: what staging_type must say on this kernel: the task's
# storage (Linux 5.11 on), but for PREEMPT_RT kernels, where a tracing
# program must not allocate, and the hash elsewhere.
staging_expected() {
	local v
	v=$(uname -r | awk -F. '{ printf "%d%03d", $1, $2 }')
	case $(uname -v) in *PREEMPT_RT*) v=0 ;; esac
	if ((v >= 5011)); then echo task_storage; else echo hash; fi
}

# test_cgroups: make the cgroup v2 directories CG/in and CG/out for a
# --cgroup test (SKIP without cgroup v2); drop_test_cgroups removes them,
# once their tasks are reaped (in teardown).
test_cgroups() {
	local root
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no cgroup v2 mounted"
	CG=$root/bk$$-$RANDOM
	mkdir -p "$CG/in" "$CG/out"
}
drop_test_cgroups() {
	local d i
	for d in ${CG:+"$CG/in" "$CG/out" "$CG"}; do
		for ((i = 0; i < 50; i++)); do
			[ -d "$d" ] && ! rmdir "$d" 2>/dev/null || break
			sleep 0.1
		done
	done
}

# stop_tool [SIGNAL]: stop the tool (SIGINT by default), set $TOOL_STATUS.
stop_tool() {
	kill -"${1:-INT}" "$TOOL_PID" 2>/dev/null || true
	TOOL_STATUS=0
	wait "$TOOL_PID" || TOOL_STATUS=$?
	TOOL_PID=
}

# wait_for FILE REGEX [SECONDS]: until a line of FILE matches (extended)
# REGEX, for SECONDS (default 5) times TIME_SCALE at most.
wait_for() {
	local i limit=$((${3:-5} * TIME_SCALE))
	for ((i = 0; i < limit * 20; i++)); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "# no line matching '$2' in $1 after ${limit}s; it holds:" >&3
	sed 's/^/# /' "$1" | tail -20 >&3
	return 1
}

# refute CMD...: fail the test if CMD succeeds. (A bare `! CMD` does not
# fail a bats test unless it is the test's last command.)
refute() {
	if "$@"; then
		echo "# expected to fail: $*" >&3
		return 1
	fi
}

# plain_make ARG...: make with its own defaults: a make running this suite
# (say `make test BUILD=x SANITIZE=1`) hands its variables down in
# MAKEFLAGS and in the environment.
plain_make() {
	env -u MAKEFLAGS -u MAKEOVERRIDES -u MFLAGS -u BUILD -u SANITIZE \
		-u STATIC -u CLANG make "$@"
}

# unique_comm: a command name no other process has, nor another call's:
# 28 to 32 random bits ($RANDOM's 15 made two of the instances test's 55
# tools share one, one time in about 20).
unique_comm() {
	printf 'bk%d-%08x' $$ "$SRANDOM" | cut -c1-15
}

# format_has CATEGORY/EVENT FIELD...: the tracepoint's format file (under
# tracefs, or debugfs's tracing) has each "type name;<TAB>offset:N;<TAB>size:N;"
# FIELD, as a BPF program declaring its context without CO-RE reads it;
# SKIP without a format file.
format_has() {
	local fmt f
	for f in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -r "$f/events/$1/format" ] && break
	done
	fmt=$f/events/$1/format
	[ -r "$fmt" ] || skip "no $1 format file under tracefs"
	for f in "${@:2}"; do
		grep -Fq "field:$f" "$fmt" || {
			echo "# $fmt lacks 'field:$f'" >&3
			return 1
		}
	done
}

# host_only WHAT: skip in tools/test-vm's guest (BPFKIT_GUEST) a test of
# user space only (WHAT) that the host suite runs: minutes under TCG for
# nothing the guest's kernel changes.
host_only() {
	[ -z "${BPFKIT_GUEST:-}" ] ||
		skip "user space only ($1): the host suite runs it"
}

# free_port: a loopback TCP port nothing listens on now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# scrape PORT [PATH]: the body of GET PATH (default /metrics), or fail.
scrape() {
	curl -sf --max-time "$((5 * TIME_SCALE))" "http://127.0.0.1:$1${2:-/metrics}"
}

# Never leave a tool running after a test.
teardown() {
	if [ -n "${TOOL_PID:-}" ]; then
		kill -KILL "$TOOL_PID" 2>/dev/null
		wait "$TOOL_PID" 2>/dev/null
	fi
	return 0
}
