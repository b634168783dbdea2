#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# --btf: every tool runs on a kernel without /sys/kernel/btf/vmlinux when
# given a minimized BTF (bpftool gen min_core_btf, as 'make min-btf' does).
# The kernel's BTF is hidden by a tmpfs over /sys/kernel/btf in a private
# mount namespace; $BIN points at wrappers that run the tools there.

load helpers
load histogram
load burst

bats_require_minimum_version 1.5.0 # run --separate-stderr

KERNEL_BTF=/sys/kernel/btf/vmlinux

# old_state_btf FILE: this kernel's BTF with task_struct's __state named
# state, as kernels before Linux 5.14 name it (the name is that member's
# only use of its string: same length, renamed in place).
old_state_btf() {
	python3 - "$KERNEL_BTF" "$1" <<-'EOF'
		import struct, sys
		d = bytearray(open(sys.argv[1], "rb").read())
		hdr_len, str_off, str_len = struct.unpack_from("<I8xII", d, 4)
		lo = hdr_len + str_off
		at = d.find(b"\0__state\0", lo, lo + str_len)
		assert at > 0 and d.find(b"\0__state\0", at + 1, lo + str_len) < 0
		d[at + 1:at + 9] = b"state\0\0\0"
		open(sys.argv[2], "wb").write(d)
	EOF
}

setup_file() {
	[ "$(id -u)" = 0 ] && [ -r "$KERNEL_BTF" ] || return 0
	# Minimize the running kernel's BTF for all the tools' objects, from
	# their own CO-RE relocations, as 'make min-btf' does.
	local objs=() t src
	for t in "$BIN"/*; do
		objs+=("$BUILD/obj/bpf/${t##*/}.bpf.o")
	done
	# And the members the tools not yet read by CO-RE read at offsets
	# from the BTF (bpf/layout/), while the tree has such files.
	for src in "$ROOT"/bpf/layout/*.bpf.c; do
		[ -e "$src" ] || continue
		t=${src##*/}
		objs+=("$BUILD/obj/bpf/layout-${t%.bpf.c}.bpf.o")
	done
	bpftool gen min_core_btf "$KERNEL_BTF" "$BATS_FILE_TMPDIR/min.btf" \
		"${objs[@]}"
	# The same for a kernel whose task_struct has state, not __state.
	old_state_btf "$BATS_FILE_TMPDIR/old.btf"
	bpftool gen min_core_btf "$BATS_FILE_TMPDIR/old.btf" \
		"$BATS_FILE_TMPDIR/old-min.btf" "${objs[@]}"
	# Wrap each tool to run where the kernel's BTF is hidden.
	mkdir "$BATS_FILE_TMPDIR/nobtf"
	for t in "$BIN"/*; do
		cat >"$BATS_FILE_TMPDIR/nobtf/${t##*/}" <<-EOF
			#!/bin/sh
			exec unshare -m sh -c 'mount -t tmpfs none /sys/kernel/btf &&
				exec "\$0" "\$@"' "$t" "\$@"
		EOF
		chmod +x "$BATS_FILE_TMPDIR/nobtf/${t##*/}"
	done
}

setup() {
	require_root
	[ -r "$KERNEL_BTF" ] || skip "this kernel has no BTF to minimize"
	MIN_BTF=$BATS_FILE_TMPDIR/min.btf
	OLD_BTF=$BATS_FILE_TMPDIR/old.btf
	OLD_MIN_BTF=$BATS_FILE_TMPDIR/old-min.btf
	TOOLS=$(cd "$BIN" && for t in *; do kernel_lacks "$t" || echo "$t"; done)
	BIN=$BATS_FILE_TMPDIR/nobtf
	JOBS=
}

eval "helpers_$(declare -f teardown)"
teardown() {
	[ -z "${JOBS:-}" ] || kill -KILL $JOBS 2>/dev/null || true
	helpers_teardown
}

