# SPDX-License-Identifier: GPL-2.0
# Shared by the portability suite: every tool of bpf/ started once, with a
# trigger whose values the test knows, on whichever kernel runs the suite
# (tools/test-vm --portability --kernel K boots Debian's 5.10, 6.1, 6.1-rt
# or 6.12 with the host's build). Load it last, after
# tests/integration/helpers.bash and any of its companions (tcp.bash,
# blockio.bash): it wraps their teardown.
#
# Every test's kernel log is checked: a WARNING, BUG or Oops the kernel
# logs, or a taint flag it gains, while the test runs fails the test with
# that line.

# KERNEL: the running kernel as the suite names it: MAJOR.MINOR, with -rt
# on a PREEMPT_RT kernel (5.10, 6.1, 6.1-rt, 6.12).
KERNEL=$(uname -r | cut -d. -f1,2)
case $(uname -v) in *PREEMPT_RT*) KERNEL+=-rt ;; esac

# What a tool cannot do on a kernel, "KERNEL TOOL ARG..." -> "WHAT|VERSION":
# there it must refuse in one line naming WHAT and Linux VERSION, the first
# kernel that has it (refused, refusal).
declare -gA REFUSALS=(
	["5.10 tcpdrop -R NETFILTER_DROP"]="drop reasons|5.17"
)

setup() {
	require_root
	kernel_mark
	JOBS=
}

# kernel_mark: remember the kernel's taint mask and mark its log, for
# kernel_quiet. A WARN_ONCE already seen in this boot is re-armed, so that
# each test's own is logged.
kernel_mark() {
	[ ! -w /sys/kernel/debug/clear_warn_once ] ||
		echo 1 >/sys/kernel/debug/clear_warn_once
	TAINT0=$(cat /proc/sys/kernel/tainted)
	KMSG_MARK="bpfkit portability: ${BATS_TEST_FILENAME##*/} test $BATS_TEST_NUMBER starts"
	echo "$KMSG_MARK" >/dev/kmsg
}

# kernel_quiet: fail, showing the kernel's first complaint (a WARNING, BUG
# or Oops with the lines around it) and the taint flags gained, if the
# kernel complained since kernel_mark.
kernel_quiet() {
	local t1 log gained flags= i ok=0
	[ -n "${KMSG_MARK:-}" ] || return 0
	t1=$(cat /proc/sys/kernel/tainted)
	log=$(dmesg 2>/dev/null | awk -v m="$KMSG_MARK" 'index($0, m) { on = 1 } on')
	if grep -Eq 'WARNING:|BUG:|Oops|Kernel panic' <<<"$log"; then
		echo "# the kernel complained while this test ran:" >&3
		grep -E -m1 -B2 -A3 'WARNING:|BUG:|Oops|Kernel panic' <<<"$log" |
			sed 's/^/#   /' >&3
		ok=1
	fi
	gained=$((t1 & ~TAINT0))
	if [ "$gained" != 0 ]; then
		for ((i = 0; i < 19; i++)); do
			((gained >> i & 1)) && flags+=${TAINT_FLAGS:i:1}
		done
		echo "# the kernel became tainted while this test ran:" \
		     "/proc/sys/kernel/tainted $TAINT0 -> $t1 (gained $flags)" >&3
		ok=1
	fi
	return $ok
}
# Bits 0-18 of /proc/sys/kernel/tainted, as the kernel names them.
TAINT_FLAGS=PFSRMBUDAWCIOELKXTN

