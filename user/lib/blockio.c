// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Block I/O tools' user side: queue programs, disks, operations. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "blockio.h"
#include "diag.h"
#include "tracefs.h"

void bpfkit_blockio_prepare(struct bpf_program *io_start,
			    struct bpf_program *insert, bool queued)
{
	bool io_start_tp = queued &&
			   bpfkit_tracepoint_exists("block", "block_io_start");

	bpf_program__set_autoload(io_start, io_start_tp);
	bpf_program__set_autoload(insert, queued && !io_start_tp);
}

void bpfkit_disk_name(__u32 dev, char *buf, size_t len)
{
	char path[64], target[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u",
		 BPFKIT_DEV_MAJOR(dev), BPFKIT_DEV_MINOR(dev));
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		snprintf(buf, len, "%u:%u", BPFKIT_DEV_MAJOR(dev),
			 BPFKIT_DEV_MINOR(dev));
		return;
	}
	target[n] = '\0';
	snprintf(buf, len, "%s", basename(target));
}

int bpfkit_disk_dev(const char *option, const char *name, __u32 *dev)
{
	unsigned int major, minor;
	char path[PATH_MAX];
	FILE *f;
	int n;

	if (!*name || strchr(name, '/'))
		return -bpfkit_usage_error(
			"invalid %s '%s': expected a disk name from /sys/block (sda, loop0)",
			option, name);
	snprintf(path, sizeof(path), "/sys/block/%s/dev", name);
	f = fopen(path, "re");
	if (!f)
		return -bpfkit_usage_error(
			"invalid %s '%s': no such disk in /sys/block (see 'lsblk -d')",
			option, name);
	n = fscanf(f, "%u:%u", &major, &minor);
	fclose(f);
	if (n != 2)
		return -bpfkit_usage_error(
			"invalid %s '%s': %s holds no MAJ:MIN", option, name,
			path);
	*dev = major << BPFKIT_MINOR_BITS | minor;
	return 0;
}

void bpfkit_rq_op_name(__u32 op, char *buf, size_t len)
{
	static const struct {
		__u32 flag;
		const char *name;
	} flags[] = {
		{ BPFKIT_RQ_SYNC, "Sync-" },
		{ BPFKIT_RQ_META, "Meta-" },
		{ BPFKIT_RQ_FUA, "FUA-" },
		{ BPFKIT_RQ_PREFLUSH, "Flush-" },
		{ BPFKIT_RQ_RAHEAD, "ReadAhead-" },
	};
	static const char *const ops[] = {
		[0] = "Read",	     [1] = "Write",	  [2] = "Flush",
		[3] = "Discard",     [5] = "SecureErase", [7] = "ZoneAppend",
		[9] = "WriteZeroes", [11] = "ZoneOpen",	  [13] = "ZoneClose",
		[15] = "ZoneFinish", [17] = "ZoneReset",  [19] = "ZoneResetAll",
		[34] = "DrvIn",	     [35] = "DrvOut",
	};
	__u32 code = op & BPFKIT_RQ_OP_MASK;
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if ((op & flags[i].flag) && used < len)
			used += snprintf(buf + used, len - used, "%s",
					 flags[i].name);
	if (used >= len)
		return;
	if (code < sizeof(ops) / sizeof(ops[0]) && ops[code])
		snprintf(buf + used, len - used, "%s", ops[code]);
	else
		snprintf(buf + used, len - used, "Op%u", code);
}
