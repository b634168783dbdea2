/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Names of kernel numbers that several tools print. */
#ifndef BPFKIT_NAMES_H
#define BPFKIT_NAMES_H

#include <stddef.h>

/* Signal SIG without "SIG": USR1, RTMIN+2, or its number; BUF may be used. */
const char *bpfkit_signal_name(int sig, char *buf, size_t len);

#endif /* BPFKIT_NAMES_H */
