#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, issue 35's capability and user-probe tools: capable (a
# chown(1) denied CAP_CHOWN, or the refusal before Linux 6.14), ...

bats_require_minimum_version 1.5.0
load ../integration/helpers
load helpers

# capability:cap_capable came in Linux 6.14.
REFUSALS+=(
	["5.10 capable"]="cap_capable|6.14"
	["6.1 capable"]="cap_capable|6.14"
	["6.1-rt capable"]="cap_capable|6.14"
	["6.12 capable"]="cap_capable|6.14"
)

@test "capable: chown denied CAP_CHOWN by setpriv, from its pid (refused before 6.14)" {
	if refused capable; then
		refusal capable
		return
	fi
	: >"$BATS_TEST_TMPDIR/owned"
	launch capable -j -x -c chown
	run --separate-stderr setpriv --bounding-set -chown \
		sh -c 'echo $$; exec chown nobody "$1"' sh \
		"$BATS_TEST_TMPDIR/owned"
	[ "$status" = 1 ]
	await "$OUT" '"verdict":"deny"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "${lines[0]}" '
		map(select(.type == null)) | length == 1 and
		.[0] == {pid: $p, tid: $p, uid: 0, comm: "chown", cap: 0,
			name: "CAP_CHOWN", ret: -1, verdict: "deny"}'
}

@test "funclatency: -p's 10 ms calls of a helper function, at 8-15 ms and above, the other process's left out" {
	local go=$BATS_TEST_TMPDIR/go a b
	"$HELPERS/func-sleep" 3 10 "$go" >"$BATS_TEST_TMPDIR/a" &
	JOBS+=" $!"
	"$HELPERS/func-sleep" 2 10 "$go" >"$BATS_TEST_TMPDIR/b" &
	JOBS+=" $!"
	await "$BATS_TEST_TMPDIR/a" '^[0-9]+$' 5
	await "$BATS_TEST_TMPDIR/b" '^[0-9]+$' 5
	read -r a <"$BATS_TEST_TMPDIR/a"
	launch funclatency -j -m -p "$a" -b "$HELPERS/func-sleep" bk_sleep_ms
	touch "$go"
	wait $JOBS
	JOBS=
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out '
		length == 1 and .[0].func == "bk_sleep_ms" and
		.[0].unit == "msecs" and .[0].count == 3 and
		(.[0].buckets | map(select(.max < 8)) | all(.count == 0)) and
		(.[0].buckets | map(select(.min == 8)) | length == 1)'
}
