/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Output shared by every tool: the format (-j, -T, -t), the column header
 * and time columns, kernel strings in columns and a JSON Lines writer that
 * turns any kernel bytes into valid JSON.
 */
#ifndef BPFKIT_OUTPUT_H
#define BPFKIT_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/types.h>
#include "bpfkit/channel.h"

/* How records are printed. */
struct bpfkit_output_opts {
	bool json; /* -j: JSON Lines instead of columns */
	bool wall_time; /* -T: wall-clock time column */
	bool rel_time; /* -t: seconds since start column */
	bool counts; /* a tool's -C: counts at exit instead of events */
};

/* Print as OPTS says from now on; columns without time until called. */
void bpfkit_output_init(const struct bpfkit_output_opts *opts);

/* True with -j: records are JSON Lines. */
bool bpfkit_output_json(void);

/* True with -T or -t: rows start with time columns. */
bool bpfkit_output_timed(void);

/*
 * Remember when tracing started, for -t, and the wall clock's offset from
 * the kernel's monotonic clock, for -T (only the first call counts), and
 * check stdout once more at exit, for tools that print only then: see
 * bpfkit_output_flush().
 */
void bpfkit_output_start(void);

/*
 * Flush stdout. Returns 0; 1 once its reader has gone (EPIPE), which ends a
 * tool quietly; or -errno once any other write failed (ENOSPC, EIO), which
 * it reports in one line, once, and which ends the tool with status 1.
 */
int bpfkit_output_flush(void);

/*
 * bpfkit_output_flush(), and 1 too once stdout's reader has gone before a
 * write fails (a pipe whose reader has gone polls as POLLERR).
 */
int bpfkit_check_stdout(void);

/* A tool's counts at exit instead of its events (its -C)? */
bool bpfkit_output_counts(void);

/*
 * Print the -T/-t time headers, then FMT: the tool's own column names.
 * Prints nothing with -j, since JSON Lines need no header, nor with
 * counts instead of events.
 */
void bpfkit_print_header(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/*
 * Print the enabled time columns for the record REC: the time the kernel
 * stamped it with, not the time it is printed.
 */
void bpfkit_print_time(const struct bpfkit_record *rec);

/*
 * Write kernel bytes (up to LEN or the first NUL) for a column: valid UTF-8
 * is kept, control bytes, DEL and invalid UTF-8 become \xNN, C1 controls,
 * bidi controls and U+2028/U+2029 become \u{XXXX}, so no string can break,
 * forge or reorder a line; with QUOTE, '"' and '\\' get a backslash too.
 * Returns the characters written (a UTF-8 sequence counts as one).
 */
size_t bpfkit_col_escape(FILE *f, const char *s, size_t len, bool quote);

/* A kernel string as "%-WIDTH.LENs ": escaped, padded, then one space. */
void bpfkit_print_str(const char *s, size_t len, int width);

/* The widths of a task's PID and COMM columns. */
#define BPFKIT_PID_W 7
#define BPFKIT_COMM_W 15

/*
 * A task's PID and COMM (kernel bytes, BPFKIT_COMM_LEN at most) columns,
 * each followed by a space; COMM NULL: no task is known, "-" in both.
 */
void bpfkit_print_task(__u32 pid, const char *comm);

/* One JSON object being written to F. */
struct bpfkit_json {
	FILE *f;
	bool first;
};

/*
 * Start an object; adds "time"/"ts" fields when -T/-t are on: the kernel's
 * time of the record REC, or with REC NULL (a record about an interval,
 * not an event) the time it is printed.
 */
void bpfkit_json_begin(struct bpfkit_json *j, FILE *f,
		       const struct bpfkit_record *rec);
/* Start a record about the stream itself: {"type":TYPE, no time fields. */
void bpfkit_json_begin_type(struct bpfkit_json *j, FILE *f, const char *type);
void bpfkit_json_int(struct bpfkit_json *j, const char *key, long long v);
void bpfkit_json_uint(struct bpfkit_json *j, const char *key,
		      unsigned long long v);
void bpfkit_json_bool(struct bpfkit_json *j, const char *key, bool v);
/* A number with three decimals. */
void bpfkit_json_double(struct bpfkit_json *j, const char *key, double v);
/* Kernel bytes, up to LEN or the first NUL; any byte yields valid JSON. */
void bpfkit_json_str(struct bpfkit_json *j, const char *key, const char *s,
		     size_t len);
/* An array of strings: call begin, then str with key NULL, then end. */
void bpfkit_json_array_begin(struct bpfkit_json *j, const char *key);
void bpfkit_json_array_end(struct bpfkit_json *j);
/* An object inside: begin (key NULL in an array), its fields, then end. */
void bpfkit_json_object_begin(struct bpfkit_json *j, const char *key);
void bpfkit_json_object_end(struct bpfkit_json *j);
/*
 * The task a record is about: "pid", "tid", "uid" and "comm" (kernel
 * bytes, BPFKIT_COMM_LEN of them at most).
 */
void bpfkit_json_task(struct bpfkit_json *j, __u32 pid, __u32 tid, __u32 uid,
		      const char *comm);
/* "pid", "uid" and "comm" of a task; none when COMM is NULL (none known). */
void bpfkit_json_owner(struct bpfkit_json *j, __u32 pid, __u32 uid,
		       const char *comm);
/* Close the object and end the line. */
void bpfkit_json_end(struct bpfkit_json *j);

/*
 * What a room above this one adds about a record's task (the container
 * room, container.c): fields of its JSON objects, after the header's
 * cgroup_id, mntns, pidns and pidns_pid, and a column after the time
 * columns (COLUMN NULL: none), NAME WIDTH wide.
 */
struct bpfkit_record_extras {
	void (*json)(struct bpfkit_json *j, const struct bpfkit_record *rec);
	const char *(*column)(const struct bpfkit_record *rec);
	const char *name;
	int width;
};

/* Add X's fields and column to every record from now on. */
void bpfkit_output_extras(const struct bpfkit_record_extras *x);

/* Write bytes as a JSON string (with quotes): see bpfkit_json_str(). */
void bpfkit_json_escape(FILE *f, const char *s, size_t len);

/*
 * Length of the valid UTF-8 sequence at S (at most N bytes), or 0; its code
 * point in *CP_OUT.
 */
size_t bpfkit_utf8_len(const unsigned char *s, size_t n, unsigned int *cp_out);

#endif /* BPFKIT_OUTPUT_H */
