// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The stack tools' reader: counts by stack from the BPF maps, symbolized,
 * as folded stacks, top functions, JSON Lines or a flame graph (SVG).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include "diag.h"
#include "output.h"
#include "stacks.h"
#include "symbols.h"

#define PIDS_PER_TICK 256 /* new pids read per tick; the rest wait */
/* A user stack of this many frames or fewer may have lost its callers. */
#define SHORT_STACK 2
/* Frames a row holds: both stacks, with room for -L's inlined functions. */
#define ROW_FRAMES (4 * BPFKIT_STACK_DEPTH)
#define TICK_MS 100

/* The frames the kernel gives for a stack that had no room in its map. */
static const struct bpfkit_frame stack_full_user = {
	.name = "[user stack lost: no room in the stack map]",
	.label = "[user stack lost: no room in the stack map]",
	.kind = BPFKIT_FRAME_USER,
};
static const struct bpfkit_frame stack_full_kernel = {
	.name = "[kernel stack lost: no room in the stack map]",
	.label = "[kernel stack lost: no room in the stack map]",
	.kind = BPFKIT_FRAME_KERNEL,
};

/* One counted key with its frames, root first. */
struct row {
	struct bpfkit_stack_key key;
	__u64 count;
	/* "comm;frame;...;frame", or "target;frame;...;frame;comm", escaped */
	char *folded;
	const struct bpfkit_frame **frames;
	int nframes;
};

struct bpfkit_stacks {
	struct bpfkit_stacks_opts opts;
	struct bpfkit_stacks_unit unit;
	const struct bpfkit_stack_stats *stats;
	int stacks_fd, counts_fd, pids_fd;
	struct bpfkit_syms *syms;
	struct row *rows;
	size_t nrows;
	unsigned long since_ms; /* since the last report (unit.interval_ms) */
	/* Binaries whose user stacks stop short, as the hint names them. */
	const char **no_fp;
	size_t nno_fp;
};

static int map_fd(struct bpf_object *obj, const char *name)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);

	return map ? bpf_map__fd(map) : -ENOENT;
}

int bpfkit_stacks_open(struct bpfkit_stacks **out, struct bpf_object *obj,
		       const struct bpfkit_stacks_opts *opts,
		       const struct bpfkit_stacks_unit *unit,
		       const struct bpfkit_stack_stats *stats)
{
	struct bpfkit_syms_opts sopts = { .lines = opts->lines };
	struct bpfkit_stacks *r = calloc(1, sizeof(*r));

	*out = r;
	if (r)
		r->syms = bpfkit_syms_new(&sopts);
	if (!r || !r->syms) {
		bpfkit_fail("allocate the stack reader", -ENOMEM);
		return -ENOMEM;
	}
	r->opts = *opts;
	r->unit = *unit;
	r->stats = stats;
	r->stacks_fd = map_fd(obj, "bpfkit_stacks");
	r->counts_fd = map_fd(obj, "bpfkit_stack_counts");
	r->pids_fd = map_fd(obj, "bpfkit_stack_pids");
	if (r->stacks_fd < 0 || r->counts_fd < 0 || r->pids_fd < 0) {
		bpfkit_fail("find the stack maps", -ENOENT);
		return -ENOENT;
	}
	return 0;
}

/*
 * Read the maps of the processes seen since the last tick, while they run;
 * report every unit.interval_ms.
 */
static int read_new_pids(void *ctx)
{
	struct bpfkit_stacks *r = ctx;
	__u32 pids[PIDS_PER_TICK], key, next;
	int n = 0, i;
	void *prev = NULL;

	while (n < PIDS_PER_TICK &&
	       !bpf_map_get_next_key(r->pids_fd, prev, &next)) {
		pids[n++] = next;
		key = next;
		prev = &key;
	}
	for (i = 0; i < n; i++) {
		bpfkit_syms_add_pid(r->syms, pids[i]);
		bpf_map_delete_elem(r->pids_fd, &pids[i]);
	}
	if (!r->unit.interval_ms)
		return 0;
	r->since_ms += TICK_MS;
	if (r->since_ms < r->unit.interval_ms)
		return 0;
	r->since_ms = 0;
	return bpfkit_stacks_report(r) ?: bpfkit_check_stdout();
}

