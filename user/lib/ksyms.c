// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Kernel functions: their code in /proc/kallsyms, syscalls', kprobes. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ksyms.h"
#include "tracefs.h"

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

int bpfkit_kernel_funcs(const char *kallsyms, struct bpfkit_kernel_func *funcs,
			size_t n)
{
	struct bpfkit_kernel_func *open = NULL; /* found, its end not yet */
	size_t ended = 0, len = 0, i;
	char *line = NULL, *sym, *nl;
	static char buf[1 << 16];
	unsigned long long addr;
	char type;
	FILE *f;

	for (i = 0; i < n; i++)
		funcs[i].start = funcs[i].end = 0;
	f = fopen(kallsyms ?: "/proc/kallsyms", "re");
	if (!f)
		return -errno;
	setvbuf(f, buf, _IOFBF, sizeof(buf));
	/*
	 * vmlinux's symbols come sorted by address: the next one ends a
	 * function. "ADDR TYPE NAME[\t[MODULE]]", parsed by hand: fscanf()
	 * took tens of milliseconds over the 200000 lines.
	 */
	while (ended < n && !funcs[0].end && getline(&line, &len, f) > 0) {
		addr = strtoull(line, &sym, 16);
		if (!addr || sym[0] != ' ' || !sym[1] || sym[2] != ' ')
			continue;
		if (open && addr > open->start) {
			open->end = addr;
			open = NULL;
			ended++;
		}
		type = sym[1];
		sym += 3;
		nl = strpbrk(sym, "\t\n");
		if (nl)
			*nl = '\0';
		if (open || (type != 't' && type != 'T'))
			continue;
		for (i = 0; i < n; i++) {
			if (!funcs[i].start && !strcmp(sym, funcs[i].name)) {
				funcs[i].start = addr;
				open = &funcs[i];
				break;
			}
		}
	}
	free(line);
	fclose(f);
	/* A function found last, with no symbol after it, has no end. */
	if (open)
		open->start = 0;
	return ended;
}
