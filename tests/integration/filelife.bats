#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# filelife: a file a helper creates and removes 200 ms later shows an age
# of 150-400 ms, its path, and the helper; files that existed before the
# trace (even opened with O_CREAT during it) are not shown; relative and
# absolute paths to one file pair up.

bats_require_minimum_version 1.5.0
load helpers
load file-trigger

setup() {
	require_root
	GO=$BATS_TEST_TMPDIR/go
}

@test "filelife: a file removed 200 ms after its creation, aged 150-400 ms" {
	file=$BATS_TEST_TMPDIR/short-$RANDOM
	file_trigger A life "$file" 200
	start_tool filelife -j -c "$A_COMM"
	touch "$GO"
	wait "$A_JOB"
	wait_for "$OUT" '"path":' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson p "$A" --arg c "$A_COMM" --arg f "$file" \
		--argjson max $((400 * TIME_SCALE)) '
		map(select(.type == null)) | length == 1 and
		(.[0] | .pid == $p and .tid == $p and .uid == 0 and
		 .comm == $c and .path == $f and .creator_pid == $p and
		 .creator_comm == $c and
		 .age_ns >= 150000000 and .age_ns <= $max * 1000000)
	' "$OUT"
}

@test "filelife: relative paths pair up, shown absolute; files older than the trace are not shown" {
	dir=$BATS_TEST_TMPDIR/d-$RANDOM
	mkdir -p "$dir/sub"
	: >"$dir/old"
	: >"$dir/reopened"
	start_tool filelife
	(cd "$dir/sub" && touch ../new ./mine && rm ../../"${dir##*/}"/./new &&
		rm "$dir/sub/mine")
	touch "$dir/reopened"
	rm "$dir/old" "$dir/reopened"
	touch "$dir/last"
	rm "$dir/last"
	wait_for "$OUT" " $dir/last\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +AGE\(s\) +FILE$'
	grep -Eq "^[0-9]+ +rm +[0-9]+\.[0-9]{3} $dir/new\$" "$OUT"
	grep -Eq "^[0-9]+ +rm +[0-9]+\.[0-9]{3} $dir/sub/mine\$" "$OUT"
	[ "$(grep -c " $dir/" "$OUT")" = 3 ]
}

@test "filelife: a bad uid is refused in one line, exit 2" {
	run --separate-stderr "$BIN/filelife" -u no-such-user-here
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "filelife: "* ]]
}
