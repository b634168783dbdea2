// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * filelife: print each file created and removed while tracing, with its
 * age: the BPF side sends the paths of the files opens create and of the
 * names unlinked; here they are paired by path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <search.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "tracefs.h"
#include "filelife.h"
#include "filelife.skel.h"

/* Column width of the age. */
enum { AGE_W = 9 };

static const struct bpfkit_tool tool = {
	.name = "filelife",
	.doc = "Trace files created and removed while tracing, with their age.\n"
	       "\v"
	       "A file counts when an open (open, openat, openat2, creat) creates\n"
	       "it and unlink or unlinkat removes it by the same path. Files\n"
	       "made otherwise (mknod, link, rename, O_TMPFILE) are not seen.\n"
	       "\n"
	       "Examples:\n"
	       "  filelife               # every short-lived file on the system\n"
	       "  filelife -c make -T    # files make removed, with time\n"
	       "  filelife -j            # as JSON Lines\n",
	.options = BPFKIT_OPT_EVENTS,
};

/* A file created and not yet removed, found by its path. */
struct created {
	char *path;
	__u64 ktime_ns;
	__u32 pid;
	char comm[BPFKIT_COMM_LEN];
};

static void *created_files; /* tsearch(3) tree of struct created */

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct created *)a)->path,
		      ((const struct created *)b)->path);
}

static void free_created(void *p)
{
	struct created *c = p;

	free(c->path);
	free(c);
}

/*
 * Add the components NAMES (N of them, leaf first) to the path being built
 * in PARTS (*NP so far, root first), then the '/'-separated components of
 * REL: "." and empty ones are skipped, ".." drops the last one, each is cut
 * to BPFKIT_NAME_LEN - 1 bytes as the kernel side cuts names.
 */
static void add_rel(char parts[][BPFKIT_NAME_LEN], size_t max, size_t *np,
		    const char *rel)
{
	const char *s = rel, *end;
	size_t len;

	while (*s) {
		end = strchrnul(s, '/');
		len = end - s;
		if (len == 2 && !strncmp(s, "..", 2)) {
			if (*np)
				(*np)--;
		} else if (len && !(len == 1 && *s == '.')) {
			if (*np == max) {
				memmove(parts[0], parts[1],
					(max - 1) * sizeof(parts[0]));
				(*np)--;
			}
			if (len >= BPFKIT_NAME_LEN)
				len = BPFKIT_NAME_LEN - 1;
			memcpy(parts[*np], s, len);
			parts[(*np)++][len] = '\0';
		}
		s = *end ? end + 1 : end;
	}
}

/*
 * The path E is about, as both kinds of record give it: its last
 * BPFKIT_PATH_DEPTH components from the root of the mount tree (NAMES,
 * leaf first), joined, and an unlink's path (REL, PATH_LEN bytes). NULL
 * when out of memory.
 */
static char *event_path(const struct filelife_event *e,
			const char (*names)[BPFKIT_NAME_LEN], const char *rel,
			size_t path_len)
{
	static char parts[BPFKIT_PATH_DEPTH][BPFKIT_NAME_LEN];
	size_t n = 0, i, len = 2;
	char *path, *p;

	/* Root first; an empty name is a mount crossed. */
	for (i = e->depth; i-- > 0;) {
		if (!names[i][0])
			continue;
		memcpy(parts[n], names[i], BPFKIT_NAME_LEN);
		parts[n++][BPFKIT_NAME_LEN - 1] = '\0';
	}
	if (e->kind == FILELIFE_UNLINK) {
		char path_rel[FILELIFE_PATH_MAX];

		memcpy(path_rel, rel, path_len);
		path_rel[path_len] = '\0';
		add_rel(parts, BPFKIT_PATH_DEPTH, &n, path_rel);
	}
	for (i = 0; i < n; i++)
		len += strlen(parts[i]) + 1;
	path = p = malloc(len);
	if (!path)
		return NULL;
	for (i = 0; i < n; i++)
		p += sprintf(p, "/%s", parts[i]);
	if (!n)
		strcpy(path, "/");
	return path;
}