struct bpfkit_tick bpfkit_stacks_tick(struct bpfkit_stacks *r)
{
	return (struct bpfkit_tick){ .interval_ms = TICK_MS,
				     .fn = read_new_pids,
				     .ctx = r };
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* A name for a folded line: escaped like a column, ';' (the separator) as '_'. */
static void put_folded_name(FILE *f, const char *s)
{
	char buf[1024];
	size_t i, len = strlen(s);

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	for (i = 0; i < len; i++)
		buf[i] = s[i] == ';' ? '_' : s[i];
	bpfkit_col_escape(f, buf, len, false);
}

/* Whether F is where a thread's user stack starts: main, _start, libc's. */
static bool is_stack_root(const struct bpfkit_frame *f)
{
	static const char *const roots[] = { "main",
					     "_start",
					     "__libc_start_main",
					     "__libc_start_call_main",
					     "start_thread",
					     "clone",
					     "clone3",
					     "__clone",
					     "__clone3" };
	size_t i;

	for (i = 0; f->name && i < sizeof(roots) / sizeof(roots[0]); i++)
		if (!strcmp(f->name, roots[i]))
			return true;
	return false;
}

/*
 * A user stack of one or two frames whose outermost is not a thread's start
 * was most likely walked through code built without frame pointers: its
 * innermost frame's binary is kept for the hint (once each).
 */
static void note_short_stack(struct bpfkit_stacks *r,
			     const struct bpfkit_frame *inner,
			     const struct bpfkit_frame *outer)
{
	const char **no_fp;
	size_t i;

	if (inner->kind != BPFKIT_FRAME_USER || !inner->module ||
	    is_stack_root(outer))
		return;
	for (i = 0; i < r->nno_fp; i++)
		if (!strcmp(r->no_fp[i], inner->module))
			return;
	no_fp = realloc(r->no_fp, (r->nno_fp + 1) * sizeof(*no_fp));
	if (!no_fp)
		return; /* a hint only */
	r->no_fp = no_fp;
	r->no_fp[r->nno_fp++] = inner->module;
}

/*
 * Append F to ROW's FRAMES: after the functions it was inlined into (-L),
 * outermost first, as far as the row has room.
 */
static void add_frame(struct row *row, const struct bpfkit_frame **frames,
		      const struct bpfkit_frame *f)
{
	const struct bpfkit_frame *chain[BPFKIT_STACK_DEPTH];
	int n = 0;

	for (; f && n < BPFKIT_STACK_DEPTH; f = f->inlined_into)
		chain[n++] = f;
	while (n-- > 0 && row->nframes < ROW_FRAMES)
		frames[row->nframes++] = chain[n];
}

/* Append stack ID's frames, root first, to ROW. */
static void add_stack(struct bpfkit_stacks *r, struct row *row, __u64 id,
		      bool user, const struct bpfkit_frame **frames)
{
	const struct bpfkit_frame *outer = NULL, *inner = NULL;
	struct bpfkit_stack st;
	int depth, skip, i;

	if (id == BPFKIT_STACK_LOST) {
		frames[row->nframes++] = user ? &stack_full_user :
						&stack_full_kernel;
		return;
	}
	if (id == BPFKIT_STACK_NONE ||
	    bpf_map_lookup_elem(r->stacks_fd, &id, &st))
		return;
	for (depth = 0; depth < BPFKIT_STACK_DEPTH && st.ips[depth]; depth++)
		;
	/* A kernel stack taken in a tracepoint ends in the tracing itself. */
	for (skip = 0;
	     !user && skip < depth &&
	     bpfkit_tracing_frame(bpfkit_syms_kernel(r->syms, st.ips[skip]));
	     skip++)
		;
	for (i = depth - 1; i >= skip; i--) {
		inner = user ? bpfkit_syms_user(r->syms, row->key.pid,
						st.ips[i]) :
			       bpfkit_syms_kernel(r->syms, st.ips[i]);
		outer = outer ?: inner;
		add_frame(row, frames, inner);
	}
	if (user && depth && depth <= SHORT_STACK)
		note_short_stack(r, inner, outer);
}

static int fill_row(struct bpfkit_stacks *r, struct row *row)
{
	const struct bpfkit_frame *frames[ROW_FRAMES];
	size_t size;
	FILE *f;
	int i;

	add_stack(r, row, row->key.user_stack, true, frames);
	add_stack(r, row, row->key.kernel_stack, false, frames);
	row->frames = malloc((row->nframes ?: 1) * sizeof(*frames));
	f = open_memstream(&row->folded, &size);
	if (!row->frames || !f) {
		if (f)
			fclose(f);
		return -ENOMEM;
	}
	memcpy(row->frames, frames, row->nframes * sizeof(*frames));
	/* A waker's stack: under the task it woke, with its own name last. */
	put_folded_name(f,
			row->key.target[0] ? row->key.target : row->key.comm);
	for (i = 0; i < row->nframes; i++) {
		const struct bpfkit_frame *fr = row->frames[i];

		fputc(';', f);
		put_folded_name(f, fr->label);
		/* -L: each call site its own frame, "name [file.c:12]". */
		if (fr->file) {
			fputs(" [", f);
			put_folded_name(f, basename_of(fr->file));
			fprintf(f, ":%d]", fr->line);
		}
	}
	if (row->key.target[0]) {
		fputc(';', f);
		put_folded_name(f, row->key.comm);
	}
	return fclose(f) ? -ENOMEM : 0;
}

/* Every key and its count, from the counts map. */
static int read_rows(struct bpfkit_stacks *r)
{
	struct bpfkit_stack_key key, next;
	void *prev = NULL;
	size_t cap = 0;
	struct row *rows;
	__u64 count;
	int err;

	while (!bpf_map_get_next_key(r->counts_fd, prev, &next)) {
		key = next;
		prev = &key;
		/* A key whose frees matched its allocations (memleak). */
		if (bpf_map_lookup_elem(r->counts_fd, &key, &count) || !count)
			continue;
		if (r->nrows == cap) {
			cap = cap ? cap * 2 : 256;
			rows = realloc(r->rows, cap * sizeof(*rows));
			if (!rows)
				return -ENOMEM;
			r->rows = rows;
		}
		r->rows[r->nrows] = (struct row){ .key = key, .count = count };
		err = fill_row(r, &r->rows[r->nrows++]);
		if (err)
			return err;
	}
	return 0;
}

static int by_folded(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return strcmp(x->folded, y->folded);
}

static int by_count(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->folded, y->folded);
}

