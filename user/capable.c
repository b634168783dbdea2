// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * capable: print every capability check the kernel makes, with the
 * process, the capability's name and the result, from the
 * capability:cap_capable tracepoint (Linux 6.14 on).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/capability.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "capable.h"
#include "capable.skel.h"

/* Column widths, for the header and every row. */
enum { UID_W = 7, PID_W = 7, COMM_W = 15, CAP_W = 3, NAME_W = 22 };

static const struct bpfkit_tool tool = {
	.name = "capable",
	.doc = "Trace capability checks: the process, the capability and whether it was granted.\n"
	       "\v"
	       "VERDICT is allow (the check returned 0) or deny (-EPERM).\n"
	       "\n"
	       "Examples:\n"
	       "  capable                    # every check on the system\n"
	       "  capable -x                 # denied checks only\n"
	       "  capable -p 181 -j          # process 181's, as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS | BPFKIT_OPT_FAILED,
	.tracepoints =
		(const struct bpfkit_tracepoint[]){ { "capability",
						      "cap_capable",
						      "it came in Linux 6.14" },
						    {} },
};

#define CAP_NAME(c) [CAP_##c] = "CAP_" #c

/* The capabilities of <linux/capability.h>, by number. */
static const char *const cap_names[] = {
	CAP_NAME(CHOWN),
	CAP_NAME(DAC_OVERRIDE),
	CAP_NAME(DAC_READ_SEARCH),
	CAP_NAME(FOWNER),
	CAP_NAME(FSETID),
	CAP_NAME(KILL),
	CAP_NAME(SETGID),
	CAP_NAME(SETUID),
	CAP_NAME(SETPCAP),
	CAP_NAME(LINUX_IMMUTABLE),
	CAP_NAME(NET_BIND_SERVICE),
	CAP_NAME(NET_BROADCAST),
	CAP_NAME(NET_ADMIN),
	CAP_NAME(NET_RAW),
	CAP_NAME(IPC_LOCK),
	CAP_NAME(IPC_OWNER),
	CAP_NAME(SYS_MODULE),
	CAP_NAME(SYS_RAWIO),
	CAP_NAME(SYS_CHROOT),
	CAP_NAME(SYS_PTRACE),
	CAP_NAME(SYS_PACCT),
	CAP_NAME(SYS_ADMIN),
	CAP_NAME(SYS_BOOT),
	CAP_NAME(SYS_NICE),
	CAP_NAME(SYS_RESOURCE),
	CAP_NAME(SYS_TIME),
	CAP_NAME(SYS_TTY_CONFIG),
	CAP_NAME(MKNOD),
	CAP_NAME(LEASE),
	CAP_NAME(AUDIT_WRITE),
	CAP_NAME(AUDIT_CONTROL),
	CAP_NAME(SETFCAP),
	CAP_NAME(MAC_OVERRIDE),
	CAP_NAME(MAC_ADMIN),
	CAP_NAME(SYSLOG),
	CAP_NAME(WAKE_ALARM),
	CAP_NAME(BLOCK_SUSPEND),
	CAP_NAME(AUDIT_READ),
	CAP_NAME(PERFMON),
	CAP_NAME(BPF),
	CAP_NAME(CHECKPOINT_RESTORE),
};

/* Capability CAP's name; a newer kernel's, unknown here, by number. */
static const char *cap_name(int cap, char *buf, size_t len)
{
	if (cap >= 0 && cap < (int)(sizeof(cap_names) / sizeof(cap_names[0])))
		return cap_names[cap];
	snprintf(buf, len, "CAP_%d", cap);
	return buf;
}

static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const struct capable_event *e = data;
	const char *name, *verdict;
	struct bpfkit_json j;
	char buf[16];

	if (size < sizeof(*e))
		return BPFKIT_UNREADABLE;
	name = cap_name(e->cap, buf, sizeof(buf));
	verdict = e->ret ? "deny" : "allow";
	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
		bpfkit_json_int(&j, "cap", e->cap);
		bpfkit_json_str(&j, "name", name, strlen(name));
		bpfkit_json_int(&j, "ret", e->ret);
		bpfkit_json_str(&j, "verdict", verdict, strlen(verdict));
		bpfkit_json_end(&j);
		return BPFKIT_SHOWN;
	}
	bpfkit_print_time(&e->rec);
	printf("%-*u %-*u ", UID_W, e->uid, PID_W, e->pid);
	bpfkit_print_str(e->comm, sizeof(e->comm), COMM_W);
	printf("%-*d %-*s %s\n", CAP_W, e->cap, NAME_W, name, verdict);
	return BPFKIT_SHOWN;
}

int main(int argc, char **argv)
{
	struct capable_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs, BTF and cap_capable. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = capable_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();
	skel->rodata->failed_only = bpfkit_opts.failed_only;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to cap_capable. */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then checks until a signal or --duration. */
	bpfkit_print_header("%-*s %-*s %-*s %-*s %-*s %s\n", UID_W, "UID",
			    PID_W, "PID", COMM_W, "COMM", CAP_W, "CAP", NAME_W,
			    "NAME", "VERDICT");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	capable_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
