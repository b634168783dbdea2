# SPDX-License-Identifier: GPL-2.0
# Shared by the TCP tools' tests: connections made by tests/helpers/
# tcp-trigger on loopback or in a network namespace of the test's own
# (deleted in teardown), two joined by a veth pair, netem delays and drop
# rules inside them; a kernel BTF with struct sock as older kernels lay it
# out.

# trigger COMM MODE ADDR [ARG...]: run tcp-trigger as COMM (in $NETNS when
# set); PID is its pid, LINES what it printed after that.
trigger() {
	local out
	out=$(${NETNS:+ip netns exec "$NETNS"} "$HELPERS/tcp-trigger" "$@")
	PID=$(head -1 <<<"$out")
	LINES=$(tail -n +2 <<<"$out")
}

# require_ipv6: skip when this host has no IPv6 loopback.
require_ipv6() {
	[ -e /proc/net/if_inet6 ] && grep -q ' lo$' /proc/net/if_inet6 ||
		skip "no IPv6 on loopback here"
}

# make_netns: a network namespace of the test's own, loopback up; sets
# NETNS, or skips without ip(8) or network namespaces.
make_netns() {
	command -v ip >/dev/null || skip "no ip(8) (iproute2)"
	NETNS=bk$$-$RANDOM
	ip netns add "$NETNS" 2>"$BATS_TEST_TMPDIR/netns" ||
		skip "no network namespace: $(tail -1 "$BATS_TEST_TMPDIR/netns")"
	ip -n "$NETNS" link set lo up
}

# make_veth: two network namespaces of the test's own, NETNS (10.231.0.1)
# and PEERNS (10.231.0.2), joined by a veth pair (vbk0 in NETNS, vbk1 in
# PEERNS); skips without veth.
make_veth() {
	make_netns
	# The kernel's own module autoload may not run (the 6.1 guest's).
	modprobe veth 2>/dev/null || true
	PEERNS=${NETNS}p
	ip netns add "$PEERNS"
	ip -n "$PEERNS" link set lo up
	ip link add vbk0 netns "$NETNS" type veth peer name vbk1 \
		netns "$PEERNS" 2>"$BATS_TEST_TMPDIR/veth" ||
		skip "no veth pair: $(tail -1 "$BATS_TEST_TMPDIR/veth")"
	ip -n "$NETNS" addr add 10.231.0.1/24 dev vbk0
	ip -n "$PEERNS" addr add 10.231.0.2/24 dev vbk1
	ip -n "$NETNS" link set vbk0 up
	ip -n "$PEERNS" link set vbk1 up
}

# netem_delay MS: delay what NETNS sends on vbk0 by MS ms, or skip
# without netem.
netem_delay() {
	modprobe sch_netem 2>/dev/null || true
	ip netns exec "$NETNS" tc qdisc add dev vbk0 root netem delay "${1}ms" \
		2>"$BATS_TEST_TMPDIR/netem" ||
		skip "no netem in this kernel (sch_netem): $(tail -1 "$BATS_TEST_TMPDIR/netem")"
}

# drop_rule RULE: drop what nftables RULE matches on input in $NETNS (such
# as "tcp dport 9"), or skip without nftables.
drop_rule() {
	command -v nft >/dev/null || skip "no nft(8) (nftables)"
	modprobe -a nf_tables nft_chain_filter 2>/dev/null || true
	ip netns exec "$NETNS" nft -f - <<-EOF 2>"$BATS_TEST_TMPDIR/nft" ||
		table inet bkdrop {
			chain in {
				type filter hook input priority 0;
				$1 drop
			}
		}
	EOF
		skip "no nftables in the kernel: $(tail -1 "$BATS_TEST_TMPDIR/nft")"
}

# sock_bitfield_btf: a copy of this kernel's BTF (tests/helpers/
# btf-bitfield) in which struct sock's sk_protocol and sk_type are
# bitfields of 8 and 16 bits, as before Linux 5.6, at the bit offsets the
# members have here, so that the values read on this (little-endian)
# kernel stay right; its path in BTF.
sock_bitfield_btf() {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF here"
	BTF=$BATS_TEST_TMPDIR/sock-bitfields.btf
	"$HELPERS/btf-bitfield" /sys/kernel/btf/vmlinux "$BTF" sock \
		sk_protocol:8 sk_type:16
	bpftool btf dump file "$BTF" format c >"$BATS_TEST_TMPDIR/btf.h"
	grep -Eq '^	unsigned int sk_protocol: 8;$' "$BATS_TEST_TMPDIR/btf.h"
	grep -Eq '^	unsigned int sk_type: 16;$' "$BATS_TEST_TMPDIR/btf.h"
}

eval "helpers_$(declare -f teardown)"
teardown() {
	helpers_teardown
	[ -z "${NETNS:-}" ] || ip netns del "$NETNS"
	[ -z "${PEERNS:-}" ] || ip netns del "$PEERNS"
}
