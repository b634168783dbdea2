// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * tpfloor [--timed] SECTION...: load the floor programs (one per-CPU
 * counter increment per hit) and attach them to each SECTION, spelled as
 * a BPF program's section: tracepoint/CATEGORY/NAME or raw_tp/NAME; run
 * until a signal or -d. The baseline tools/bench/run's tools row compares
 * a tool's cost per event with, on the tool's own tracepoints. --timed:
 * a syscall's entry (tracepoint/syscalls/sys_enter_*) keeps the time in
 * the task's storage and its exit (sys_exit_*) counts the time taken: the
 * floor of a tool that times calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "diag.h"
#include "run.h"
#include "setup.h"
#include "tpfloor.skel.h"

#define MAX_SECTIONS 64

#define OPT_TIMED 1000

static char *sections[MAX_SECTIONS];
static int nr_sections;
static bool timed;

static const struct argp_option options[] = {
	{ "timed", OPT_TIMED, NULL, 0,
	  "Time each syscall from its entry to its exit (task storage)", 0 },
	{},
};

static error_t parse_own(int key, char *arg, struct argp_state *state)
{
	if (key == OPT_TIMED) {
		timed = true;
		return 0;
	}
	if (key == ARGP_KEY_ARG) {
		if (nr_sections == MAX_SECTIONS)
			return bpfkit_usage_error("more than %d tracepoints",
						  MAX_SECTIONS);
		if (strncmp(arg, "tracepoint/", 11) &&
		    strncmp(arg, "raw_tp/", 7))
			return bpfkit_usage_error(
				"'%s' is neither tracepoint/CATEGORY/NAME nor raw_tp/NAME",
				arg);
		sections[nr_sections++] = arg;
		return 0;
	}
	if (key == ARGP_KEY_END && !nr_sections)
		return bpfkit_usage_error("name at least one tracepoint");
	return ARGP_ERR_UNKNOWN;
}

static const struct bpfkit_tool tool = {
	.name = "tpfloor",
	.doc = "Count the hits of the tracepoints named, per CPU, and nothing else.",
	.args_doc = "tracepoint/CATEGORY/NAME|raw_tp/NAME...",
	.own_options = options,
	.own_parser = parse_own,
};

/* The program for tracepoint CATEGORY/NAME: with --timed, a syscall's. */
static struct bpf_program *tp_program(struct tpfloor_bpf *skel,
				      const char *category, const char *name)
{
	if (timed && !strcmp(category, "syscalls") &&
	    !strncmp(name, "sys_enter_", 10))
		return skel->progs.tpfloor_enter;
	if (timed && !strcmp(category, "syscalls") &&
	    !strncmp(name, "sys_exit_", 9))
		return skel->progs.tpfloor_exit;
	return skel->progs.tpfloor_tp;
}

/* Attach the program of SECTION's kind to it; its link in *LINK. */
static int attach(struct tpfloor_bpf *skel, char *section,
		  struct bpf_link **link)
{
	char *name = strchr(section, '/') + 1, *slash;

	if (!strncmp(section, "raw_tp/", 7)) {
		*link = bpf_program__attach_raw_tracepoint(
			skel->progs.tpfloor_raw, name);
	} else {
		slash = strchr(name, '/');
		if (!slash) {
			bpfkit_error(
				"'%s' has no NAME: write tracepoint/CATEGORY/NAME",
				section);
			return -EINVAL;
		}
		*slash = '\0';
		*link = bpf_program__attach_tracepoint(
			tp_program(skel, name, slash + 1), name, slash + 1);
		*slash = '/';
	}
	if (!*link) {
		char what[256];
		int err = -errno;

		snprintf(what, sizeof(what), "attach to %s", section);
		bpfkit_fail(what, err);
		return err;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_link *links[MAX_SECTIONS] = {};
	struct tpfloor_bpf *skel = NULL;
	int err, i;

	bpfkit_setup(&tool, argc, argv);
	skel = tpfloor_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();
	/* Task storage (Linux 5.11) only when timing. */
	bpf_map__set_autocreate(skel->maps.tpfloor_starts, timed);
	bpf_program__set_autoload(skel->progs.tpfloor_enter, timed);
	bpf_program__set_autoload(skel->progs.tpfloor_exit, timed);
	err = bpfkit_load(skel->skeleton);
	for (i = 0; !err && i < nr_sections; i++)
		err = attach(skel, sections[i], &links[i]);
	if (!err)
		err = bpfkit_run(NULL, NULL);

	for (i = 0; i < nr_sections; i++)
		bpf_link__destroy(links[i]);
	tpfloor_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
