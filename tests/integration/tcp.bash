# SPDX-License-Identifier: GPL-2.0
# Shared by the TCP tools' tests: connections made by tests/helpers/
# tcp-trigger on loopback or in a network namespace of the test's own
# (deleted in teardown), and drop rules inside it.

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

# drop_rule RULE: drop what nftables RULE matches on input in $NETNS (such
# as "tcp dport 9"), or skip without nftables.
drop_rule() {
	command -v nft >/dev/null || skip "no nft(8) (nftables)"
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

eval "helpers_$(declare -f teardown)"
teardown() {
	helpers_teardown
	[ -z "${NETNS:-}" ] || ip netns del "$NETNS"
}
