#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# CO-RE: every BPF object that reads kernel memory carries CO-RE relocation
# records, so that libbpf relocates its reads on the kernel it runs on; no
# object reads kernel memory at offsets of its own. Needs no root: it reads
# the built objects (llvm's tools, a build dependency).

load helpers

OBJS=$BUILD/obj/bpf

# The tools whose objects read no kernel memory, and so carry no CO-RE
# relocation: their programs use helpers and raw tracepoint or perf event
# arguments only, and send no record (a record's header reads the task's
# cgroup and namespaces, by CO-RE).
NO_KERNEL_READS="softirqs"

# relo_bytes OBJ: the size of OBJ's CO-RE relocation records, from the
# .BTF.ext header (magic, version, flags, hdr_len, then the offset and
# length of func_info, line_info and core_relo, each a u32).
relo_bytes() {
	local ext=$BATS_TEST_TMPDIR/btf.ext hdr
	llvm-objcopy --dump-section .BTF.ext="$ext" "$1" /dev/null || return 1
	read -ra hdr < <(od -An -tu4 -w28 -j4 -N28 "$ext")
	if [ "${hdr[0]}" -lt 32 ]; then
		echo 0 # a header without core_relo: none
	else
		echo "${hdr[6]}"
	fi
}

# kernel_reads OBJ: its calls to the helpers that read kernel memory
# (bpf_probe_read 4, bpf_probe_read_str 45, bpf_probe_read_kernel 113,
# bpf_probe_read_kernel_str 115).
kernel_reads() {
	llvm-objdump -d "$1" | grep -cE 'call (4|45|113|115)$' || true
}

# check_core OBJ: fail, naming OBJ, if it reads kernel memory by helper
# without a CO-RE relocation.
check_core() {
	local reads relos
	reads=$(kernel_reads "$1")
	relos=$(relo_bytes "$1")
	if [ "$reads" -gt 0 ] && [ "$relos" = 0 ]; then
		echo "$1: $reads kernel memory reads, no CO-RE relocation"
		return 1
	fi
}

@test "core: every tool object that reads kernel memory carries CO-RE relocations" {
	local t failed=0
	for t in $(cd "$ROOT/bpf" && ls -- *.bpf.c | sed 's/\.bpf\.c$//'); do
		[ -f "$OBJS/$t.bpf.o" ]
		check_core "$OBJS/$t.bpf.o" || failed=1
	done
	[ "$failed" = 0 ]
}

@test "core: the tools without CO-RE relocations are exactly those that read no kernel memory" {
	# A tracepoint program reading its record through a struct of its own
	# calls no helper, so the first test cannot see it: every object
	# without relocations must be one of the known few, and read nothing
	# of the kernel's by helper either.
	local t none=
	for t in $(cd "$ROOT/bpf" && ls -- *.bpf.c | sed 's/\.bpf\.c$//'); do
		if [ "$(relo_bytes "$OBJS/$t.bpf.o")" = 0 ]; then
			none="$none $t"
			[ "$(kernel_reads "$OBJS/$t.bpf.o")" = 0 ]
		fi
	done
	echo "without CO-RE relocations:$none"
	[ "$(tr ' ' '\n' <<<"$none" | sort | xargs)" = \
		"$(tr ' ' '\n' <<<"$NO_KERNEL_READS" | sort | xargs)" ]
}

@test "core: the check fails an object that reads kernel memory at a fixed offset" {
	# The way the tree used to read the kernel: an offset found in user
	# space, read by bpf_probe_read_kernel(), no relocation to show it.
	local src=$BATS_TEST_TMPDIR/fixed.bpf.c obj=$BATS_TEST_TMPDIR/fixed.bpf.o
	cat >"$src" <<-'EOF'
		#include "vmlinux.h"
		#include <bpf/bpf_helpers.h>
		const volatile __u32 tgid_offset;
		__u32 seen;
		SEC("tracepoint/syscalls/sys_enter_getppid")
		int fixed(void *ctx)
		{
			void *task = (void *)bpf_get_current_task();

			bpf_probe_read_kernel(&seen, 4, task + tgid_offset);
			return 0;
		}
		char LICENSE[] SEC("license") = "GPL";
	EOF
	${CLANG:-clang} -g -O2 -target bpf -D__TARGET_ARCH_x86 \
		-I"$ROOT/vmlinux/x86" -c "$src" -o "$obj"
	[ "$(relo_bytes "$obj")" = 0 ]
	run check_core "$obj"
	[ "$status" = 1 ]
	[ "$output" = "$obj: 1 kernel memory reads, no CO-RE relocation" ]
	# The same read by CO-RE passes.
	sed -i 's/task + tgid_offset/\&((struct task_struct *)task)->tgid/' \
		"$src"
	sed -i 's/^#include <bpf\/bpf_helpers.h>$/&\n#include <bpf\/bpf_core_read.h>/' \
		"$src"
	sed -i 's/bpf_probe_read_kernel(/bpf_core_read(/' "$src"
	${CLANG:-clang} -g -O2 -target bpf -D__TARGET_ARCH_x86 \
		-I"$ROOT/vmlinux/x86" -c "$src" -o "$obj"
	[ "$(relo_bytes "$obj")" -gt 0 ]
	check_core "$obj"
}
