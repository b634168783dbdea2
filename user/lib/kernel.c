// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The running kernel: its BTF, its release, what its maps and programs allow. */
#include <stdio.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/bpf.h>
#include "kernel.h"

/* The kernel's BTF, loaded once (bpfkit_kernel_btf()) and kept until load. */
static struct btf *kernel_btf;

const struct btf *bpfkit_kernel_btf(const char *btf_path)
{
	if (kernel_btf)
		return kernel_btf;
	kernel_btf = btf_path ? btf__parse(btf_path, NULL) :
				btf__load_vmlinux_btf();
	return kernel_btf;
}

void bpfkit_btf_release(void)
{
	btf__free(kernel_btf);
	kernel_btf = NULL;
}

bool bpfkit_kernel_at_least(unsigned int major, unsigned int minor)
{
	unsigned int have_major, have_minor;
	struct utsname u;

	if (uname(&u) ||
	    sscanf(u.release, "%u.%u", &have_major, &have_minor) != 2)
		return false;
	return have_major > major ||
	       (have_major == major && have_minor >= minor);
}

void bpfkit_sparse_map(struct bpf_map *map)
{
	if (bpfkit_kernel_at_least(6, 1))
		bpf_map__set_map_flags(map, bpf_map__map_flags(map) |
						    BPF_F_NO_PREALLOC);
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
