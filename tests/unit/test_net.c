// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The network room: addresses as text (IPv4-mapped IPv6 as IPv4), flows
 * as JSON (addresses as strings, ports as numbers), TCP state names, port
 * lists and drop reason names read from a kernel's BTF.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <cmocka.h>
#include "capture.h"
#include <bpf/btf.h>
#include "cli.h"
#include "kernel.h"
#include "net.h"
#include "output.h"

/* A flow of FAMILY from SADDR:SPORT to DADDR:DPORT (text addresses). */
static struct bpfkit_flow flow_of(int family, const char *saddr, int sport,
				  const char *daddr, int dport)
{
	struct bpfkit_flow f = { .family = family,
				 .sport = sport,
				 .dport = dport };

	assert_int_equal(inet_pton(family, saddr, f.saddr), 1);
	assert_int_equal(inet_pton(family, daddr, f.daddr), 1);
	return f;
}

static void check_addr(int family, const char *in, const char *expect)
{
	__u8 addr[16] = {};
	char buf[INET6_ADDRSTRLEN];

	assert_int_equal(inet_pton(family, in, addr), 1);
	assert_string_equal(bpfkit_addr_str(family, addr, buf, sizeof(buf)),
			    expect);
}

static void test_addr_text(void **state)
{
	check_addr(AF_INET, "127.0.0.1", "127.0.0.1");
	check_addr(AF_INET, "10.200.1.2", "10.200.1.2");
	check_addr(AF_INET6, "::1", "::1");
	check_addr(AF_INET6, "fd00:0:0:0::17", "fd00::17");
	check_addr(AF_INET6, "::ffff:192.0.2.7", "192.0.2.7");
	/*
	 * Not mapped, so kept IPv6 as inet_ntop writes them: ::ffff:0:a.b.c.d
	 * (translated) and ::a.b.c.d (the old IPv4-compatible form).
	 */
	check_addr(AF_INET6, "::ffff:0:192.0.2.7", "::ffff:0:c000:207");
	check_addr(AF_INET6, "::192.0.2.7", "::192.0.2.7");
}

static void test_unknown_family(void **state)
{
	__u8 addr[16] = {};
	char buf[INET6_ADDRSTRLEN];

	assert_string_equal(bpfkit_addr_str(1, addr, buf, sizeof(buf)), "?");
}

static void test_flow_family(void **state)
{
	struct bpfkit_flow v4 =
		flow_of(AF_INET, "127.0.0.1", 1, "127.0.0.1", 2);
	struct bpfkit_flow v6 = flow_of(AF_INET6, "::1", 1, "::1", 2);
	struct bpfkit_flow mapped =
		flow_of(AF_INET6, "::ffff:127.0.0.1", 1, "::ffff:127.0.0.2", 2);
	struct bpfkit_flow_text t;

	assert_int_equal(bpfkit_flow_family(&v4), AF_INET);
	assert_int_equal(bpfkit_flow_family(&v6), AF_INET6);
	assert_int_equal(bpfkit_flow_family(&mapped), AF_INET);
	bpfkit_flow_text(&mapped, &t);
	assert_int_equal(t.ip, 4);
	assert_string_equal(t.saddr, "127.0.0.1");
	assert_string_equal(t.daddr, "127.0.0.2");
}

/* FLOW as JSON: the fields bpfkit_json_flow() writes, in one object. */
static void check_json(const struct bpfkit_flow *flow, const char *expect)
{
	struct bpfkit_json j;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	assert_non_null(f);
	bpfkit_json_begin(&j, f, NULL);
	bpfkit_json_flow(&j, flow);
	bpfkit_json_end(&j);
	fclose(f);
	assert_string_equal(buf, expect);
	free(buf);
}

