// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Lookups in the generated syscall table. */
#include <string.h>
#include "syscalls.h"

const char *bpfkit_syscall_name(long nr)
{
	if (nr < 0 || nr >= bpfkit_syscall_count)
		return NULL;
	return bpfkit_syscall_table[nr];
}

long bpfkit_syscall_nr(const char *name)
{
	int i;

	for (i = 0; i < bpfkit_syscall_count; i++) {
		if (bpfkit_syscall_table[i] &&
		    !strcmp(bpfkit_syscall_table[i], name))
			return i;
	}
	return -1;
}
