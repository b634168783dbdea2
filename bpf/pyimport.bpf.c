// SPDX-License-Identifier: GPL-2.0
/*
 * pyimport: time every module a Python process finds and loads, from the
 * USDT probes CPython is built with: python:import__find__load__start(name)
 * and python:import__find__load__done(name, found). Both get the same name
 * pointer (the module name's cached UTF-8), so the start time is kept per
 * thread and name: nested imports each keep their own. User space attaches
 * both programs to the probes in the python binary it names
 * (bpfkit_attach_user()).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/usdt.bpf.h>
#include "bpfkit/channel.bpf.h"
#include "bpfkit/filter.bpf.h"
#include "pyimport.h"

char LICENSE[] SEC("license") = "GPL";

/* An import in progress: the thread and the module name's address. */
struct import_key {
	__u64 tid;
	__u64 name;
};

/* Start times of the imports in progress. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct import_key);
	__type(value, __u64);
} pyimport_started SEC(".maps");

SEC("usdt")
int BPF_USDT(import_start, const char *name)
{
	struct import_key key = { (__u32)bpf_get_current_pid_tgid(),
				  (__u64)name };
	__u64 now;

	if (!bpfkit_selected())
		return 0;
	now = bpf_ktime_get_ns();
	if (bpf_map_update_elem(&pyimport_started, &key, &now, BPF_ANY))
		bpfkit_drop(BPFKIT_STAGING_FULL);
	return 0;
}

SEC("usdt")
int BPF_USDT(import_done, const char *name, int found)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct import_key key = { (__u32)id, (__u64)name };
	struct pyimport_event e = {};
	__u64 *start;

	/* Imports that started before the tool did have no start time. */
	start = bpf_map_lookup_elem(&pyimport_started, &key);
	if (!start)
		return 0;
	e.latency_ns = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&pyimport_started, &key);
	e.pid = id >> 32;
	e.tid = id;
	e.uid = bpf_get_current_uid_gid();
	e.found = found != 0;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_probe_read_user_str(e.module, sizeof(e.module), name);
	bpfkit_emit(ctx, &e.rec, sizeof(e));
	return 0;
}
