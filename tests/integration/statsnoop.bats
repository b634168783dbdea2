#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# statsnoop: stats by a controlled child arrive with pid, comm, result,
# syscall and path; -x keeps the failure only; -j carries the same fields.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	FILE=$BATS_TEST_TMPDIR/file-$RANDOM
	MISSING=$BATS_TEST_TMPDIR/missing-$RANDOM
	: >"$FILE"
}

# line PID PATH: the output line of PID whose last field is PATH.
line() {
	awk -v pid="$1" -v path="$2" '$1 == pid && $NF == path' "$OUT"
}

@test "statsnoop: an existing and a missing path arrive with every field" {
	start_tool statsnoop
	comm=$(unique_comm)
	run "$HELPERS/stat-trigger" "$comm" "$FILE" "$MISSING"
	[ "$status" = 0 ]
	pid=${lines[0]}
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]}" = -2 ]
	wait_for "$OUT" "$MISSING\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +RET +ERR +CALL +PATH$'
	# glibc's stat(3) is fstatat(2) on 64-bit machines, stat(2) elsewhere.
	line "$pid" "$FILE" | grep -Eq "^$pid +$comm +0 0 +(fstatat|stat|statx) +$FILE\$"
	line "$pid" "$MISSING" | grep -Eq "^$pid +$comm +-1 ENOENT +(fstatat|stat|statx) +$MISSING\$"
	grep -Eq '^statsnoop: [0-9]+ events, 0 lost$' "$ERR"
}

@test "statsnoop: -x shows the failure only" {
	start_tool statsnoop -x
	run "$HELPERS/stat-trigger" "$(unique_comm)" "$FILE" "$MISSING"
	pid=${lines[0]}
	wait_for "$OUT" "$MISSING\$" 5
	stop_tool
	[ -n "$(line "$pid" "$MISSING")" ]
	[ -z "$(line "$pid" "$FILE")" ]
	[ -z "$(awk 'NR > 1 && $3 != -1' "$OUT")" ]
}

@test "statsnoop: -c traces that command only, -j prints the same fields" {
	comm=$(unique_comm)
	start_tool statsnoop -j -c "$comm"
	run "$HELPERS/stat-trigger" "$comm" "$FILE" "$MISSING"
	pid=${lines[0]}
	wait_for "$OUT" "\"path\":\"$MISSING\"" 5
	stop_tool
	jq -es --argjson p "$pid" --arg c "$comm" --arg f "$FILE" \
		--arg m "$MISSING" '
		map(select(.pid == $p and (.path == $f or .path == $m))) |
		length == 2 and
		(.[0] | .tid == $p and .uid == 0 and .comm == $c and
			.ret == 0 and .errno == 0 and .path == $f and
			(has("error") | not)) and
		(.[1] | .ret == -1 and .errno == 2 and .error == "ENOENT" and
			.path == $m)
	' "$OUT"
	jq -es --arg c "$comm" 'map(select(.comm and .comm != $c)) | length == 0' "$OUT"
	jq -es 'map(select(.type == "summary")) | length == 1' "$OUT"
}

@test "statsnoop: a bad option exits 2 with one line and no output" {
	run --separate-stderr "$BIN/statsnoop" --bogus
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}
