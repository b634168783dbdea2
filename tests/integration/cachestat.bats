#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# cachestat: on an ext4 file system of a loop device the test makes, a dd
# reading a 64 MiB file whose pages were dropped adds about 16384 pages
# (within 5%); one writing it adds and dirties as many, and dropping its
# clean pages deletes as many; every count for that one process (-p).

bats_require_minimum_version 1.5.0
load helpers
load blockio
load fsops

setup() {
	require_root
}

# near N: N is within 5% of 16384 (64 MiB of 4 KiB pages).
near() {
	echo "# $1 pages" >&3
	(($1 >= 15565 && $1 <= 17203))
}

# sum FIELD: FIELD summed over the tool's JSON intervals.
sum() {
	jq -s "map(.$1) | add" "$OUT"
}

# traced CMD...: CMD gated in the test's mount namespace, traced alone by
# cachestat -j every second until it ends.
traced() {
	gated "$@"
	start_tool cachestat -p "$GATED" -j 1
	open_gate
	wait "$GATED"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "cachestat: reading a 64 MiB file whose pages were dropped adds about 16384 pages" {
	make_ext4 96M
	in_mount dd if=/dev/zero of="$MNT/big" bs=1M count=64 conv=fsync status=none
	in_mount dd if="$MNT/big" iflag=nocache count=0 status=none
	traced dd if="$MNT/big" of=/dev/null bs=1M status=none
	near "$(sum added)"
	[ "$(sum dirtied)" = 0 ]
}

@test "cachestat: writing 64 MiB adds and dirties about 16384 pages; dropping them deletes as many" {
	make_ext4 96M
	traced dd if=/dev/zero of="$MNT/big" bs=1M count=64 conv=fsync status=none
	near "$(sum added)"
	near "$(sum dirtied)"
	traced dd if="$MNT/big" iflag=nocache count=0 status=none
	near "$(sum deleted)"
	[ "$(sum added)" = 0 ]
}

@test "cachestat: text rows every interval under a header; COUNT ends the run" {
	run --separate-stderr timeout 20 "$BIN/cachestat" -T 1 2
	[ "$status" = 0 ]
	[ "${#lines[@]}" = 3 ]
	[[ ${lines[0]} =~ ^TIME\ +ADDED\ +DELETED\ +DIRTIED$ ]]
	[[ ${lines[1]} =~ ^[0-9:]{8}\ +[0-9]+\ +[0-9]+\ +[0-9]+$ ]]
	[[ ${lines[2]} =~ ^[0-9:]{8}\ +[0-9]+\ +[0-9]+\ +[0-9]+$ ]]
}

@test "cachestat: bad INTERVAL and COUNT are refused in one line" {
	run --separate-stderr "$BIN/cachestat" 0
	[ "$status" = 2 ]
	[ "${#stderr_lines[@]}" = 1 ]
	run --separate-stderr "$BIN/cachestat" 1 2 3
	[ "$status" = 2 ]
	[ "$stderr" = "cachestat: unexpected argument '3': expected at most [INTERVAL [COUNT]]; see 'cachestat --help'" ]
}
