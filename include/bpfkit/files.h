/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Files as both sides of the file tools see them: a path as the names of
 * its components, read from the dentries up to the root of every mount
 * (files.bpf.h), leaf first, each cut to BPFKIT_NAME_LEN - 1 bytes; an
 * empty name stands for a mount crossed.
 */
#ifndef BPFKIT_FILES_H
#define BPFKIT_FILES_H

#include "bpfkit/types.h"

#define BPFKIT_PATH_DEPTH 32 /* names of a path kept: the last ones */
#define BPFKIT_NAME_LEN 128 /* bytes of a component kept, NUL included */

#endif /* BPFKIT_FILES_H */
