#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# gethostlatency: lookups of localhost and of a name only a test hosts file
# knows arrive from the helper's pid with each function and a latency. The
# hosts file is bound over /etc/hosts in a private mount namespace: the
# machine's own /etc/hosts is never touched, and no lookup leaves the files.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	HOSTS=$BATS_TEST_TMPDIR/hosts
	TEST_HOST=bk-$$-$RANDOM.bpfkit.test
	printf '127.0.0.1 localhost\n127.0.0.2 %s\n' "$TEST_HOST" >"$HOSTS"
}

# resolve NAME...: run the resolve helper in a mount namespace of its own
# with $HOSTS as /etc/hosts; set RESOLVER to its pid.
resolve() {
	# A minimal root (debootstrap minbase) has no /etc/hosts to cover:
	# there the namespace gets an /etc of its own, with the hosts file and
	# the root's nsswitch.conf.
	run unshare -m --propagation private sh -c '
		if [ -e /etc/hosts ]; then
			mount --bind "$1" /etc/hosts
		else
			cp /etc/nsswitch.conf "$2" &&
				mount -t tmpfs bk-etc /etc &&
				cp "$1" /etc/hosts && cp "$2" /etc/nsswitch.conf
		fi && shift 2 && exec "$@"' sh \
		"$HOSTS" "$BATS_TEST_TMPDIR/nsswitch.conf" "$HELPERS/resolve" "$@"
	[ "$status" = 0 ]
	RESOLVER=${lines[0]}
	# Every name is found in the test hosts file, by every function.
	[ "$(grep -c ' found$' <<<"$output")" = $((3 * $#)) ]
}

@test "gethostlatency: localhost and a hosts-file name, by every function, from the helper's pid" {
	start_tool gethostlatency
	resolve localhost "$TEST_HOST"
	for host in localhost "$TEST_HOST"; do
		for func in getaddrinfo gethostbyname gethostbyname2; do
			wait_for "$OUT" "^$RESOLVER +resolve +$func +[0-9]+\.[0-9]{3} $host\$" 5
		done
	done
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +FUNC +LAT\(ms\) +HOST$'
	grep -Eq '^gethostlatency: [0-9]+ events, 0 lost$' "$ERR"
}

@test "gethostlatency: -j -c gives those lookups only, with a latency" {
	start_tool gethostlatency -j -c resolve
	resolve localhost "$TEST_HOST"
	wait_for "$OUT" "\"func\":\"gethostbyname2\",.*\"host\":\"$TEST_HOST\"" 5
	stop_tool
	jq -es --argjson p "$RESOLVER" --arg h "$TEST_HOST" '
		map(select(.type == null)) as $e |
		($e | length) == 6 and
		all($e[]; .pid == $p and .tid == $p and .uid == 0 and
			.comm == "resolve" and .latency_ns > 0) and
		([$e[] | [.func, .host]] | sort) == ([
			["getaddrinfo", "localhost"], ["getaddrinfo", $h],
			["gethostbyname", "localhost"], ["gethostbyname", $h],
			["gethostbyname2", "localhost"], ["gethostbyname2", $h]
		] | sort)
	' "$OUT"
}

@test "gethostlatency: a --libc without the functions is refused in one line" {
	run --separate-stderr "$BIN/gethostlatency" --libc /bin/true -d 1
	[ "$status" = 1 ]
	[ "$stderr" = "gethostlatency: /bin/true has no function getaddrinfo (nm -D /bin/true lists its symbols); give a binary that has it" ]
	[ -z "$output" ]
}
