#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, uprobes and USDT: a line typed into bash, host name lookups
# answered by a test hosts file, and python imports, each from the pid of
# the process that made it.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load helpers

PYTHON=/usr/bin/python3

@test "bashreadline: a line typed into an interactive bash, with its pid" {
	[ -x "$PYTHON" ] || skip "needs $PYTHON for its pty module"
	launch bashreadline -j -c bash
	# An interactive bash on a pty: the line, then exit.
	timeout $((20 * TIME_SCALE)) "$PYTHON" - "$BATS_TEST_TMPDIR/bash" <<-'PY'
		import os, pty, sys
		pid, fd = pty.fork()
		if pid == 0:
		    os.execve("/bin/bash", ["bash", "--norc", "--noprofile", "-i"],
		              {"PS1": "$ ", "TERM": "dumb", "PATH": "/usr/bin:/bin"})
		open(sys.argv[1], "w").write("%d\n" % pid)
		os.write(fd, b"echo bk-portable-line\nexit\n")
		while True:
		    try:
		        if not os.read(fd, 4096):
		            break
		    except OSError:
		        break
		os.waitpid(pid, 0)
	PY
	read -r pid <"$BATS_TEST_TMPDIR/bash"
	await "$OUT" '"line":"exit"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$pid" '
		any(.[]; del(.cgroup_id, .mntns, .pidns, .pidns_pid) ==
			{pid: $p, uid: 0, comm: "bash",
			line: "echo bk-portable-line"})'
}

@test "gethostlatency: a hosts-file name looked up three ways, from the resolver's pid" {
	host=bk-$$-$RANDOM.bpfkit.test
	printf '127.0.0.2 %s\n' "$host" >"$BATS_TEST_TMPDIR/hosts"
	launch gethostlatency -j -c resolve
	run unshare -m --propagation private sh -c \
		'mount --bind "$1" /etc/hosts && shift && exec "$@"' sh \
		"$BATS_TEST_TMPDIR/hosts" "$HELPERS/resolve" "$host"
	[ "$status" = 0 ]
	[ "$(grep -c ' found$' <<<"$output")" = 3 ]
	await "$OUT" "\"func\":\"gethostbyname2\"" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "${lines[0]}" --arg h "$host" '
		map(select(.type == null)) | length == 3 and
		all(.pid == $p and .comm == "resolve" and .host == $h and
			.latency_ns > 0) and
		(map(.func) | sort) == ["getaddrinfo", "gethostbyname",
			"gethostbyname2"]'
}

@test "pyimport: a package, its module and a missing one, from that python's pid" {
	[ -x "$PYTHON" ] || skip "needs $PYTHON"
	pkg=bk_pkg_$$_$RANDOM
	mkdir -p "$BATS_TEST_TMPDIR/py/$pkg"
	echo "from . import inner" >"$BATS_TEST_TMPDIR/py/$pkg/__init__.py"
	: >"$BATS_TEST_TMPDIR/py/$pkg/inner.py"
	launch pyimport -j -c python3
	run env PYTHONPATH="$BATS_TEST_TMPDIR/py" "$PYTHON" -S -c "
import os
print(os.getpid(), flush=True)
import $pkg
try:
    import ${pkg}_missing
except ImportError:
    pass"
	[ "$status" = 0 ]
	await "$OUT" "\"module\":\"${pkg}_missing\"" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "${lines[0]}" --arg m "$pkg" '
		map(select(.type == null and .pid == $p)) |
		(map(select(.module == $m)) | length == 1 and .[0].found) and
		(map(select(.module == $m + ".inner")) | length == 1 and
			.[0].found) and
		(map(select(.module == $m + "_missing")) | length == 1 and
			(.[0].found | not))'
}