/*
 * Rows whose folded lines are the same (one stack in several processes
 * of one name) become one, with the sum of their counts; most counted
 * first.
 */
static size_t merge_rows(struct row *rows, size_t n)
{
	size_t i, m = 0;

	if (!n)
		return 0; /* no rows (qsort must not see a NULL array) */
	qsort(rows, n, sizeof(*rows), by_folded);
	for (i = 0; i < n; i++) {
		if (m && !strcmp(rows[m - 1].folded, rows[i].folded)) {
			rows[m - 1].count += rows[i].count;
			free(rows[i].folded);
			free(rows[i].frames);
			continue;
		}
		rows[m++] = rows[i];
	}
	qsort(rows, m, sizeof(*rows), by_count);
	return m;
}

static __u64 shown(const struct bpfkit_stacks *r, __u64 count)
{
	return r->unit.divisor > 1 ? count / r->unit.divisor : count;
}

/*
 * Each row is flushed as it is printed: a write that fails keeps its errno
 * (a full disk says so, not EIO), and a reader gone (| head) ends the
 * output at once. 1: the reader has gone; -errno: the write failed.
 */
static int print_folded(const struct bpfkit_stacks *r, const struct row *rows,
			size_t n)
{
	size_t i;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		printf("%s %llu\n", rows[i].folded,
		       (unsigned long long)shown(r, rows[i].count));
		err = bpfkit_output_flush();
	}
	return err;
}

static const char *kind_name(enum bpfkit_frame_kind kind)
{
	return kind == BPFKIT_FRAME_KERNEL ? "kernel" :
	       kind == BPFKIT_FRAME_JIT	   ? "jit" :
					     "user";
}

/*
 * One object per unique stack: its process, count and frames, root first;
 * flushed as print_folded's rows are.
 */
