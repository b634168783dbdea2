// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The staging map: the task's storage where the kernel has it for tracing. */
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/libbpf.h>
#include "diag.h"
#include "staging.h"

/* Whether tracing programs may use task storage, and allocate for it. */
static bool task_storage_usable(void)
{
	if (access("/sys/kernel/realtime", F_OK) == 0)
		return false;
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_TRACEPOINT,
				       BPF_FUNC_task_storage_get, NULL) == 1;
}

int bpfkit_staging_prepare(struct bpf_object *obj, volatile bool *task_storage,
			   bool keep_hash)
{
	struct bpf_map *map;
	int err;

	map = bpf_object__find_map_by_name(obj, BPFKIT_STAGING_MAP);
	if (!map || keep_hash || !task_storage_usable())
		return 0;
	err = bpf_map__set_type(map, BPF_MAP_TYPE_TASK_STORAGE)	     ?:
		      bpf_map__set_map_flags(map, BPF_F_NO_PREALLOC) ?:
		      bpf_map__set_max_entries(map, 0);
	if (err) {
		bpfkit_fail("make the staging map task storage", err);
		return err;
	}
	*task_storage = true;
	return 0;
}
