// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The load and attach steps every tool takes with its skeleton. */
#include <errno.h>
#include "diag.h"
#include "setup.h"

int bpfkit_load(struct bpf_object_skeleton *s, struct bpfkit_cfg *rodata)
{
	int err;

	err = bpfkit_channel_prepare(*s->obj, rodata);
	if (err)
		return err;
	err = bpf_object__load_skeleton(s);
	if (err)
		bpfkit_fail("load BPF programs", err);
	return err;
}

int bpfkit_attach(struct bpf_object_skeleton *s, bpfkit_event_fn fn, void *ctx,
		  struct bpfkit_channel **ch)
{
	int err;

	if (fn) {
		*ch = bpfkit_channel_open(*s->obj, fn, ctx);
		if (!*ch) {
			err = -errno;
			bpfkit_fail("open the event channel", err);
			return err;
		}
	}
	err = bpf_object__attach_skeleton(s);
	if (err)
		bpfkit_fail("attach BPF programs", err);
	return err;
}