static int print_json(const struct bpfkit_stacks *r, const struct row *rows,
		      size_t n)
{
	struct bpfkit_json j;
	size_t i;
	int k, err = 0;

	for (i = 0; i < n && !err; i++) {
		const struct row *row = &rows[i];

		bpfkit_json_begin(&j, stdout, NULL);
		bpfkit_json_uint(&j, "pid", row->key.pid);
		bpfkit_json_str(&j, "comm", row->key.comm,
				sizeof(row->key.comm));
		if (row->key.target[0])
			bpfkit_json_str(&j, "target", row->key.target,
					sizeof(row->key.target));
		bpfkit_json_uint(&j, r->unit.name, shown(r, row->count));
		bpfkit_json_array_begin(&j, "frames");
		for (k = 0; k < row->nframes; k++) {
			const struct bpfkit_frame *f = row->frames[k];

			bpfkit_json_object_begin(&j, NULL);
			bpfkit_json_str(&j, "name", f->label, strlen(f->label));
			if (f->module)
				bpfkit_json_str(&j, "module", f->module,
						strlen(f->module));
			bpfkit_json_uint(&j, "offset", f->offset);
			bpfkit_json_str(&j, "kind", kind_name(f->kind), 8);
			if (f->inlined_into)
				bpfkit_json_bool(&j, "inlined", true);
			if (f->file) {
				bpfkit_json_str(&j, "file", f->file,
						strlen(f->file));
				bpfkit_json_int(&j, "line", f->line);
			}
			bpfkit_json_object_end(&j);
		}
		bpfkit_json_array_end(&j);
		bpfkit_json_end(&j);
		err = bpfkit_output_flush();
	}
	return err;
}

/* A function's count as the innermost frame of the stacks counted. */
struct top_fn {
	const struct bpfkit_frame *frame;
	__u64 count;
};

static int by_top_count(const void *a, const void *b)
{
	const struct top_fn *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->frame->label, y->frame->label);
}

/* The --top N functions: where the samples (or the time) were spent. */
static int print_top(const struct bpfkit_stacks *r, const struct row *rows,
		     size_t n)
{
	struct top_fn *fns = calloc(n ?: 1, sizeof(*fns));
	size_t i, k, nfns = 0;
	struct bpfkit_json j;
	__u64 total = 0;

	if (!fns)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct bpfkit_frame *leaf;

		total += rows[i].count;
		if (!rows[i].nframes)
			continue;
		leaf = rows[i].frames[rows[i].nframes - 1];
		for (k = 0;
		     k < nfns && strcmp(fns[k].frame->label, leaf->label); k++)
			;
		if (k == nfns)
			fns[nfns++].frame = leaf;
		fns[k].count += rows[i].count;
	}
	if (nfns)
		qsort(fns, nfns, sizeof(*fns), by_top_count);
	if (!bpfkit_output_json())
		printf("%7s %12s  %s\n", "PCT", r->unit.name, "FUNCTION");
	for (i = 0; i < nfns && i < r->opts.top; i++) {
		double pct = total ? 100.0 * fns[i].count / total : 0;
		const char *label = fns[i].frame->label;

		if (bpfkit_output_json()) {
			bpfkit_json_begin(&j, stdout, NULL);
			bpfkit_json_str(&j, "function", label, strlen(label));
			bpfkit_json_uint(&j, r->unit.name,
					 shown(r, fns[i].count));
			bpfkit_json_double(&j, "percent", pct);
			bpfkit_json_end(&j);
			continue;
		}
		printf("%6.2f%% %12llu  ", pct,
		       (unsigned long long)shown(r, fns[i].count));
		bpfkit_col_escape(stdout, label, strlen(label), false);
		putchar('\n');
	}
	free(fns);
	return 0;
}

/* A flame graph node: one frame under its parent, with its total. */
struct node {
	const char *label; /* the folded name, escaped */
	enum bpfkit_frame_kind kind;
	bool root_or_comm;
	__u64 value;
	struct node *child, *next;
};

static struct node *child_of(struct node *parent, const char *label,
			     enum bpfkit_frame_kind kind, bool comm)
{
	struct node *c;

	for (c = parent->child; c; c = c->next)
		if (c->kind == kind && c->root_or_comm == comm &&
		    !strcmp(c->label, label))
			return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->label = label;
	c->kind = kind;
	c->root_or_comm = comm;
	c->next = parent->child;
	parent->child = c;
	return c;
}

static void free_tree(struct node *n)
{
	struct node *c, *next;

	for (c = n->child; c; c = next) {
		next = c->next;
		free_tree(c);
		free(c);
	}
}

/*
 * The tree of every row's frames under "all" and the command's name (a
 * waker's: under the name of the task it woke, its own name on top).
 */
