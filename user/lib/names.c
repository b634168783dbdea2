// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Names of kernel numbers: syscalls, from the generated table, and signals. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "names.h"

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

const char *bpfkit_signal_name(int sig, char *buf, size_t len)
{
	const char *name = sig > 0 ? sigabbrev_np(sig) : NULL;

	if (name)
		return name;
	if (sig == SIGRTMAX)
		return "RTMAX";
	if (sig == SIGRTMIN)
		return "RTMIN";
	if (sig > SIGRTMIN && sig < SIGRTMAX)
		snprintf(buf, len, "RTMIN+%d", sig - SIGRTMIN);
	else
		snprintf(buf, len, "%d", sig);
	return buf;
}
