// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * btf-bitfield IN OUT STRUCT MEMBER:BITS...: write to OUT a copy of the
 * BTF in IN (a kernel's, such as /sys/kernel/btf/vmlinux) in which each
 * MEMBER of struct STRUCT is a BITS-wide bitfield of unsigned int at the
 * member's own bit offset, the layout older kernels have for it (struct
 * sock's sk_protocol:8 and sk_type:16 before Linux 5.6). On a
 * little-endian machine the low BITS bits of the member then read the
 * same as the whole member did. Every other type is copied as it is,
 * under its own id, all with libbpf's BTF API.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

/* The bitfield width MEMBER gets from the MEMBER:BITS arguments, or 0. */
static unsigned int edit_of(const char *member, char **edits, int n)
{
	size_t len = strlen(member);
	int i;

	for (i = 0; i < n; i++)
		if (!strncmp(edits[i], member, len) && edits[i][len] == ':')
			return strtoul(edits[i] + len + 1, NULL, 10);
	return 0;
}

/* Add struct T of IN to OUT with the members EDITS name made bitfields. */
static int add_edited(struct btf *out, const struct btf *in,
		      const struct btf_type *t, int uint_id, char **edits,
		      int n, int *edited)
{
	const struct btf_member *m = btf_members(t);
	int i, id, type;
	unsigned int bits;

	id = btf__add_struct(out, btf__name_by_offset(in, t->name_off),
			     t->size);
	for (i = 0; id > 0 && i < btf_vlen(t); i++, m++) {
		const char *name = btf__name_by_offset(in, m->name_off);

		type = m->type;
		bits = *name ? edit_of(name, edits, n) : 0;
		if (bits) {
			type = uint_id;
			(*edited)++;
		} else {
			bits = btf_member_bitfield_size(t, i);
		}
		if (btf__add_field(out, name, type, btf_member_bit_offset(t, i),
				   bits))
			return -1;
	}
	return id;
}

int main(int argc, char **argv)
{
	struct btf *in, *out;
	const void *raw;
	int id, uint_id, edited = 0;
	__u32 size, n;
	FILE *f;

	if (argc < 5) {
		fprintf(stderr,
			"usage: btf-bitfield IN OUT STRUCT MEMBER:BITS...\n");
		return 2;
	}
	in = btf__parse(argv[1], NULL);
	out = btf__new_empty();
	if (!in || !out) {
		fprintf(stderr, "btf-bitfield: %s: %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	uint_id = btf__find_by_name_kind(in, "unsigned int", BTF_KIND_INT);
	if (uint_id < 0) {
		fprintf(stderr, "btf-bitfield: %s has no unsigned int\n",
			argv[1]);
		return 1;
	}
	n = btf__type_cnt(in);
	for (id = 1; id < (int)n; id++) {
		const struct btf_type *t = btf__type_by_id(in, id);
		int got;

		if (btf_is_struct(t) &&
		    !strcmp(btf__name_by_offset(in, t->name_off), argv[3]))
			got = add_edited(out, in, t, uint_id, argv + 4,
					 argc - 4, &edited);
		else
			got = btf__add_type(out, in, t);
		if (got != id) {
			fprintf(stderr, "btf-bitfield: type %d copied as %d\n",
				id, got);
			return 1;
		}
	}
	if (edited != argc - 4) {
		fprintf(stderr,
			"btf-bitfield: struct %s has %d of the %d members named\n",
			argv[3], edited, argc - 4);
		return 1;
	}
	raw = btf__raw_data(out, &size);
	f = fopen(argv[2], "w");
	if (!raw || !f || fwrite(raw, 1, size, f) != size || fclose(f)) {
		fprintf(stderr, "btf-bitfield: %s: %s\n", argv[2],
			strerror(errno));
		return 1;
	}
	btf__free(out);
	btf__free(in);
	return 0;
}
