#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# -v: every tool's start-up phases, one line each, from the library rooms
# (setup, run): exec to main, preflight, open, kernel BTF, maps, each
# loaded program's verification with the kernel's verified_insns, attach,
# first poll; an event tool, a histogram tool and a user-probe tool.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
}

# phases TOOL ARG...: run TOOL -v -d 0.2; its phase lines in $PHASES.
phases() {
	local err=$BATS_TEST_TMPDIR/err
	"$BIN/$1" -v -d 0.2 "${@:2}" >/dev/null 2>"$err"
	PHASES=$(grep -E "^$1: phase " "$err")
	echo "$PHASES" >&3
}

# has_phase NAME: exactly one line "phase NAME: <ms> ms[...]".
has_phase() {
	local n
	n=$(grep -cE "phase $1: [0-9]+\.[0-9]{3} ms" <<<"$PHASES")
	[ "$n" = 1 ] || {
		echo "# phase '$1' found $n times" >&3
		return 1
	}
}

# common_phases: what every tool's start prints, in start-up order.
common_phases() {
	local p
	for p in 'exec to main' 'command line and preflight' open \
		'kernel BTF' maps 'CO-RE relocation, JIT and the rest of load' \
		load 'channel and attach' 'first poll' 'main to first poll'; do
		has_phase "$p"
	done
	grep -q 'phase exec to main: [0-9.]* ms CPU$' <<<"$PHASES"
	# The order they happen in.
	[ "$(sed -E 's/^[^:]*: phase ([^:]*):.*/\1/' <<<"$PHASES" |
		grep -vE '^verify ' | tr '\n' ,)" = \
		"exec to main,command line and preflight,open,kernel BTF,maps,CO-RE relocation, JIT and the rest of load,load,channel and attach,first poll,main to first poll," ]
}