static int build_tree(struct node *root, const struct row *rows, size_t n,
		      int *max_depth)
{
	struct node *at;
	bool woken;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		root->value += rows[i].count;
		woken = rows[i].key.target[0];
		at = child_of(root,
			      woken ? rows[i].key.target : rows[i].key.comm,
			      BPFKIT_FRAME_USER, true);
		if (!at)
			return -ENOMEM;
		at->value += rows[i].count;
		for (k = 0; k < rows[i].nframes; k++) {
			at = child_of(at, rows[i].frames[k]->label,
				      rows[i].frames[k]->kind, false);
			if (!at)
				return -ENOMEM;
			at->value += rows[i].count;
		}
		if (woken) {
			at = child_of(at, rows[i].key.comm, BPFKIT_FRAME_USER,
				      true);
			if (!at)
				return -ENOMEM;
			at->value += rows[i].count;
		}
		if (rows[i].nframes + 1 + woken > *max_depth)
			*max_depth = rows[i].nframes + 1 + woken;
	}
	return 0;
}

#define SVG_WIDTH 1200
#define SVG_PAD 10
#define SVG_FRAME_H 16
#define SVG_CHAR_W 7 /* of the 12 px monospace font */
#define SVG_MIN_W 0.1 /* narrower frames are left out */

/* Text for XML: escaped as a column first (valid UTF-8, no controls). */
static void put_xml(FILE *f, const char *s, size_t max_chars)
{
	char *col = NULL, *p;
	size_t size, n = 0;
	FILE *m = open_memstream(&col, &size);

	if (!m)
		return;
	bpfkit_col_escape(m, s, strlen(s), false);
	if (fclose(m))
		return;
	for (p = col; *p; p++) {
		/* Count characters, not the bytes of UTF-8 sequences. */
		if ((*p & 0xc0) != 0x80 && ++n > max_chars)
			break;
		switch (*p) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*p, f);
		}
	}
	free(col);
}

/* Colours: warm for user code, orange for the kernel, green for JIT. */
static void node_colour(const struct node *n, char *buf, size_t len)
{
	unsigned int h = 0;
	const char *p;

	for (p = n->label; *p; p++)
		h = h * 31 + (unsigned char)*p;
	if (n->root_or_comm)
		snprintf(buf, len, "rgb(%u,%u,%u)", 190 + h % 20, 190 + h % 20,
			 200);
	else if (n->kind == BPFKIT_FRAME_KERNEL)
		snprintf(buf, len, "rgb(%u,%u,%u)", 220 + h % 30, 130 + h % 50,
			 40);
	else if (n->kind == BPFKIT_FRAME_JIT)
		snprintf(buf, len, "rgb(%u,%u,%u)", 60 + h % 50, 180 + h % 60,
			 70);
	else
		snprintf(buf, len, "rgb(%u,%u,%u)", 225 + h % 30, 60 + h % 110,
			 50 + h % 30);
}

static void svg_node(FILE *f, const struct bpfkit_stacks *r,
		     const struct node *n, __u64 total, double x, int depth,
		     int height)
{
	double fw = SVG_WIDTH - 2 * SVG_PAD, w = fw * n->value / total;
	double y = height - 2 * SVG_FRAME_H - depth * SVG_FRAME_H;
	const struct node *c;
	char colour[32];
	int chars;

	if (w < SVG_MIN_W)
		return;
	node_colour(n, colour, sizeof(colour));
	fprintf(f,
		"<g class=\"f\" data-x=\"%.9f\" data-w=\"%.9f\" data-d=\"%d\" data-n=\"",
		x / fw, w / fw, depth);
	put_xml(f, n->label, ~(size_t)0);
	fputs("\"><title>", f);
	put_xml(f, n->label, ~(size_t)0);
	fprintf(f, " (%llu %s, %.2f%%)</title>",
		(unsigned long long)shown(r, n->value), r->unit.name,
		100.0 * n->value / total);
	fprintf(f,
		"<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>",
		SVG_PAD + x, y, w > 0.5 ? w - 0.5 : w, SVG_FRAME_H - 1, colour);
	chars = (int)((w - 6) / SVG_CHAR_W);
	fprintf(f, "<text x=\"%.2f\" y=\"%.1f\">", SVG_PAD + x + 3, y + 11.5);
	if (chars >= 3) {
		if (strlen(n->label) <= (size_t)chars) {
			put_xml(f, n->label, chars);
		} else {
			put_xml(f, n->label, chars - 2);
			fputs("..", f);
		}
	}
	fputs("</text></g>\n", f);
	for (c = n->child; c; c = c->next) {
		svg_node(f, r, c, total, x, depth + 1, height);
		x += fw * c->value / total;
	}
}

