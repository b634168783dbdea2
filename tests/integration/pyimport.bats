#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# pyimport: the imports of a Debian python3 (its USDT probes
# python:import__find__load__start/done) arrive from that python's pid,
# found or not, nested ones inside their parent's time.

bats_require_minimum_version 1.5.0
load helpers

PYTHON=/usr/bin/python3

setup() {
	require_root
	[ -x "$PYTHON" ] || skip "needs Debian's $PYTHON (tools/deps.sh test)"
	readelf -n "$(readlink -f "$PYTHON")" 2>/dev/null |
		grep -q 'Name: import__find__load__start' ||
		skip "$PYTHON has no python:import__find__load__start USDT probe"
	# A package only this test has, importing a module of its own.
	PKG=bk_pkg_$$_$RANDOM
	mkdir -p "$BATS_TEST_TMPDIR/py/$PKG"
	echo "from . import inner" >"$BATS_TEST_TMPDIR/py/$PKG/__init__.py"
	: >"$BATS_TEST_TMPDIR/py/$PKG/inner.py"
}

# run_python: import the package and a module nobody has; set PY to the pid.
run_python() {
	run env PYTHONPATH="$BATS_TEST_TMPDIR/py" "$PYTHON" -S -c "
import os
print(os.getpid(), flush=True)
import $PKG
try:
    import ${PKG}_missing
except ImportError:
    pass"
	[ "$status" = 0 ]
	PY=${lines[0]}
}

@test "pyimport: a package, its module and a missing one, from that python's pid" {
	start_tool pyimport
	run_python
	wait_for "$OUT" "^$PY +python3 +[0-9]+\.[0-9]{3} no +${PKG}_missing\$" 5
	grep -Eq "^$PY +python3 +[0-9]+\.[0-9]{3} yes +$PKG\$" "$OUT"
	grep -Eq "^$PY +python3 +[0-9]+\.[0-9]{3} yes +$PKG\.inner\$" "$OUT"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +LAT\(ms\) +FOUND +MODULE$'
	grep -Eq '^pyimport: [0-9]+ events, 0 lost$' "$ERR"
}

@test "pyimport: -j -c python3: that python's imports only; a nested import within its parent's time" {
	start_tool pyimport -j -c python3
	run_python
	wait_for "$OUT" "\"module\":\"${PKG}_missing\"" 5
	stop_tool
	jq -es --argjson p "$PY" --arg m "$PKG" '
		map(select(.type == null and .pid == $p)) |
		(map(select(.module == $m))[0]) as $outer |
		(map(select(.module == $m + ".inner"))[0]) as $inner |
		$outer.found and $inner.found and
		$inner.latency_ns > 0 and $outer.latency_ns >= $inner.latency_ns and
		any(.[]; del(.cgroup_id, .mntns, .pidns, .pidns_pid) ==
			{pid: $p, tid: $p, uid: 0, comm: "python3",
			module: ($m + "_missing"), found: false,
			latency_ns: .latency_ns})
	' "$OUT"
}

@test "pyimport: a binary without the probes is refused in one line" {
	run --separate-stderr "$BIN/pyimport" --python /bin/true -d 1
	[ "$status" = 1 ]
	[ "$stderr" = "pyimport: /bin/true has no USDT probe python:import__find__load__start (readelf -n /bin/true lists its probes); give a binary built with it" ]
	[ -z "$output" ]
}
