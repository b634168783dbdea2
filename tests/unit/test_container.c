// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The container room's path parser on the cgroup paths each runtime
 * makes (cgroup v1 and v2, the systemd and cgroupfs drivers, Kubernetes'
 * QoS classes), /proc/PID/cgroup's layout, names from podman's and
 * docker's state on disk, and --container's argument.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "capture.h"
#include "container.h"
#include "output.h"

#define ID "8f5e1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7"
#define POD "1c8f4a52-7d0e-4b9a-9f3c-2a6b5d4e3f21"
#define POD_ "1c8f4a52_7d0e_4b9a_9f3c_2a6b5d4e3f21"

struct shape {
	const char *path;
	const char *runtime; /* NULL: no container */
	const char *id;
	const char *name; /* nspawn and LXC: from the path */
	const char *pod_uid;
	const char *qos;
};

/* Rows of the table: in no container, in one by id, by name, in a pod. */
#define NONE(p)                                 \
	{                                       \
		p, NULL, NULL, NULL, NULL, NULL \
	}
#define BY_ID(p, r)                        \
	{                                  \
		p, r, ID, NULL, NULL, NULL \
	}
#define BY_NAME(p, r, n)               \
	{                              \
		p, r, n, n, NULL, NULL \
	}
#define IN_POD(p, r, q)                \
	{                              \
		p, r, ID, NULL, POD, q \
	}

static const struct shape shapes[] = {
	/* docker: cgroupfs driver (v1 and v2), systemd driver */
	BY_ID("/docker/" ID, "docker"),
	BY_ID("/system.slice/docker-" ID ".scope", "docker"),
	/* docker's own daemon, and a container's inner cgroup */
	NONE("/system.slice/docker.service"),
	BY_ID("/docker/" ID "/inner", "docker"),
	/* containerd's CRI: systemd driver, and cgroupfs under kubepods */
	IN_POD("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" POD_
	       ".slice/cri-containerd-" ID ".scope",
	       "containerd", "burstable"),
	IN_POD("/kubepods/besteffort/pod" POD "/" ID, "containerd",
	       "besteffort"),
	IN_POD("/kubepods/pod" POD "/" ID, "containerd", "guaranteed"),
	IN_POD("/kubepods.slice/kubepods-pod" POD_ ".slice/cri-containerd-" ID
	       ".scope",
	       "containerd", "guaranteed"),
	/* a pod's own cgroup holds no container */
	NONE("/kubepods/burstable/pod" POD),
	/* CRI-O, and its conmon (no container) */
	IN_POD("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" POD_
	       ".slice/crio-" ID ".scope",
	       "cri-o", "besteffort"),
	NONE("/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" POD_
	     ".slice/crio-conmon-" ID ".scope"),
	/* podman: cgroupfs (v1 and v2), systemd, rootless; its conmon */
	BY_ID("/libpod_parent/libpod-" ID, "podman"),
	BY_ID("/machine.slice/libpod-" ID ".scope", "podman"),
	BY_ID("/machine.slice/libpod-" ID ".scope/container", "podman"),
	BY_ID("/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-" ID
	      ".scope",
	      "podman"),
	NONE("/machine.slice/libpod-conmon-" ID ".scope"),
	NONE("/libpod_parent/conmon"),
	/* systemd-nspawn: the machine's name, unescaped */
	BY_NAME("/machine.slice/machine-web\\x2d1.scope", "systemd-nspawn",
		"web-1"),
	BY_NAME("/machine.slice/machine-web\\x2d1.scope/payload/system.slice",
		"systemd-nspawn", "web-1"),
	/* LXC: cgroupfs, and the v2 layout since LXC 4 */
	BY_NAME("/lxc/db", "lxc", "db"),
	BY_NAME("/lxc.payload.db", "lxc", "db"),
	BY_NAME("/lxc.payload.db/system.slice", "lxc", "db"),
	NONE("/lxc.monitor.db"),
	/* the host's */
	NONE("/"),
	NONE(""),
	NONE("/user.slice/user-1000.slice/session-2.scope"),
	NONE("/system.slice/ssh.service"),
	/* too short, or not hex, for an id */
	NONE("/docker/abc"),
	NONE("/system.slice/docker-" ID "x.scope"),
	NONE("/libpod_parent/libpod-ABCDEF0123456789"),
};

