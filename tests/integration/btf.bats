#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# --btf: every tool runs on a kernel without /sys/kernel/btf/vmlinux when
# given a minimized BTF (bpftool gen min_core_btf, as 'make min-btf' does).
# The kernel's BTF is hidden by a tmpfs over /sys/kernel/btf in a private
# mount namespace; $BIN points at wrappers that run the tools there.

load helpers

bats_require_minimum_version 1.5.0 # run --separate-stderr

KERNEL_BTF=/sys/kernel/btf/vmlinux

setup_file() {
	[ "$(id -u)" = 0 ] && [ -r "$KERNEL_BTF" ] || return 0
	# Minimize the running kernel's BTF for all the tools' objects.
	local objs=() t
	for t in "$BIN"/*; do
		objs+=("$BUILD/obj/bpf/${t##*/}.bpf.o")
	done
	# And the members tools read at offsets from the BTF (bpf/layout/).
	objs+=("$BUILD"/obj/bpf/layout-*.bpf.o)
	bpftool gen min_core_btf "$KERNEL_BTF" "$BATS_FILE_TMPDIR/min.btf" \
		"${objs[@]}"
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
	TOOLS=$(cd "$BIN" && ls)
	BIN=$BATS_FILE_TMPDIR/nobtf
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
		run --separate-stderr "$BIN/$t" -d 1
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
		run --separate-stderr "$BIN/$t" --btf "$MIN_BTF" -d 1
		[ "$status" = 0 ]
		[[ $stderr == *"$t: tracing; hit Ctrl-C to end"* ]]
	done
}

@test "btf: hello-buffer with --btf and no kernel BTF delivers an exec" {
	start_tool hello-buffer --btf "$MIN_BTF" -P
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm Hello World /bin/true\$" 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(grep -c " $comm " "$OUT")" = 1 ]
}

@test "btf: a --btf file that does not exist is a usage error" {
	for t in $TOOLS; do
		run --separate-stderr "$BIN/$t" --btf /nonexistent/min.btf -d 1
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$stderr" = "$t: invalid --btf '/nonexistent/min.btf': No such file or directory" ]
	done
}