# tool_progs: "TYPE NAME" of each BPF program the started tool holds.
tool_progs() {
	local id
	for id in $(awk '$1 == "prog_id:" { print $2 }' \
		/proc/"$TOOL_PID"/fdinfo/* 2>/dev/null | sort -u); do
		bpftool -j prog show id "$id" | jq -r '"\(.type) \(.name)"'
	done
}

# members FILE STRUCT: the member names of STRUCT in BTF FILE, one a line.
members() {
	bpftool btf dump file "$1" | awk -v s="$2" '
		/^\[/ { in_s = $2 == "STRUCT" && $3 == "\047" s "\047" }
		in_s && /^\t\047/ { split($1, n, "\047"); print n[2] }'
}

@test "btf: the minimized BTF is a small subset of the kernel's" {
	bpftool btf dump file "$MIN_BTF" >"$BATS_TEST_TMPDIR/dump"
	grep -q "^\[[0-9]*\] STRUCT 'task_struct' " "$BATS_TEST_TMPDIR/dump"
	grep -q "^\[[0-9]*\] STRUCT 'signal_struct' " "$BATS_TEST_TMPDIR/dump"
	grep -q "^\[[0-9]*\] STRUCT 'trace_event_raw_sys_enter' " \
		"$BATS_TEST_TMPDIR/dump"
	# Kilobytes out of megabytes: only what the relocations touch.
	(($(stat -c %s "$MIN_BTF") * 100 < $(stat -c %s "$KERNEL_BTF")))
}

@test "btf: without kernel BTF or --btf, every tool names the way out" {
	for t in $TOOLS; do
		echo "tool: $t"
		run --separate-stderr "$BIN/$t" $(plain_args "$t") -d 1
		[ "$status" = 1 ]
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" = 1 ]
		[[ $stderr == "$t: this kernel has no BTF ($KERNEL_BTF is missing); "* ]]
		[[ $stderr == *"--btf FILE"*"make min-btf"* ]]
	done
}

@test "btf: every tool starts tracing with --btf and no kernel BTF" {
	for t in $TOOLS; do
		echo "tool: $t"
		run --separate-stderr "$BIN/$t" $(plain_args "$t") --btf "$MIN_BTF" -d 1
		[ "$status" = 0 ]
		[[ $stderr == *"$t: tracing; hit Ctrl-C to end"* ]]
	done
}

@test "btf: hello-attach with --btf and no kernel BTF delivers an exec" {
	start_tool hello-attach --btf "$MIN_BTF"
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm tracepoint /bin/true\$" 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(grep -c " $comm " "$OUT")" = 1 ]
}

@test "btf: a --btf file that does not exist is a usage error" {
	for t in $TOOLS; do
		run --separate-stderr "$BIN/$t" $(plain_args "$t") --btf /nonexistent/min.btf -d 1
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$stderr" = "$t: invalid --btf '/nonexistent/min.btf': No such file or directory" ]
	done
}

@test "btf: the scheduler, IRQ and block tools' objects carry CO-RE relocations" {
	# .BTF.ext's header: magic, version, flags, hdr_len, then func_info,
	# line_info and core_relo offsets and lengths (u32 each).
	local t ext len
	for t in runqlat cpudist offcputime wakeuptime hardirqs biolatency \
		biosnoop; do
		ext=$BATS_TEST_TMPDIR/$t.ext
		llvm-objcopy --dump-section ".BTF.ext=$ext" \
			"$BUILD/obj/bpf/$t.bpf.o" /dev/null
		len=$(od -An -tu4 -j28 -N4 "$ext" | tr -d ' ')
		echo "# $t: $len bytes of CO-RE relocations" >&3
		[ "$len" -gt 0 ]
	done
}

@test "btf: where task_struct has state, not __state (before Linux 5.14), the minimized BTF keeps it for the tools that read it" {
	members "$MIN_BTF" task_struct >"$BATS_TEST_TMPDIR/new"
	members "$OLD_MIN_BTF" task_struct >"$BATS_TEST_TMPDIR/old"
	grep -qx __state "$BATS_TEST_TMPDIR/new"
	refute grep -qx state "$BATS_TEST_TMPDIR/new"
	grep -qx state "$BATS_TEST_TMPDIR/old"
	refute grep -qx __state "$BATS_TEST_TMPDIR/old"
	# Every tool that reads a task's state starts with it.
	for t in runqlat cpudist offcputime wakeuptime; do
		echo "tool: $t"
		run --separate-stderr "$BIN/$t" $(plain_args "$t") --btf "$OLD_MIN_BTF" -d 1
		[ "$status" = 0 ]
		[[ $stderr == *"$t: tracing; hit Ctrl-C to end"* ]]
	done
}

@test "btf: where task_struct has state, runqlat counts a preempted spinner's waits on raw and BTF tracepoints" {
	# The minimized BTF with no kernel BTF: raw_tp; the whole BTF with
	# this kernel's own for tp_btf's attach: tp_btf, read by plain loads.
	# raw_tp times by bpf_ktime_get_ns(), schedstat and tp_btf by the run
	# queue's clock: 2 to 8 us apart a wait on this host (5.8 ms for 1865
	# waits, 6.9 ms for 1209, 6.1 ms for 812; 7% of the sum with 40313
	# short waits under load), so 10 us a wait more there.
	local btf type prog each
	for btf in "$OLD_MIN_BTF" "$OLD_BTF"; do
		type=raw_tracepoint prog=switch_raw each=10000
		if [ "$btf" = "$OLD_BTF" ]; then
			BIN=$BUILD/bin type=tracing prog=switch_btf each=0
		fi
		BURST_ARGS=(1000 0)
		burst A taskset -c 1
		burst B taskset -c 1
		start_tool runqlat -j -p "$A" --btf "$btf"
		tool_progs | grep -qx "$type $prog"
		go
		check_hist_json "$OUT"
		n=$(jq '.count' "$OUT")
		[ "$n" -ge 20 ]
		# As many waits, as long, as A's /proc/PID/schedstat counted
		# (how long each was depends on what else the machine runs).
		sched_near A 2 "$type: A's waits" "$n" \
			"$(jq '.sum * 1000 | floor' "$OUT")" 2 "$each"
	done
}

@test "btf: where task_struct has state, cpudist -O times a real-time helper's 10 ms sleeps" {
	command -v chrt >/dev/null || skip "no chrt (util-linux)"
	BURST_ARGS=(10 10)
	burst A chrt -f 10
	start_tool cpudist -O -m -j -p "$A" --btf "$OLD_MIN_BTF"
	go
	check_hist_json "$OUT" '(.unit == "msecs")'
	jq -e '.count >= 20' "$OUT"
	[ "$(jq -s '[.[] | .buckets[]] | max_by(.count) | .min' "$OUT")" = 8 ]
}
