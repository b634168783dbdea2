// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Silent checks of what this kernel can attach to. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "diag.h"
#include "kernel.h"

/* The prefix of syscall wrappers on this architecture, as libbpf has it. */
#if defined(__x86_64__)
#define SYSCALL_PREFIX "__x64_"
#elif defined(__aarch64__)
#define SYSCALL_PREFIX "__arm64_"
#elif defined(__s390x__)
#define SYSCALL_PREFIX "__s390x_"
#elif defined(__riscv)
#define SYSCALL_PREFIX "__riscv_"
#elif defined(__powerpc64__)
#define SYSCALL_PREFIX "__powerpc_"
#else
#define SYSCALL_PREFIX ""
#endif

bool bpfkit_kprobes_available(void)
{
	const char *tracefs = bpfkit_tracefs();
	char path[256];

	/* libbpf uses the kprobe PMU, or kprobe_events in tracefs without it. */
	if (!access("/sys/bus/event_source/devices/kprobe/type", R_OK))
		return true;
	if (!tracefs)
		return false;
	snprintf(path, sizeof(path), "%s/kprobe_events", tracefs);
	return !access(path, W_OK);
}

struct btf *bpfkit_kernel_btf(void)
{
	if (bpfkit_env.btf_path)
		return btf__parse(bpfkit_env.btf_path, NULL);
	return btf__load_vmlinux_btf();
}

int bpfkit_syscall_func(const struct btf *btf, const char *name, char *buf,
			size_t len)
{
	static const char *const formats[] = { SYSCALL_PREFIX "sys_%s",
					       "sys_%s" };
	size_t i;
	int id;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		snprintf(buf, len, formats[i], name);
		id = btf__find_by_name_kind(btf, buf, BTF_KIND_FUNC);
		if (id > 0)
			return id;
	}
	return -ENOENT;
}

int bpfkit_probe_tracing(enum bpf_attach_type attach_type, int btf_id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = attach_type,
		    .attach_btf_id = btf_id);
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, NULL, "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