static void test_json_flow(void **state)
{
	struct bpfkit_flow v4 =
		flow_of(AF_INET, "10.0.0.1", 43210, "10.0.0.2", 80);
	struct bpfkit_flow v6 = flow_of(AF_INET6, "fe80::1", 65535, "::1", 1);
	struct bpfkit_flow mapped =
		flow_of(AF_INET6, "::ffff:10.0.0.1", 5, "::ffff:10.0.0.2", 443);

	check_json(&v4, "{\"ip\":4,\"saddr\":\"10.0.0.1\",\"sport\":43210,"
			"\"daddr\":\"10.0.0.2\",\"dport\":80}\n");
	check_json(&v6, "{\"ip\":6,\"saddr\":\"fe80::1\",\"sport\":65535,"
			"\"daddr\":\"::1\",\"dport\":1}\n");
	check_json(&mapped, "{\"ip\":4,\"saddr\":\"10.0.0.1\",\"sport\":5,"
			    "\"daddr\":\"10.0.0.2\",\"dport\":443}\n");
}

static void print_flow(const void *flow)
{
	bpfkit_print_flow(flow);
}

/* A flow's columns: IP, then each side's address and port. */
static void test_print_flow(void **state)
{
	struct bpfkit_flow v4 =
		flow_of(AF_INET, "10.0.0.1", 43210, "10.0.0.2", 80);
	struct bpfkit_flow v6 = flow_of(AF_INET6, "fe80::1", 5, "::1", 443);
	char *s = stdout_of(print_flow, &v4);

	assert_string_equal(s, "4  10.0.0.1                  43210 "
			       "10.0.0.2                     80");
	free(s);
	s = stdout_of(print_flow, &v6);
	assert_string_equal(s, "6  fe80::1                       5 "
			       "::1                         443");
	free(s);
}

/* The flow columns' header, the sides named as a tool sees them. */
static void test_flow_header(void **state)
{
	assert_string_equal(bpfkit_flow_header('L', 'R'),
			    "IP LADDR                     LPORT "
			    "RADDR                     RPORT");
	assert_string_equal(bpfkit_flow_header('S', 'D'),
			    "IP SADDR                     SPORT "
			    "DADDR                     DPORT");
}

static void test_state_names(void **state)
{
	assert_string_equal(bpfkit_tcp_state_name(BPFKIT_TCP_ESTABLISHED),
			    "ESTABLISHED");
	assert_string_equal(bpfkit_tcp_state_name(BPFKIT_TCP_SYN_SENT),
			    "SYN_SENT");
	assert_string_equal(bpfkit_tcp_state_name(BPFKIT_TCP_NEW_SYN_RECV),
			    "NEW_SYN_RECV");
	assert_string_equal(bpfkit_tcp_state_name(0), "UNKNOWN");
	assert_string_equal(bpfkit_tcp_state_name(13), "UNKNOWN");
	assert_string_equal(bpfkit_tcp_state_name(-1), "UNKNOWN");
}

/* Families and protocols by name; unknown ones by number. */
static void test_family_proto_names(void **state)
{
	char buf[16];

	assert_string_equal(bpfkit_family_name(AF_INET6, buf, sizeof(buf)),
			    "INET6");
	assert_string_equal(bpfkit_family_name(AF_UNIX, buf, sizeof(buf)),
			    "UNIX");
	assert_string_equal(bpfkit_family_name(99, buf, sizeof(buf)), "AF_99");
	assert_string_equal(bpfkit_proto_name(IPPROTO_TCP, buf, sizeof(buf)),
			    "TCP");
	assert_string_equal(bpfkit_proto_name(IPPROTO_MPTCP, buf, sizeof(buf)),
			    "MPTCP");
	assert_string_equal(bpfkit_proto_name(200, buf, sizeof(buf)), "200");
}

static void test_ports(void **state)
{
	struct bpfkit_ports p;
	int i;

	assert_int_equal(bpfkit_parse_ports("-P", "80", &p), 0);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.port[0], 80);
	assert_int_equal(bpfkit_parse_ports("-P", "1,443,65535", &p), 0);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.port[0], 1);
	assert_int_equal(p.port[1], 443);
	assert_int_equal(p.port[2], 65535);
	assert_int_equal(bpfkit_parse_ports(
				 "-P", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16",
				 &p),
			 0);
	assert_int_equal(p.n, BPFKIT_PORTS_MAX);
	for (i = 0; i < BPFKIT_PORTS_MAX; i++)
		assert_int_equal(p.port[i], i + 1);
}

