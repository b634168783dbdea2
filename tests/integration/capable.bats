#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# capable: a chown(1) granted CAP_CHOWN and one whose bounding set setpriv
# dropped it appear with the capability's name and their verdicts; -x keeps
# the denied check only.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	FILE=$BATS_TEST_TMPDIR/owned
	: >"$FILE"
}

teardown() {
	if [ -n "${TOOL_PID:-}" ]; then
		kill -KILL "$TOOL_PID" 2>/dev/null
	fi
	wait 2>/dev/null
	drop_test_cgroups
	return 0
}

# needs_cap_capable: skip on a kernel before 6.14 (the refusal there is
# tests/portability/tools-uprobe.bats's).
needs_cap_capable() {
	! kernel_lacks capable ||
		skip "no capability:cap_capable tracepoint before Linux 6.14"
}

# chown_both: chown FILE to nobody twice, from a shell that prints its pid
# and execs chown(1): as is (its pid in ALLOWED), then with CAP_CHOWN out
# of its bounding set (DENIED), which fails.
chown_both() {
	local cmd=(sh -c 'echo $$; exec chown nobody "$1"' sh "$FILE")
	run --separate-stderr "${cmd[@]}"
	[ "$status" = 0 ]
	ALLOWED=${lines[0]}
	run --separate-stderr setpriv --bounding-set -chown "${cmd[@]}"
	[ "$status" = 1 ]
	[[ $stderr == *"Operation not permitted"* ]]
	DENIED=${lines[0]}
}

@test "capable: CAP_CHOWN allowed for chown, denied once setpriv drops it" {
	needs_cap_capable
	start_tool capable -j -c chown
	chown_both
	wait_for "$OUT" "\"pid\":$DENIED,.*\"verdict\":\"deny\"" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson a "$ALLOWED" --argjson d "$DENIED" '
		map(select(.type == null and .cap == 0) |
			del(.cgroup_id, .mntns, .pidns, .pidns_pid)) |
		map(select(.pid == $a)) == [{pid: $a, tid: $a, uid: 0,
			comm: "chown", cap: 0, name: "CAP_CHOWN", ret: 0,
			verdict: "allow"}] and
		map(select(.pid == $d)) == [{pid: $d, tid: $d, uid: 0,
			comm: "chown", cap: 0, name: "CAP_CHOWN", ret: -1,
			verdict: "deny"}]' "$OUT"
}

@test "capable: -x prints the denied check only, in columns" {
	needs_cap_capable
	start_tool capable -x -c chown
	chown_both
	wait_for "$OUT" "^0 +$DENIED +chown " 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^UID +PID +COMM +CAP +NAME +VERDICT$'
	grep -Eq "^0 +$DENIED +chown +0 +CAP_CHOWN +deny$" "$OUT"
	[ "$(grep -c ' allow$' "$OUT")" = 0 ]
	[ "$(grep -Ec "^0 +$ALLOWED " "$OUT")" = 0 ]
}

@test "capable: --cgroup shows the checks of a process in that cgroup, not another's" {
	local d in out
	needs_cap_capable
	test_cgroups
	start_tool capable -j -c chown --cgroup "$CG/in"
	for d in in out; do
		run sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ &&
			exec chown nobody "$2"' sh "$CG/$d" "$FILE"
		[ "$status" = 0 ]
		printf -v "$d" %s "${lines[0]}"
	done
	wait_for "$OUT" "\"pid\":$in,.*\"name\":\"CAP_CHOWN\"" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson i "$in" --argjson o "$out" '
		map(select(.type == null)) | length > 0 and all(.pid == $i) and
		any(.name == "CAP_CHOWN" and .verdict == "allow")' "$OUT"
}

@test "capable: a bad option is refused in one line, exit 2" {
	run --separate-stderr "$BIN/capable" --no-such-option
	[ "$status" = 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == capable:* ]]
}