static void test_shapes(void **state)
{
	struct bpfkit_container c;
	size_t i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const struct shape *s = &shapes[i];
		bool found = bpfkit_container_parse(s->path, &c);

		print_message("%s\n", s->path);
		assert_int_equal(found, s->runtime != NULL);
		if (!found) {
			assert_null(c.runtime);
			continue;
		}
		assert_string_equal(c.runtime, s->runtime);
		assert_string_equal(c.id, s->id);
		assert_string_equal(c.name, s->name ?: "");
		assert_string_equal(c.pod_uid, s->pod_uid ?: "");
		if (s->qos)
			assert_string_equal(c.qos, s->qos);
		else
			assert_null(c.qos);
	}
}

/* /proc/PID/cgroup: v2's line first; v1's where v2 names none (hybrid). */
static void test_proc(void **state)
{
	struct bpfkit_container c;

	assert_true(bpfkit_container_parse_proc(
		"12:memory:/libpod_parent/libpod-" ID "\n"
		"1:name=systemd:/libpod_parent/libpod-" ID "\n"
		"0::/\n",
		&c));
	assert_string_equal(c.runtime, "podman");
	assert_string_equal(c.id, ID);
	assert_true(bpfkit_container_parse_proc(
		"4:memory:/lxc/other\n0::/system.slice/docker-" ID ".scope\n",
		&c));
	assert_string_equal(c.runtime, "docker");
	assert_false(bpfkit_container_parse_proc(
		"9:name=systemd:/\n4:memory:/user.slice\n0::/\n", &c));
	assert_false(bpfkit_container_parse_proc("", &c));
	assert_false(bpfkit_container_parse_proc("garbage", &c));
}

/* --container: an id, a prefix of one, or a name; anything else refused. */
static void test_option(void **state)
{
	struct bpfkit_container_opts o = {};
	char many[BPFKIT_CONTAINER_NAME_LEN + 1];
	unsigned int i;

	assert_int_equal(bpfkit_container_opt(&o, ID), 0);
	assert_int_equal(bpfkit_container_opt(&o, "web-1"), 0);
	assert_int_equal(bpfkit_container_opt(&o, "a.b_c"), 0);
	assert_int_equal(o.nselect, 3);
	assert_int_equal(bpfkit_container_opt(&o, ""), EINVAL);
	assert_int_equal(bpfkit_container_opt(&o, "a/b"), EINVAL);
	assert_int_equal(bpfkit_container_opt(&o, "-x"), EINVAL);
	assert_int_equal(bpfkit_container_opt(&o, "a b"), EINVAL);
	memset(many, 'a', sizeof(many) - 1);
	many[sizeof(many) - 1] = '\0';
	assert_int_equal(bpfkit_container_opt(&o, many), EINVAL);
	for (i = o.nselect; i < BPFKIT_CONTAINER_SELECT_MAX; i++)
		assert_int_equal(bpfkit_container_opt(&o, "x"), 0);
	assert_int_equal(bpfkit_container_opt(&o, "x"), EINVAL);
}