static void test_bad_ports(void **state)
{
	static const char *const bad[] = {
		"",    "0",	"65536",
		"-1",  "+80",	"80,",
		",80", "80,,1", "http",
		"80x", " 80",	"1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17",
	};
	struct bpfkit_ports p;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(bpfkit_parse_ports("-P", bad[i], &p), EINVAL);
}

/* BTF to a temporary file, for libbpf to parse: its path in PATH. */
static void write_btf(struct btf *btf, char *path)
{
	const void *raw;
	__u32 size;
	int fd;

	raw = btf__raw_data(btf, &size);
	assert_non_null(raw);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, raw, size), size);
	close(fd);
}

/*
 * Drop reasons come from BTF's enum skb_drop_reason, whatever values this
 * kernel gives them, prefix stripped; no enum (before 5.17): -ENOENT. The
 * kernel room keeps one kernel BTF per process until released: each file
 * is read after a release.
 */
static void test_drop_reasons(void **state)
{
	char none[] = "/tmp/bpfkit-test-btf-XXXXXX";
	char path[] = "/tmp/bpfkit-test-btf-XXXXXX";
	struct btf *btf = btf__new_empty();
	int id;

	(void)state;
	assert_non_null(btf);
	assert_true(btf__add_int(btf, "int", 4, BTF_INT_SIGNED) > 0);
	write_btf(btf, none);
	assert_int_equal(bpfkit_drop_reasons_load(none), -ENOENT);
	bpfkit_btf_release();
	unlink(none);
	id = btf__add_enum(btf, "skb_drop_reason", 4);
	assert_true(id > 0);
	assert_int_equal(btf__add_enum_value(btf, "SKB_NOT_DROPPED_YET", 0), 0);
	assert_int_equal(btf__add_enum_value(btf, "SKB_CONSUMED", 1), 0);
	assert_int_equal(
		btf__add_enum_value(btf, "SKB_DROP_REASON_NOT_SPECIFIED", 2),
		0);
	assert_int_equal(
		btf__add_enum_value(btf, "SKB_DROP_REASON_NETFILTER_DROP", 12),
		0);
	assert_int_equal(btf__add_enum_value(btf, "SKB_DROP_REASON_MAX", 13),
			 0);
	write_btf(btf, path);
	btf__free(btf);
	assert_int_equal(bpfkit_drop_reasons_load(path), 0);
	bpfkit_btf_release();
	unlink(path);
	assert_string_equal(bpfkit_drop_reason_name(1), "CONSUMED");
	assert_string_equal(bpfkit_drop_reason_name(2), "NOT_SPECIFIED");
	assert_string_equal(bpfkit_drop_reason_name(12), "NETFILTER_DROP");
	assert_null(bpfkit_drop_reason_name(13));
	assert_null(bpfkit_drop_reason_name(7));
	assert_int_equal(bpfkit_drop_reason_value("NETFILTER_DROP"), 12);
	assert_int_equal(bpfkit_drop_reason_value("netfilter_drop"), 12);
	assert_int_equal(bpfkit_drop_reason_value("MAX"), -ENOENT);
	assert_int_equal(bpfkit_drop_reason_value("NO_SUCH"), -ENOENT);
	bpfkit_drop_reasons_free();
	assert_null(bpfkit_drop_reason_name(2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr_text),
		cmocka_unit_test(test_unknown_family),
		cmocka_unit_test(test_flow_family),
		cmocka_unit_test(test_json_flow),
		cmocka_unit_test(test_print_flow),
		cmocka_unit_test(test_flow_header),
		cmocka_unit_test(test_state_names),
		cmocka_unit_test(test_family_proto_names),
		cmocka_unit_test(test_ports),
		cmocka_unit_test(test_bad_ports),
		cmocka_unit_test(test_drop_reasons),
	};

	return cmocka_run_group_tests_name("net", tests, NULL, NULL);
}
