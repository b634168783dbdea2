# SPDX-License-Identifier: GPL-2.0
# Shared by the block I/O tools' tests: a loop device on a file of the
# test's own, O_DIRECT reads and writes of it, and its detach in teardown.

# make_loop [SIZE]: attach a file of SIZE (truncate's; default 16M) of the
# test's temp dir; sets LOOP (/dev/loopN) and LOOP_NAME (loopN), or skips
# without loop devices.
make_loop() {
	command -v losetup >/dev/null || skip "no losetup (util-linux)"
	[ -e /dev/loop-control ] || modprobe loop 2>/dev/null || true
	local file=$BATS_TEST_TMPDIR/disk.img
	truncate -s "${1:-16M}" "$file"
	# Direct I/O to the file where its filesystem takes it (tmpfs before
	# Linux 6.6 does not): the loop device's own requests are the same.
	LOOP=$(losetup --find --show --direct-io=on "$file" 2>/dev/null) ||
		LOOP=$(losetup --find --show "$file" 2>"$BATS_TEST_TMPDIR/losetup") ||
		skip "no loop device could be attached: $(tail -1 "$BATS_TEST_TMPDIR/losetup")"
	LOOP_NAME=${LOOP#/dev/}
}

# read_direct N SKIP [BS]: N O_DIRECT reads of BS bytes (default 4 KiB)
# from block SKIP (of BS bytes) on, in the background; sets READER to dd's
# pid.
read_direct() {
	dd if="$LOOP" of=/dev/null bs="${3:-4096}" count="$1" skip="$2" \
		iflag=direct status=none &
	READER=$!
}

# write_direct N SEEK: N O_DIRECT writes of 4 KiB of zeros from block SEEK
# on, in the foreground.
write_direct() {
	dd if=/dev/zero of="$LOOP" bs=4096 count="$1" seek="$2" \
		oflag=direct status=none
}

# block_cgroups: cgroup v2 directories BLOCK_CG, BLOCK_CG/child and
# BLOCK_CG/other, removed in teardown; skips without cgroup v2.
block_cgroups() {
	local root
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no cgroup v2 mounted"
	BLOCK_CG=$root/bk$$-$RANDOM
	mkdir -p "$BLOCK_CG/child" "$BLOCK_CG/other"
}

# read_direct_in DIR N SKIP [BS]: read_direct from a process in cgroup
# DIR; sets READER.
read_direct_in() {
	sh -c 'echo $$ >"$1/cgroup.procs" || exit 1
		exec dd if="$2" of=/dev/null bs="$5" count="$3" skip="$4" \
			iflag=direct status=none' sh "$1" "$LOOP" "$2" "$3" \
		"${4:-4096}" &
	READER=$!
}

eval "helpers_$(declare -f teardown)"
teardown() {
	[ -z "${LOOP:-}" ] || losetup -d "$LOOP"
	helpers_teardown
	[ -z "${BLOCK_CG:-}" ] ||
		rmdir "$BLOCK_CG/child" "$BLOCK_CG/other" "$BLOCK_CG"
}