/* Click a frame to zoom into it (its ancestors span the width); the root resets. */
static const char svg_script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"var FW = %d, PAD = %d, CW = %d;\n"
	"function fit(g, w) {\n"
	"  var t = g.querySelector('text'), n = g.getAttribute('data-n');\n"
	"  var c = Math.floor((w - 6) / CW);\n"
	"  t.textContent = c < 3 ? '' : n.length <= c ? n : n.substring(0, c - 2) + '..';\n"
	"}\n"
	"function zoom(e) {\n"
	"  var g = e.currentTarget, x0 = +g.getAttribute('data-x');\n"
	"  var w0 = +g.getAttribute('data-w'), d0 = +g.getAttribute('data-d');\n"
	"  var all = document.querySelectorAll('g.f'), eps = 1e-9;\n"
	"  for (var i = 0; i < all.length; i++) {\n"
	"    var a = all[i], x = +a.getAttribute('data-x'), w = +a.getAttribute('data-w');\n"
	"    var d = +a.getAttribute('data-d'), nx, nw;\n"
	"    if (d >= d0 && x >= x0 - eps && x + w <= x0 + w0 + eps) { nx = (x - x0) / w0; nw = w / w0; }\n"
	"    else if (d < d0 && x <= x0 + eps && x + w >= x0 + w0 - eps) { nx = 0; nw = 1; }\n"
	"    else { a.style.display = 'none'; continue; }\n"
	"    a.style.display = '';\n"
	"    var r = a.querySelector('rect');\n"
	"    r.setAttribute('x', PAD + nx * FW);\n"
	"    r.setAttribute('width', Math.max(nw * FW - 0.5, 0));\n"
	"    a.querySelector('text').setAttribute('x', PAD + nx * FW + 3);\n"
	"    fit(a, nw * FW);\n"
	"  }\n"
	"}\n"
	"window.addEventListener('load', function () {\n"
	"  var all = document.querySelectorAll('g.f');\n"
	"  for (var i = 0; i < all.length; i++) all[i].addEventListener('click', zoom);\n"
	"});\n"
	"]]></script>\n";

static int write_svg(const struct bpfkit_stacks *r, const struct row *rows,
		     size_t n)
{
	struct node root = { .label = "all", .root_or_comm = true };
	int max_depth = 0, height, err;
	FILE *f;

	err = build_tree(&root, rows, n, &max_depth);
	if (err) {
		free_tree(&root);
		bpfkit_fail("build the flame graph", err);
		return err;
	}
	f = fopen(r->opts.svg, "we");
	if (!f) {
		err = -errno;
		free_tree(&root);
		bpfkit_error(
			"cannot write --svg '%s': %s; give a writable path",
			r->opts.svg, strerror(-err));
		return err;
	}
	height = (max_depth + 3) * SVG_FRAME_H + SVG_PAD;
	fprintf(f,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n"
		"<style>text { font: 12px monospace; pointer-events: none; } g.f { cursor: pointer; }</style>\n",
		SVG_WIDTH, height, SVG_WIDTH, height);
	fprintf(f, svg_script, SVG_WIDTH - 2 * SVG_PAD, SVG_PAD, SVG_CHAR_W);
	fprintf(f,
		"<rect width=\"100%%\" height=\"100%%\" fill=\"rgb(250,250,240)\"/>\n");
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" style=\"font-size: 15px\">%s flame graph (%llu %s), click to zoom</text>\n",
		SVG_WIDTH / 2 - 150, SVG_FRAME_H + 2, r->unit.title,
		(unsigned long long)shown(r, root.value), r->unit.name);
	if (root.value)
		svg_node(f, r, &root, root.value, 0, 0, height);
	fputs("</svg>\n", f);
	free_tree(&root);
	if (fclose(f)) {
		err = -errno;
		bpfkit_error("cannot write --svg '%s': %s", r->opts.svg,
			     strerror(-err));
		return err;
	}
	return 0;
}