# verified PROG...: each PROG has a verify line with insns > 0, and no
# other program has one.
verified() {
	local p n
	for p in "$@"; do
		n=$(grep -oE "phase verify $p: [0-9.]+ ms, [0-9]+ insns verified" \
			<<<"$PHASES" | awk '{ print $(NF - 2) }')
		[ -n "$n" ] && [ "$n" -gt 0 ] || {
			echo "# no verified insns for $p" >&3
			return 1
		}
	done
	[ "$(grep -c 'phase verify ' <<<"$PHASES")" = $# ]
}

@test "phases: execsnoop -v times every phase and each program's verification" {
	phases execsnoop
	common_phases
	verified enter_execve enter_execveat exec_rekey exit_exec
	has_phase 'maps' && grep -qE 'phase maps: .* \([0-9]+ created\)$' <<<"$PHASES"
}

@test "phases: --ringbuf prints the same phases" {
	phases execsnoop --ringbuf
	common_phases
}

@test "phases: a histogram tool (runqlat) and its programs the kernel loads" {
	phases runqlat
	common_phases
	[ "$(grep -c 'phase verify ' <<<"$PHASES")" -ge 2 ]
	# The kernel room finds btf_trace_sched_switch in libbpf's parse of
	# the BTF; a wrong id would fail its tp_btf probe and load raw_tp.
	if bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null |
		grep -q "TYPEDEF 'btf_trace_sched_switch'"; then
		verified wakeup_btf wakeup_new_btf switch_btf
	fi
}

@test "phases: a user-probe tool (bashreadline)" {
	phases bashreadline
	common_phases
	verified readline_return
}

@test "phases: none without -v" {
	run --separate-stderr "$BIN/execsnoop" -d 0.1
	[ "$status" = 0 ]
	refute grep -q 'phase' <<<"$stderr"
}

@test "phases: execsnoop --max-args 60 verifies its argument copy once, not per argument" {
	# The verifier's count is the kernel's, not a time: the same on a
	# loaded machine. A failed exec's argv is copied at exit by a global
	# append_arg(), verified once; inlined in the loop, it took 6000
	# instructions per program on Linux 6.18.
	phases execsnoop --max-args 60 -x
	verified enter_execve enter_execveat exec_rekey exit_exec
	grep -E 'phase verify exit_exec: ' <<<"$PHASES" |
		awk '{ if ($(NF - 2) >= 3000) bad = 1 } END { exit bad }'
}

@test "phases: the syscall and snoop tools read the kernel by CO-RE relocations" {
	# Their records (syscall_trace_enter/_exit, trace_event_raw_*) and
	# the task, mm, signal and nsproxy members they read are vmlinux.h's
	# types, relocated by libbpf against the kernel BTF at load, which it
	# then parses. Their own tests check the values on this kernel.
	local t
	for t in execsnoop exitsnoop opensnoop statsnoop sigsnoop syscount \
		mountsnoop oomkill hello-map hello-attach; do
		phases "$t"
		grep -qE "phase kernel BTF: [0-9.]+ ms$" <<<"$PHASES"
		grep -qE "^libbpf: sec '[^']+': found [1-9][0-9]* CO-RE relocations$" \
			"$BATS_TEST_TMPDIR/err"
	done
	# sigsnoop's five programs load: signal_generate and the kill calls.
	phases sigsnoop
	verified signal_generate kill_entry tkill_entry tgkill_entry \
		kill_return
}

@test "phases: the syscall tools verify one exit program for all their syscalls" {
	# Each syscall had an exit program of its own, the same code verified
	# and loaded once per syscall: mountsnoop's seven took 3 ms of its
	# 5.6 ms of load here. The tools' own tests check that every call's
	# exit still arrives.
	phases opensnoop
	verified open_enter openat_enter openat2_enter open_exit
	phases mountsnoop
	verified mount_exit mount_enter umount_enter fsopen_enter \
		fsconfig_enter fsmount_enter move_mount_enter open_tree_enter
	phases statsnoop
	[ "$(grep -cE 'phase verify [a-z0-9_]+_exit: ' <<<"$PHASES")" = 1 ]
	grep -q 'phase verify stat_exit: ' <<<"$PHASES"
}

@test "phases: softirqs reads no kernel memory, so libbpf loads no kernel BTF" {
	# On tp_btf, libbpf parsed the whole kernel BTF to find each
	# tracepoint's type: 10 of softirqs' 20 ms until attached on a quiet
	# host. softirqs.bats checks the counts.
	phases softirqs
	common_phases
	verified softirq_entry softirq_exit
	grep -q "phase kernel BTF: .* (not loaded: nothing needs it)$" \
		<<<"$PHASES"
}

@test "phases: the IRQ and scheduler tools verify the programs they attach" {
	phases hardirqs
	common_phases
	verified irq_handler_entry irq_handler_exit
	phases cpudist
	common_phases
	verified sched_switch
	phases offcputime
	common_phases
	verified switch_raw
	phases wakeuptime
	common_phases
	verified switch_raw waking_raw
}

@test "phases: the network tools read the kernel the CO-RE way: libbpf loads the kernel BTF and relocates" {
	# Their tracepoint records (sock:inet_sock_set_state,
	# tcp:tcp_retransmit_skb, skb:kfree_skb, the syscall exits), sockets,
	# file tables, tcp_sock, skb and headers are vmlinux.h's types,
	# relocated by libbpf for the running kernel; the tools' own tests
	# check the values read.
	local t err=$BATS_TEST_TMPDIR/err
	for t in bindsnoop tcpaccept tcpconnect tcpconnlat tcplife tcpretrans \
		tcpstates tcpdrop; do
		phases "$t"
		common_phases
		grep -Eq "phase kernel BTF: [0-9.]+ ms$" <<<"$PHASES"
		"$BIN/$t" -v -d 0.1 >/dev/null 2>"$err"
		grep -q "libbpf: prog '[a-z0-9_]*': relo #0: " "$err"
	done
}

@test "phases: biolatency and biosnoop verify their issue and completion programs, and a queue program only when they need one" {
	# biolatency.bats and biosnoop.bats check the disks, operations,
	# sectors and sizes.
	phases biolatency -D -F
	common_phases
	verified rq_issue rq_complete
	# With the queue program: block_io_start where the kernel has it.
	phases biosnoop
	common_phases
	verified '(io_start|rq_insert)' rq_issue rq_complete
}

@test "phases: the stack tools hash a stack without a branch per frame the verifier walks" {
	# The verifier's count is the kernel's, not a time. Zeroing the frames
	# past the stack's end itself (the kernel already does), each stack
	# tool's program took 163900 instructions, 126 ms to load here; now
	# about 2600.
	local t
	for t in profile offcputime wakeuptime; do
		phases "$t"
		grep -E 'phase verify [a-z_]+: ' <<<"$PHASES" |
			awk '{ n++; if ($(NF - 2) >= 10000) bad = 1 } END { exit bad || !n }'
	done
}