/* Which containers --container and --host-only select. */
static void test_selected(void **state)
{
	struct bpfkit_container_opts o = {};
	struct bpfkit_container c = { .runtime = "podman" };

	strcpy(c.id, ID);
	strcpy(c.name, "web");
	bpfkit_container_init(&o);
	assert_true(bpfkit_container_selected(NULL));
	assert_true(bpfkit_container_selected(&c));
	bpfkit_container_opt(&o, "web");
	bpfkit_container_init(&o);
	assert_true(bpfkit_container_selected(&c));
	assert_false(bpfkit_container_selected(NULL));
	o.nselect = 0;
	bpfkit_container_opt(&o, "8f5e1a2b3c4d");
	bpfkit_container_init(&o);
	assert_true(bpfkit_container_selected(&c));
	o.nselect = 0;
	bpfkit_container_opt(&o, "8f5e1a2b3c4e");
	bpfkit_container_init(&o);
	assert_false(bpfkit_container_selected(&c));
	o.nselect = 0;
	o.host_only = true;
	bpfkit_container_init(&o);
	assert_false(bpfkit_container_selected(&c));
	assert_true(bpfkit_container_selected(NULL));
	bpfkit_container_init(&(struct bpfkit_container_opts){});
}

/* The column's label: the name, else the id's first 12 digits, else -. */
static void test_label(void **state)
{
	struct bpfkit_container c = { .runtime = "docker" };

	strcpy(c.id, ID);
	assert_string_equal(bpfkit_container_label(NULL), "-");
	assert_string_equal(bpfkit_container_label(&c), "8f5e1a2b3c4d");
	strcpy(c.name, "web");
	assert_string_equal(bpfkit_container_label(&c), "web");
}

/*
 * Every record's JSON starts with its task's ids from the header; a task
 * in our own mount namespace is the host's: no "container".
 */
static void test_json_header(void **state)
{
	struct bpfkit_record rec = { .ktime_ns = 1,
				     .cgroup_id = 4242,
				     .pidns = 4026531836,
				     .pidns_pid = 7 };
	struct bpfkit_json j;
	struct stat st;
	char *buf = NULL, want[256];
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_int_equal(stat("/proc/self/ns/mnt", &st), 0);
	rec.mntns = st.st_ino;
	bpfkit_container_init(&(struct bpfkit_container_opts){});
	bpfkit_json_begin(&j, f, &rec);
	bpfkit_json_uint(&j, "pid", 9);
	bpfkit_json_end(&j);
	fclose(f);
	snprintf(want, sizeof(want),
		 "{\"cgroup_id\":4242,\"mntns\":%lu,\"pidns\":4026531836,"
		 "\"pidns_pid\":7,\"pid\":9}\n",
		 (unsigned long)st.st_ino);
	assert_string_equal(buf, want);
	assert_null(bpfkit_container_of(&rec));
	free(buf);
}

static void print_time(const void *rec)
{
	bpfkit_print_time(rec);
}

/*
 * A header of zeros names no task (a socket whose owner was not seen): no
 * container, "?" in the column, not the host's "-"; and no selection
 * passes it, --host-only neither.
 */
static void test_unknown_task(void **state)
{
	struct bpfkit_record rec = { .ktime_ns = 1 };
	struct bpfkit_container_opts o = { .column = true };
	char *out;

	assert_true(bpfkit_record_task_unknown(&rec));
	bpfkit_container_init(&o);
	assert_null(bpfkit_container_of(&rec));
	out = stdout_of(print_time, &rec);
	assert_string_equal(out, "?            ");
	free(out);
	assert_true(bpfkit_container_wanted(&rec, sizeof(rec)));
	o.host_only = true;
	bpfkit_container_init(&o);
	assert_false(bpfkit_container_wanted(&rec, sizeof(rec)));
	o.host_only = false;
	bpfkit_container_opt(&o, "web");
	bpfkit_container_init(&o);
	assert_false(bpfkit_container_wanted(&rec, sizeof(rec)));
	bpfkit_container_init(&(struct bpfkit_container_opts){});
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_proc),
		cmocka_unit_test(test_option),
		cmocka_unit_test(test_selected),
		cmocka_unit_test(test_label),
		cmocka_unit_test(test_json_header),
		cmocka_unit_test(test_unknown_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