static void print_removed(const struct filelife_event *e,
			  const struct created *c)
{
	double age = (e->rec.ktime_ns - c->ktime_ns) / 1e9;
	struct bpfkit_json j;

	if (bpfkit_output_json()) {
		bpfkit_json_begin(&j, stdout, &e->rec);
		bpfkit_json_task(&j, e->pid, e->tid, e->uid, e->comm);
		bpfkit_json_uint(&j, "age_ns", e->rec.ktime_ns - c->ktime_ns);
		bpfkit_json_str(&j, "path", c->path, strlen(c->path));
		bpfkit_json_uint(&j, "creator_pid", c->pid);
		bpfkit_json_str(&j, "creator_comm", c->comm, sizeof(c->comm));
		bpfkit_json_end(&j);
		return;
	}
	bpfkit_print_time(&e->rec);
	bpfkit_print_task(e->pid, e->comm);
	printf("%*.3f ", AGE_W, age);
	bpfkit_col_escape(stdout, c->path, strlen(c->path), false);
	putchar('\n');
}

/* Remember a created file; print a removed one that was created. */
static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	const size_t head = offsetof(struct filelife_event, data);
	const struct filelife_event *e = data;
	struct created key = {}, *c, **found;
	size_t path_len = 0;

	/* The path's bytes, then the names' (a path fills FILELIFE_PATH_MAX). */
	if (size < head || e->path_len > FILELIFE_PATH_MAX ||
	    e->depth > BPFKIT_PATH_DEPTH ||
	    size - head < e->path_len + e->depth * BPFKIT_NAME_LEN)
		return BPFKIT_UNREADABLE;
	if (e->kind == FILELIFE_UNLINK)
		path_len = strnlen(e->data, e->path_len ? e->path_len - 1 : 0);
	key.path = event_path(e, (const void *)(e->data + e->path_len), e->data,
			      path_len);
	if (!key.path)
		return BPFKIT_UNREADABLE;
	found = tfind(&key, &created_files, by_path);
	if (e->kind == FILELIFE_CREATE) {
		/* Created again (removed unseen, or renamed away): now. */
		if (found) {
			c = *found;
			free(key.path);
		} else {
			c = calloc(1, sizeof(*c));
			if (!c || !(c->path = key.path) ||
			    !tsearch(c, &created_files, by_path)) {
				free(c);
				free(key.path);
				return BPFKIT_UNREADABLE;
			}
		}
		c->ktime_ns = e->rec.ktime_ns;
		c->pid = e->pid;
		memcpy(c->comm, e->comm, sizeof(c->comm));
		return BPFKIT_FILTERED;
	}
	free(key.path);
	if (!found)
		return BPFKIT_FILTERED;
	c = *found;
	print_removed(e, c);
	tdelete(c, &created_files, by_path);
	free_created(c);
	return BPFKIT_SHOWN;
}

/* The calls traced: each one's enter program, and the exit they share. */
enum { NR_CALLS = 6 };

static void file_calls(struct filelife_bpf *skel,
		       struct bpfkit_syscall_tp calls[NR_CALLS])
{
	const struct bpfkit_syscall_tp c[NR_CALLS] = {
		{ skel->progs.open_enter, skel->progs.file_exit, "open" },
		{ skel->progs.openat_enter, skel->progs.file_exit, "openat" },
		{ skel->progs.openat2_enter, skel->progs.file_exit, "openat2" },
		{ skel->progs.creat_enter, skel->progs.file_exit, "creat" },
		{ skel->progs.unlink_enter_prog, skel->progs.file_exit,
		  "unlink" },
		{ skel->progs.unlinkat_enter, skel->progs.file_exit,
		  "unlinkat" },
	};

	memcpy(calls, c, sizeof(c));
}

int main(int argc, char **argv)
{
	struct bpfkit_syscall_tp calls[NR_CALLS];
	struct filelife_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = filelife_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* Keep the tracepoints this kernel has. */
	file_calls(skel, calls);
	err = bpfkit_syscall_tps_autoload(
		calls, NR_CALLS, "sys_enter_openat and sys_enter_unlinkat");
	if (err)
		goto cleanup;

	/* Load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Open the event channel, then attach to the syscalls. */
	err = bpfkit_attach_syscalls(skel->skeleton, calls, NR_CALLS,
				     print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print the header, then files until the end. */
	bpfkit_print_header("%-*s %-*s %*s FILE\n", BPFKIT_PID_W, "PID",
			    BPFKIT_COMM_W, "COMM", AGE_W, "AGE(s)");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	tdestroy(created_files, free_created);
	filelife_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
