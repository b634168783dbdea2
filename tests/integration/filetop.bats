#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# filetop: a helper writing exactly B bytes to a named file in K calls has
# a row with B and K (and nothing read); each kind of read and write call
# is counted; a character device is counted with -a only; the table,
# sorting and bad input behave.

bats_require_minimum_version 1.5.0
load helpers
load file-trigger

setup() {
	require_root
	GO=$BATS_TEST_TMPDIR/go
	JOBS=
}

@test "filetop: a helper's B bytes in K writes to a named file, in its row" {
	file=$BATS_TEST_TMPDIR/written-$RANDOM
	file_trigger B write "$BATS_TEST_TMPDIR/other" 999 3
	file_trigger A write "$file" 100000 7
	start_tool filetop -j -i 60 -p "$A"
	touch "$GO"
	wait "$A_JOB" "$B_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es --argjson p "$A" --arg c "$A_COMM" --arg f "${file##*/}" \
		--argjson ino "$(stat -c %i "$file")" '
		length == 1 and (.[0].files | length == 1 and
		(.[0] | .pid == $p and .comm == $c and .file == $f and
		 .ino == $ino and .type == "R" and .writes == 7 and
		 .write_bytes == 100000 and .reads == 0 and .read_bytes == 0))
	' "$OUT"
}

@test "filetop: read, pread64, readv, write, pwrite64 and writev calls, each counted" {
	file=$BATS_TEST_TMPDIR/rw-$RANDOM
	file_trigger A vfs "$file" 7
	start_tool filetop -j -i 60 -p "$A"
	touch "$GO"
	wait "$A_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	# 7 write()s, a pwrite64 and a writev of a byte each; the same reads.
	jq -es --arg f "${file##*/}" 'length == 1 and (.[0].files |
		length == 1 and (.[0] | .file == $f and .reads == 9 and
		.writes == 9 and .read_bytes == 9 and .write_bytes == 9))
	' "$OUT"
}

@test "filetop: a character device's writes with -a only, as type O" {
	file_trigger A write /dev/null 5000 5
	start_tool filetop -j -i 60 -c "$A_COMM"
	touch "$GO"
	wait "$A_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es 'length == 1 and (.[0].files | length == 0)' "$OUT"
	rm "$GO"
	file_trigger A write /dev/null 5000 5
	start_tool filetop -j -i 60 -a -c "$A_COMM"
	touch "$GO"
	wait "$A_JOB"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es 'length == 1 and (.[0].files | length == 1 and
		(.[0] | .type == "O" and .file == "null" and .writes == 5 and
		 .write_bytes == 5000))' "$OUT"
}

@test "filetop: the table, sorted by writes, cut to -r rows" {
	comm=$(unique_comm)
	for n in 3 9 1; do
		"$HELPERS/file-trigger" "$comm" "$GO" write \
			"$BATS_TEST_TMPDIR/w$n" $((n * 10000)) "$n" \
			>"$BATS_TEST_TMPDIR/w$n.pid" &
		JOBS+=" $!"
		wait_for "$BATS_TEST_TMPDIR/w$n.pid" '^[0-9]+$' 5
	done
	start_tool filetop -i 60 -s writes -r 2 -c "$comm"
	touch "$GO"
	wait $JOBS
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(wc -l <"$OUT")" = 4 ]
	grep -Eq '^\[[0-9]{2}:[0-9]{2}:[0-9]{2}\]$' "$OUT"
	sed -n 2p "$OUT" | grep -Eq '^PID +COMM +READS +WRITES +R_KB +W_KB +T +FILE$'
	sed -n 3p "$OUT" | grep -Eq "^$(cat "$BATS_TEST_TMPDIR/w9.pid") +$comm +0 +9 +0 +87 R w9\$"
	sed -n 4p "$OUT" | grep -Eq "^$(cat "$BATS_TEST_TMPDIR/w3.pid") +$comm +0 +3 +0 +29 R w3\$"
}

@test "filetop: a bad sort key is refused in one line, exit 2" {
	run --separate-stderr "$BIN/filetop" -s size
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "filetop: invalid -s/--sort 'size': expected all, reads, writes, rbytes or wbytes" ]
}
