# SPDX-License-Identifier: GPL-2.0
# Shared by the file system tools' tests (fsslower, fsdist, cachestat): a
# file system mounted in a mount namespace of the test's own, held by a
# sleeper (they go when it ends), commands run there, and a command that
# waits at a gate once started, so that a tool can select it by pid
# before it does anything: an ext4 file system on a loop device
# (blockio.bash's make_loop), a tmpfs.

# keep_mount TYPE SOURCE DIR: mount SOURCE (TYPE) at DIR in a new mount
# namespace, held by a sleeper (KEEPER; KEEPERS: every test's sleeper).
keep_mount() {
	mkdir -p "$3"
	mkfifo "$BATS_TEST_TMPDIR/mounted"
	unshare -m --propagation private sh -c \
		'mount -t "$1" "$2" "$3"; echo $? >"$4"; exec sleep 600' \
		sh "$@" "$BATS_TEST_TMPDIR/mounted" &
	KEEPER=$!
	KEEPERS+=" $KEEPER"
	local status
	read -r status <"$BATS_TEST_TMPDIR/mounted"
	rm "$BATS_TEST_TMPDIR/mounted"
	[ "$status" = 0 ]
}

# in_mount CMD...: run CMD in KEEPER's mount namespace.
in_mount() {
	nsenter -t "$KEEPER" -m "$@"
}

# gated CMD...: start CMD in KEEPER's mount namespace, in the background,
# where it waits until open_gate lets it go; GATED is its pid (nsenter and
# sh exec it).
gated() {
	mkfifo "$BATS_TEST_TMPDIR/gate"
	nsenter -t "$KEEPER" -m sh -c 'read -r _ <"$0" && exec "$@"' \
		"$BATS_TEST_TMPDIR/gate" "$@" &
	GATED=$!
}

# open_gate: let the gated command go; the gate goes with it. (Bounded:
# a command that died never opens it.)
open_gate() {
	timeout $((10 * TIME_SCALE)) sh -c 'echo >"$1"' sh "$BATS_TEST_TMPDIR/gate"
	rm "$BATS_TEST_TMPDIR/gate"
}

# make_ext4 [SIZE]: make_loop SIZE, an ext4 file system on it (mkfs.ext4
# from e2fsprogs; SKIP without it) mounted at MNT (keep_mount). ext4 is a
# module in the guests' kernels; mkfs does not discard the loop device
# (its discard warns in Debian's 5.10).
make_ext4() {
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4 (e2fsprogs)"
	grep -qw ext4 /proc/filesystems || modprobe ext4 2>/dev/null || true
	make_loop "$@"
	mkfs.ext4 -q -F -E nodiscard "$LOOP"
	MNT=$BATS_TEST_TMPDIR/mnt
	keep_mount ext4 "$LOOP" "$MNT"
}

# ext4_writer NAME MIB: a gated dd that writes MIB MiB to NAME on the
# ext4 file system, then fsyncs it (conv=fsync); WRITER is its pid.
ext4_writer() {
	gated dd if=/dev/zero of="$MNT/$1" bs=1M count="$2" conv=fsync status=none
	WRITER=$GATED
}

# ext4_fsync NAME MIB: the same in the foreground.
ext4_fsync() {
	ext4_writer "$@"
	open_gate
	wait "$WRITER"
}

# make_tmpfs_file NAME BYTES: a file of BYTES zeros, FILE, on a tmpfs of
# the test's own at TMPFS (keep_mount).
make_tmpfs_file() {
	TMPFS=$BATS_TEST_TMPDIR/tmpfs
	keep_mount tmpfs none "$TMPFS"
	FILE=$TMPFS/$1
	in_mount sh -c 'head -c "$1" /dev/zero >"$2"' sh "$2" "$FILE"
}

# gated_reader NAME BS COUNT: a gated dd that reads COUNT blocks of BS
# bytes of file NAME of the tmpfs; READER is its pid.
gated_reader() {
	gated dd if="$TMPFS/$1" of=/dev/null bs="$2" count="$3" status=none
	READER=$GATED
}

eval "blockio_$(declare -f teardown)"
teardown() {
	local k
	for k in ${KEEPERS:-}; do
		kill "$k" 2>/dev/null || true
		wait "$k" 2>/dev/null || true
	done
	blockio_teardown
}