eval "checked_$(declare -f teardown)"
teardown() {
	local rc=0 d i j
	# A failed test's tool, still running, is stopped as a user would
	# (SIGINT): what it says then, its summary, shows what it saw.
	if [ -z "${BATS_TEST_COMPLETED:-}" ] && [ -n "${TOOL_PID:-}" ]; then
		kill -INT "$TOOL_PID" 2>/dev/null || true
		i=$((SECONDS + 5 * TIME_SCALE))
		while kill -0 "$TOOL_PID" 2>/dev/null && ((SECONDS < i)); do
			sleep 0.1
		done
		if ! kill -0 "$TOOL_PID" 2>/dev/null; then
			j=0
			wait "$TOOL_PID" || j=$?
			TOOL_PID=
			echo "# the tool, stopped by SIGINT, exited $j, saying:" >&3
		else
			echo "# the tool, sent SIGINT, has not exited; it said:" >&3
		fi
		sed 's/^/#   /' "$ERR" >&3
	fi
	# The test's helpers still running (JOBS: pids), say stopped ones
	# waiting for a tool that never started: bats waits for them.
	for j in ${JOBS:-}; do
		kill -KILL "$j" 2>/dev/null || true
	done
	[ -z "${JOBS:-}" ] || wait ${JOBS} 2>/dev/null || true
	checked_teardown || rc=$?
	# A test's cgroups (CG, and CG/child), once their tasks are reaped.
	for d in ${CG:+"$CG/child" "$CG"}; do
		for ((i = 0; i < 50; i++)); do
			[ -d "$d" ] && ! rmdir "$d" 2>/dev/null || break
			sleep 0.1
		done
	done
	kernel_quiet || rc=1
	return $rc
}

# await FILE REGEX [SECONDS]: until a line of FILE matches (extended)
# REGEX, for SECONDS (default 5) times TIME_SCALE at most, by the clock.
# (wait_for counts its polls, and in an emulated guest each poll's grep
# takes longer than the pause between them: there a miss took 60 to 100 s
# instead of 15.)
await() {
	local limit=$((${3:-5} * TIME_SCALE))
	local end=$((SECONDS + limit))
	until grep -Eq -- "$2" "$1" 2>/dev/null; do
		if ((SECONDS >= end)); then
			echo "# no line matching '$2' in $1 after ${limit}s; it holds:" >&3
			sed 's/^/# /' "$1" | tail -20 >&3
			return 1
		fi
		sleep 0.1
	done
}

# launch TOOL ARG...: like start_tool, but gives up as soon as TOOL exits
# (a refusal, a failed load), showing what it said.
launch() {
	OUT=$BATS_TEST_TMPDIR/out
	ERR=$BATS_TEST_TMPDIR/err
	: >"$OUT"
	: >"$ERR"
	"$BIN/$1" "${@:2}" >"$OUT" 2>"$ERR" &
	TOOL_PID=$!
	local end=$((SECONDS + 20 * TIME_SCALE)) status=
	until grep -q 'tracing; hit Ctrl-C to end' "$ERR"; do
		kill -0 "$TOOL_PID" 2>/dev/null && ((SECONDS < end)) || break
		sleep 0.1
	done
	grep -q 'tracing; hit Ctrl-C to end' "$ERR" && return 0
	if ! kill -0 "$TOOL_PID" 2>/dev/null; then
		wait "$TOOL_PID" || status=$?
		TOOL_PID=
	fi
	echo "# $1 did not start${status:+ (exit status $status)}; it said:" >&3
	sed 's/^/#   /' "$ERR" >&3
	return 1
}

# check_out [JQ-ARG...] FILTER: jq -es FILTER over the tool's output; when
# false, show that output.
check_out() {
	jq -es "$@" "$OUT" >/dev/null && return 0
	echo "# the output fails: ${*: -1}" >&3
	echo "# it is:" >&3
	head -c 4000 "$OUT" | sed 's/^/#   /' >&3
	tail -3 "$ERR" | sed 's/^/#   stderr: /' >&3
	return 1
}

# refused TOOL ARG...: whether TOOL ARG... cannot work on this kernel
# (REFUSALS).
refused() {
	[ -n "${REFUSALS["$KERNEL $*"]:-}" ]
}

# refusal TOOL ARG...: TOOL ARG... refuses in one line (status not 0,
# nothing on stdout) naming what this kernel lacks (REFUSALS) and the
# first Linux version with it.
refusal() {
	local want=${REFUSALS["$KERNEL $*"]}
	run --separate-stderr timeout $((30 * TIME_SCALE)) "$BIN/$1" "${@:2}" -d 1
	echo "# $KERNEL: '$*' says: $stderr (status $status)" >&3
	[ "$status" != 0 ]
	[ "$status" != 124 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "$1: "* ]]
	[[ $stderr == *"${want%|*}"* ]]
	[[ $stderr =~ Linux\ ${want#*|}[^0-9] ]]
}
