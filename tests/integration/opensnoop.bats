#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# opensnoop: opens by a controlled child arrive with pid, comm, fd or error,
# flags and path; -x, -p, -n and -j behave.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	GO=$BATS_TEST_TMPDIR/go
	FILE=$BATS_TEST_TMPDIR/file-$RANDOM
	MISSING=$BATS_TEST_TMPDIR/missing-$RANDOM
	: >"$FILE"
}

# trigger COMM OUTFILE PATH...: start open-trigger in the background, waiting
# for $GO; set TRIG_PID and add its job to JOBS.
trigger() {
	"$HELPERS/open-trigger" "$1" "$GO" "${@:3}" >"$2" &
	JOBS+=" $!"
	wait_for "$2" '^[0-9]+$' 5
	TRIG_PID=$(head -1 "$2")
}

# line PID FIELD...: the output line of PID whose last field is the path.
line() {
	awk -v pid="$1" -v path="$2" '$1 == pid && $NF == path' "$OUT"
}

@test "opensnoop: a successful open and an ENOENT arrive with every field" {
	start_tool opensnoop
	comm=$(unique_comm)
	run "$HELPERS/open-trigger" "$comm" - "$FILE" "$MISSING"
	[ "$status" = 0 ]
	pid=${lines[0]} fd=${lines[1]}
	[ "${lines[2]}" = -2 ]
	wait_for "$OUT" "$MISSING\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +FD +ERR +PATH$'
	[ "$(line "$pid" "$FILE")" = "$(printf '%-7s %-15s %3s %-7s %s' \
		"$pid" "$comm" "$fd" 0 "$FILE")" ]
	[ "$(line "$pid" "$MISSING")" = "$(printf '%-7s %-15s %3s %-7s %s' \
		"$pid" "$comm" -1 ENOENT "$MISSING")" ]
	grep -Eq '^opensnoop: [0-9]+ events, 0 lost$' "$ERR"
}

@test "opensnoop: -x shows the failed open only" {
	start_tool opensnoop -x
	comm=$(unique_comm)
	run "$HELPERS/open-trigger" "$comm" - "$FILE" "$MISSING"
	pid=${lines[0]}
	wait_for "$OUT" "$MISSING\$" 5
	stop_tool
	[ -n "$(line "$pid" "$MISSING")" ]
	[ -z "$(line "$pid" "$FILE")" ]
	! grep -E ' [0-9]+ 0 ' "$OUT" || false
}

@test "opensnoop: -p traces that process and not another" {
	trigger "$(unique_comm)" "$BATS_TEST_TMPDIR/a" "$FILE"
	a=$TRIG_PID
	trigger "$(unique_comm)" "$BATS_TEST_TMPDIR/b" "$FILE"
	b=$TRIG_PID
	start_tool opensnoop -p "$a"
	touch "$GO"
	wait $JOBS
	wait_for "$OUT" "^$a .*$FILE\$" 5
	stop_tool
	[ -n "$(line "$a" "$FILE")" ]
	[ -z "$(line "$b" "$FILE")" ]
	[ -z "$(awk -v a="$a" 'NR > 1 && $1 != a' "$OUT")" ]
}

@test "opensnoop: -e decodes the flags, -n keeps matching paths only" {
	start_tool opensnoop -e -n "${FILE##*/}"
	run "$HELPERS/open-trigger" "$(unique_comm)" - "$FILE" "$MISSING"
	pid=${lines[0]}
	wait_for "$OUT" "$FILE\$" 5
	stop_tool
	head -1 "$OUT" | grep -Eq '^PID +COMM +FD +ERR +FLAGS +PATH$'
	line "$pid" "$FILE" | grep -Eq " O_RDONLY +$FILE\$"
	[ -z "$(line "$pid" "$MISSING")" ]
	[ -z "$(awk 'NR > 1 && $NF !~ /file-/' "$OUT")" ]
}

@test "opensnoop: -j prints valid JSON with the same fields" {
	start_tool opensnoop -j -e
	comm=$(unique_comm)
	run "$HELPERS/open-trigger" "$comm" - "$FILE" "$MISSING"
	pid=${lines[0]} fd=${lines[1]}
	wait_for "$OUT" "\"path\":\"$MISSING\"" 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$pid" --argjson fd "$fd" \
		--arg f "$FILE" --arg m "$MISSING" '
		map(select(.comm == $c)) | length == 2 and
		(.[0] | .pid == $p and .tid == $p and .uid == 0 and
			.fd == $fd and .errno == 0 and .path == $f and
			.syscall == "openat" and .flags == 0 and
			.flag_names == "O_RDONLY" and (has("error") | not)) and
		(.[1] | .fd == -1 and .errno == 2 and .error == "ENOENT" and
			.path == $m)
	' "$OUT"
	jq -es 'map(select(.type == "summary")) | length == 1' "$OUT"
}

@test "opensnoop: what -n leaves out is counted filtered, not as events" {
	trigger "$(unique_comm)" "$BATS_TEST_TMPDIR/t" "$FILE" "$MISSING"
	start_tool opensnoop -p "$TRIG_PID" -n "no-such-$RANDOM"
	touch "$GO"
	wait $JOBS
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(wc -l <"$OUT")" = 1 ] # the header only
	grep -qx 'opensnoop: 0 events, 0 lost, 2 filtered' "$ERR"
}

@test "opensnoop: -j's summary gives filtered apart from events" {
	trigger "$(unique_comm)" "$BATS_TEST_TMPDIR/t" "$FILE" "$MISSING"
	start_tool opensnoop -j -p "$TRIG_PID" -n "${FILE##*/}"
	touch "$GO"
	wait $JOBS
	wait_for "$OUT" "\"path\":\"$FILE\"" 5
	stop_tool
	jq -es --arg f "$FILE" 'map(select(.type == null)) |
		length == 1 and .[0].path == $f' "$OUT"
	jq -es '.[-1] | .type == "summary" and .events == 1 and
		.filtered == 1 and .lost == 0 and .produced == 2' "$OUT"
}

@test "opensnoop: -n no-such -d 2 prints nothing and reports no events" {
	trigger "$(unique_comm)" "$BATS_TEST_TMPDIR/t" "$FILE" "$MISSING"
	start_tool opensnoop -n "no-such-$RANDOM" -d 2
	touch "$GO"
	wait $JOBS
	wait "$TOOL_PID"
	TOOL_PID=
	[ "$(wc -l <"$OUT")" = 1 ]
	filtered=$(sed -En 's/^opensnoop: 0 events, [0-9]+ lost.*, ([0-9]+) filtered$/\1/p' "$ERR")
	[ "$filtered" -ge 2 ]
}

@test "opensnoop: bad options exit 2 with one line and no output" {
	run --separate-stderr "$BIN/opensnoop" -n ""
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "opensnoop: invalid -n/--name '': expected a path substring" ]
	run --separate-stderr "$BIN/opensnoop" --bogus
	[ "$status" = 2 ] && [ -z "$output" ]
}
