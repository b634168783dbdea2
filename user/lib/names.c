// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Names of kernel numbers that several tools print. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "names.h"

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
