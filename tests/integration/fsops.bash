# SPDX-License-Identifier: GPL-2.0
# Shared by the file system tools' tests (fsslower, fsdist): an ext4 file
# system on a loop device (blockio.bash's make_loop) and files written and
# fsynced there, a tmpfs file, and a reader of it that waits at a gate, so
# that a tool can select it by pid before it reads. Mounts are made in a
# mount namespace of the workload's own: they go when it ends.

# make_ext4: make_loop, then an ext4 file system on it (mkfs.ext4 from
# e2fsprogs; SKIP without it); sets MNT, its mount point.
make_ext4() {
	command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4 (e2fsprogs)"
	make_loop
	mkfs.ext4 -q -F "$LOOP"
	MNT=$BATS_TEST_TMPDIR/mnt
	mkdir -p "$MNT"
}

# ext4_writer NAME MIB: a dd, started now in the background, that writes
# MIB MiB to NAME on the ext4 file system, then fsyncs it (conv=fsync),
# once open_gate lets it; WRITER is its pid (unshare and sh exec it).
ext4_writer() {
	mkfifo "$BATS_TEST_TMPDIR/gate"
	unshare -m --propagation private sh -c \
		'mount -t ext4 "$1" "$2" && read -r _ <"$3" && exec dd if=/dev/zero of="$2/$4" bs=1M count="$5" conv=fsync status=none' \
		sh "$LOOP" "$MNT" "$BATS_TEST_TMPDIR/gate" "$1" "$2" &
	WRITER=$!
}

# ext4_fsync NAME MIB: the same in the foreground, ungated.
ext4_fsync() {
	ext4_writer "$@"
	open_gate
	wait "$WRITER"
}

# make_tmpfs_file NAME BYTES: a file of BYTES zeros on a tmpfs of the
# test's own, kept by the mount namespace of a sleeper (TMPFS_PID) at
# TMPFS; FILE is its path as that namespace sees it.
make_tmpfs_file() {
	TMPFS=$BATS_TEST_TMPDIR/tmpfs
	mkdir -p "$TMPFS"
	mkfifo "$BATS_TEST_TMPDIR/ready"
	unshare -m --propagation private sh -c \
		'mount -t tmpfs none "$1" && head -c "$3" /dev/zero >"$1/$2" && echo >"$4" && exec sleep 600' \
		sh "$TMPFS" "$1" "$2" "$BATS_TEST_TMPDIR/ready" &
	TMPFS_PID=$!
	read -r <"$BATS_TEST_TMPDIR/ready"
	FILE=$TMPFS/$1
}

# gated_reader NAME BS COUNT: a dd in TMPFS_PID's mount namespace that
# reads COUNT blocks of BS bytes of tmpfs file NAME once open_gate lets
# it; READER is its pid (nsenter execs it, sh execs dd).
gated_reader() {
	mkfifo "$BATS_TEST_TMPDIR/gate"
	nsenter -t "$TMPFS_PID" -m sh -c \
		'read -r _ <"$1" && exec dd if="$2" of=/dev/null bs="$3" count="$4" status=none' \
		sh "$BATS_TEST_TMPDIR/gate" "$TMPFS/$1" "$2" "$3" &
	READER=$!
}

# open_gate: let the gated writer or reader go; the gate goes with it.
# (Bounded: a writer whose mount failed never opens it.)
open_gate() {
	timeout $((10 * TIME_SCALE)) sh -c 'echo >"$1"' sh "$BATS_TEST_TMPDIR/gate"
	rm "$BATS_TEST_TMPDIR/gate"
}

eval "blockio_$(declare -f teardown)"
teardown() {
	[ -z "${TMPFS_PID:-}" ] || kill "$TMPFS_PID" 2>/dev/null || true
	blockio_teardown
}
