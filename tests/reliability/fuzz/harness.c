// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for one tool's event formatter: tools/fuzz compiles it
 * once per tool with -DTOOL_SRC='"user/NAME.c"'. The tool's source is
 * included whole, its main renamed, so that its static print_event() is
 * reachable; each input is a record as the channel would deliver it.
 *
 * Input: byte 0 picks the output (bit 0: JSON) and the callback's context
 * flag (bit 1: a zeroed context whose first byte is 0 or 1, for a
 * callback that takes a flag); the rest is the record, SIZE bytes in a
 * buffer of exactly SIZE, so that any read past it is caught.
 *
 * BPFKIT_FUZZ_ARGS, e.g. "-T -P", gives the tool's options.
 *
 * Besides memory errors and undefined behaviour, a record must print as
 * at most one line in JSON mode, a valid JSON object (UTF-8, escaped
 * control characters, plain numbers), and in columns mode exactly one line:
 * kernel strings such as a command name may hold a newline, which the
 * tools print escaped (bpfkit_col_escape()).
 */
#define main tool_main
#include TOOL_SRC
#undef main

#include <stdint.h>
#include <stdlib.h>

static char *out;
static size_t out_len;
static __u64 fuzz_ctx[32];

/* A minimal strict JSON checker: each returns the end of the value or NULL. */
static const char *json_value(const char *p, const char *end, int depth);

static const char *json_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Length of a valid UTF-8 sequence at P, or 0. */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
	size_t n, i;
	__u32 cp;

	if (*p < 0x80)
		return 1;
	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2, cp = *p & 0x1f;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3, cp = *p & 0x0f;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4, cp = *p & 0x07;
	else
		return 0;
	if (end - p < (long)n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

static const char *json_string(const char *p, const char *end)
{
	size_t n;

	for (p++; p < end && *p != '"'; p += n) {
		n = 1;
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			if (end - p < 2)
				return NULL;
			if (p[1] == 'u') {
				if (end - p < 6 ||
				    strspn(p + 2, "0123456789abcdefABCDEF") < 4)
					return NULL;
				n = 6;
			} else if (strchr("\"\\/bfnrt", p[1]) && p[1]) {
				n = 2;
			} else {
				return NULL;
			}
		} else if (!(n = utf8_seq((const unsigned char *)p,
					  (const unsigned char *)end))) {
			return NULL;
		}
	}
	return p < end ? p + 1 : NULL;
}

static const char *json_number(const char *p, const char *end)
{
	const char *digits;

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0')
		p++;
	else if (p < end && *p >= '1' && *p <= '9')
		while (p < end && *p >= '0' && *p <= '9')
			p++;
	else
		return NULL;
	if (p < end && *p == '.') {
		digits = ++p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == digits)
			return NULL;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		digits = p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == digits)
			return NULL;
	}
	return p;
}

/* An object or array: members until CLOSE, separated by commas. */
static const char *json_members(const char *p, const char *end, char close,
				int depth)
{
	p = json_ws(p + 1, end);
	if (p < end && *p == close)
		return p + 1;
	for (;;) {
		if (close == '}') {
			if (p >= end || *p != '"' || !(p = json_string(p, end)))
				return NULL;
			p = json_ws(p, end);
			if (p >= end || *p++ != ':')
				return NULL;
		}
		p = json_value(p, end, depth + 1);
		if (!p)
			return NULL;
		p = json_ws(p, end);
		if (p < end && *p == ',') {
			p = json_ws(p + 1, end);
			continue;
		}
		return p < end && *p == close ? p + 1 : NULL;
	}
}

static const char *json_value(const char *p, const char *end, int depth)
{
	static const char *const words[] = { "true", "false", "null" };
	size_t i, n;

	p = json_ws(p, end);
	if (p >= end || depth > 32)
		return NULL;
	if (*p == '{' || *p == '[')
		return json_members(p, end, *p == '{' ? '}' : ']', depth);
	if (*p == '"')
		return json_string(p, end);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		n = strlen(words[i]);
		if (end - p >= (long)n && !memcmp(p, words[i], n))
			return p + n;
	}
	return json_number(p, end);
}

/* Stop with the output shown: libFuzzer saves the input as a crash. */
static void reject(const char *why, size_t len)
{
	fprintf(stderr, "%s: %s; output:\n%.*s\n", bpfkit_opts.tool, why,
		(int)len, out);
	abort();
}

/* What one record printed: at most one line; in JSON mode an object. */
static void check_output(void)
{
	const char *nl;
	size_t len;

	fflush(stdout);
	len = out_len;
	if (!len)
		return;
	nl = memchr(out, '\n', len);
	if (nl != out + len - 1)
		reject("a record must print as exactly one line", len);
	if (bpfkit_output_json() &&
	    (out[0] != '{' || json_value(out, nl, 0) != nl))
		reject("not a valid JSON object", len);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *args = getenv("BPFKIT_FUZZ_ARGS");
	static char *av[64] = { "fuzz" };
	int ac = 1;

	/* Parse the tool's options, as its main would. */
	args = strdup(args ? args : "");
	for (av[ac] = strtok(args, " "); av[ac] && ac < 63;
	     av[++ac] = strtok(NULL, " "))
		;
	bpfkit_parse(&tool, ac, av);
	bpfkit_output_start();

	/* Catch what the formatter prints. */
	stdout = open_memstream(&out, &out_len);
	return stdout ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *record;

	if (!size)
		return 0;
	bpfkit_opts.output.json = data[0] & 1;
	bpfkit_output_init(&bpfkit_opts.output);
	memset(fuzz_ctx, 0, sizeof(fuzz_ctx));
	*(__u8 *)fuzz_ctx = data[0] >> 1 & 1;

	/* The record in a buffer of its exact size, for ASan. */
	record = malloc(size - 1 ? size - 1 : 1);
	memcpy(record, data + 1, size - 1);
	rewind(stdout);
	print_event(fuzz_ctx, record, size - 1);
	check_output();
	free(record);
	return 0;
}