/*
 * The [missing frame pointer?] hint: once, for the first binary whose user
 * stacks stopped short; with -v for each.
 */
static void hint_frame_pointers(const struct bpfkit_stacks *r)
{
	size_t i;

	for (i = 0; i < r->nno_fp && (i == 0 || r->opts.verbose); i++)
		bpfkit_error(
			"[missing frame pointer?] user stacks in %s stop after 1 or 2 frames, outside main: it was likely built without frame pointers, which hides callers (rebuild it with -fno-omit-frame-pointer)%s",
			r->no_fp[i],
			i == 0 && r->nno_fp > 1 && !r->opts.verbose ?
				"; -v names every such binary" :
				"");
}

/*
 * "N samples, M lost": a sample whose stack the stack map had no room for
 * is still counted (under a "[... stack lost]" frame), and said after.
 */
static void summarize(const struct bpfkit_stacks *r)
{
	const struct bpfkit_stack_stats *st = r->stats;
	struct bpfkit_syms_stats sy;
	struct bpfkit_json j;
	char full[64] = "", stacks[128] = "";

	bpfkit_syms_stats(r->syms, &sy);
	if (bpfkit_output_json()) {
		bpfkit_json_begin_type(&j, stdout, "summary");
		bpfkit_json_uint(&j, r->unit.events, st->counted);
		bpfkit_json_uint(&j, "lost", st->keys_full);
		bpfkit_json_uint(&j, "counts_full", st->keys_full);
		bpfkit_json_uint(&j, "stack_full", st->stack_full);
		bpfkit_json_uint(&j, "symbolized", sy.addrs);
		bpfkit_json_uint(&j, "symbolize_us", sy.ns / 1000);
		bpfkit_json_end(&j);
	}
	if (st->keys_full)
		snprintf(full, sizeof(full), " (%llu counts map full)",
			 (unsigned long long)st->keys_full);
	if (st->stack_full)
		snprintf(stacks, sizeof(stacks), ", %llu stacks lost (%s%s)",
			 (unsigned long long)st->stack_full,
			 st->last_stack_err == -E2BIG ?
				 "no room in the stack map" :
				 "the stack map refused them: ",
			 st->last_stack_err == -E2BIG ?
				 "" :
				 strerror(-st->last_stack_err));
	bpfkit_error("%llu %s, %llu lost%s%s", (unsigned long long)st->counted,
		     r->unit.events, (unsigned long long)st->keys_full, full,
		     stacks);
	if (r->opts.verbose)
		bpfkit_error(
			"%lu unique addresses symbolized in %.1f ms (%.1f us each)",
			sy.addrs, sy.ns / 1e6,
			sy.addrs ? sy.ns / 1e3 / sy.addrs : 0.0);
	hint_frame_pointers(r);
}

/* Forget the rows of the last report. */
static void free_rows(struct bpfkit_stacks *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].folded);
		free(r->rows[i].frames);
	}
	r->nrows = 0;
}

int bpfkit_stacks_report(struct bpfkit_stacks *r)
{
	time_t now = time(NULL);
	char when[16];
	int err;

	free_rows(r);
	if (r->unit.interval_ms && !bpfkit_output_json()) {
		strftime(when, sizeof(when), "%H:%M:%S", localtime(&now));
		printf("[%s] %s\n", when, r->unit.title);
	}
	err = read_rows(r);
	if (err) {
		bpfkit_fail("read the stacks", err);
		return err;
	}
	/* JSON: one object per key, before the merge of equal lines. */
	if (!r->opts.top && bpfkit_output_json())
		err = print_json(r, r->rows, r->nrows);
	r->nrows = merge_rows(r->rows, r->nrows);
	if (r->opts.top)
		err = print_top(r, r->rows, r->nrows);
	else if (!bpfkit_output_json())
		err = print_folded(r, r->rows, r->nrows);
	if (!err)
		err = bpfkit_output_flush();
	/* As event tools do, stop quietly once the reader has gone. */
	if (err > 0)
		return 0;
	if (!err && r->opts.svg)
		err = write_svg(r, r->rows, r->nrows);
	if (!err)
		summarize(r);
	return err;
}

void bpfkit_stacks_free(struct bpfkit_stacks *r)
{
	if (!r)
		return;
	free_rows(r);
	free(r->rows);
	free(r->no_fp);
	bpfkit_syms_free(r->syms);
	free(r);
}
