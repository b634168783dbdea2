/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * What hello-config's BPF side and user space agree on. Its record is
 * hello-buffer's; only the message differs.
 */
#ifndef HELLO_CONFIG_H
#define HELLO_CONFIG_H

#include "hello-buffer.h"

#define HELLO_CONFIG_USERS 64 /* -m entries: the messages map's size */

#endif /* HELLO_CONFIG_H */
