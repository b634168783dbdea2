// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * hello-config: hello-buffer with a greeting configured from user space,
 * the Learning eBPF chapter 2 exercises: -m UID=TEXT puts a user's own
 * greeting into a BPF hash map the program looks up, --even-odd sets a
 * read-only variable that greets by pid parity.
 */
#include <errno.h>
#include <string.h>
#include "channel.h"
#include "cli.h"
#include "diag.h"
#include "output.h"
#include "run.h"
#include "setup.h"
#include "hello-config.h"
#include "hello-config.skel.h"

#define OPT_EVEN_ODD 0x100

static struct {
	struct {
		__u32 uid;
		char text[HELLO_MESSAGE_LEN];
	} messages[HELLO_CONFIG_USERS];
	int nr_messages;
	bool even_odd;
} env;

/* -m UID=TEXT: remember TEXT for UID; a later one for the same UID wins. */
static int parse_message(char *arg)
{
	char *eq = strchr(arg, '=');
	size_t len;
	__u32 uid;
	int err, i;

	if (!eq)
		return bpfkit_usage_error(
			"invalid -m/--message '%s': expected UID=TEXT", arg);
	len = strlen(eq + 1);
	if (!len || len >= HELLO_MESSAGE_LEN)
		return bpfkit_usage_error(
			"invalid -m/--message '%s': TEXT must be 1 to %d bytes, not %zu",
			arg, HELLO_MESSAGE_LEN - 1, len);
	*eq = '\0';
	err = bpfkit_parse_uid("-m/--message UID", arg, &uid);
	*eq = '=';
	if (err)
		return err;
	for (i = 0; i < env.nr_messages && env.messages[i].uid != uid; i++)
		;
	if (i == HELLO_CONFIG_USERS)
		return bpfkit_usage_error(
			"too many -m/--message: at most %d users",
			HELLO_CONFIG_USERS);
	if (i == env.nr_messages)
		env.nr_messages++;
	env.messages[i].uid = uid;
	memset(env.messages[i].text, 0, HELLO_MESSAGE_LEN);
	memcpy(env.messages[i].text, eq + 1, len);
	return 0;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'm':
		return parse_message(arg);
	case OPT_EVEN_ODD:
		env.even_odd = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct argp_option options[] = {
	{ "message", 'm', "UID=TEXT", 0,
	  "Greet user UID (a number or a name) with TEXT, 1 to 11 bytes; "
	  "repeatable",
	  0 },
	{ "even-odd", OPT_EVEN_ODD, NULL, 0,
	  "Greet others with \"Even pid\" or \"Odd pid\"", 0 },
	{},
};

static const struct bpfkit_tool tool = {
	.name = "hello-config",
	.doc = "Print pid, uid, command and a configured greeting for every execve.\n"
	       "\v"
	       "Examples:\n"
	       "  hello-config -m 0='Hey root!'        # greet root differently\n"
	       "  hello-config -m nobody=Hi --even-odd # nobody, then pid parity\n",
	.options = BPFKIT_OPT_EVENTS,
	.own_options = options,
	.own_parser = parse_arg,
};

/* Write the -m greetings into the BPF side's hash map, keyed by uid. */
static int fill_messages(struct bpf_map *map)
{
	int i, err;

	for (i = 0; i < env.nr_messages; i++) {
		err = bpf_map__update_elem(map, &env.messages[i].uid,
					   sizeof(__u32), env.messages[i].text,
					   HELLO_MESSAGE_LEN, BPF_ANY);
		if (err)
			return err;
	}
	return 0;
}

/* Each record prints as hello-buffer prints it. */
static enum bpfkit_verdict print_event(void *ctx, const void *data, size_t size)
{
	return hello_buffer_print(data, size);
}

int main(int argc, char **argv)
{
	struct hello_config_bpf *skel = NULL;
	struct bpfkit_channel *ch = NULL;
	int err;

	/* Parse options; check privileges, tracefs and kernel BTF. */
	bpfkit_setup(&tool, argc, argv);

	/* Open the BPF object. */
	skel = hello_config_bpf__open_opts(bpfkit_open_opts());
	if (!skel)
		return bpfkit_open_failed();

	/* A setting fixed before load: --even-odd. */
	skel->rodata->even_odd = env.even_odd;

	/* Write filters and buffer settings to .rodata; load and verify. */
	err = bpfkit_load(skel->skeleton);
	if (err)
		goto cleanup;

	/* Settings a map holds, written after load: the -m greetings. */
	err = fill_messages(skel->maps.messages);
	if (err) {
		bpfkit_fail("fill the -m/--message map", err);
		goto cleanup;
	}

	/* Open the perf buffer, then attach to the execve tracepoint. */
	err = bpfkit_attach(skel->skeleton, print_event, NULL, &ch);
	if (err)
		goto cleanup;

	/* Print a header, then events until a signal or --duration. */
	bpfkit_print_header("PID UID COMMAND MESSAGE\n");
	err = bpfkit_run(ch, NULL);

cleanup:
	bpfkit_channel_free(ch);
	hello_config_bpf__destroy(skel);
	return bpfkit_exit_code(err);
}
