/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The steps every tool takes with its skeleton after opening it, each
 * reporting its own failure in one line:
 *
 *	skel = NAME_bpf__open_opts(bpfkit_open_opts());
 *	skel->rodata->my_setting = ...;
 *	err = bpfkit_load(skel->skeleton, &skel->rodata->bpfkit_cfg) ?:
 *	      bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
 *	if (!err)
 *		err = bpfkit_run(ch, NULL);
 */
#ifndef BPFKIT_SETUP_H
#define BPFKIT_SETUP_H

#include <bpf/libbpf.h>
#include "bpfkit/channel.h"
#include "channel.h"

/*
 * Write the filters and channel settings into the object's read-only
 * bpfkit_cfg, pick the transport, then load and verify every program.
 */
int bpfkit_load(struct bpf_object_skeleton *s, struct bpfkit_cfg *rodata);

/*
 * Open the event channel (when FN is set) before attaching, so that no
 * event misses its reader; then attach every program left to autoattach.
 */
int bpfkit_attach(struct bpf_object_skeleton *s, bpfkit_event_fn fn, void *ctx,
		  struct bpfkit_channel **ch);

#endif /* BPFKIT_SETUP_H */
