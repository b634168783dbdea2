# SPDX-License-Identifier: GPL-2.0
# Shared by the memory tests (drsnoop's, oomkill's, their portability tests): a memory
# cgroup of 32 MiB, a writer of 128 MiB of page cache in it, which
# reclaims its own pages past the limit, and a hog of anonymous memory,
# which reclaims in vain before the OOM killer takes it. The caller's
# teardown removes CG (and FILE).

# limited_cgroup KNOB: a new cgroup CG of 32 MiB, no swap: cgroup v2's
# memory.KNOB (high or max) where v2 has the memory controller, else v1's
# memory.limit_in_bytes (and memsw's).
limited_cgroup() {
	local v2 v1
	v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	if [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null; then
		grep -qw memory "$v2/cgroup.subtree_control" ||
			echo +memory >"$v2/cgroup.subtree_control"
		CG=$v2/bpfkit-mem-$$-$BATS_TEST_NUMBER
		mkdir "$CG"
		echo 32M >"$CG/memory.$1"
		[ ! -e "$CG/memory.swap.max" ] || echo 0 >"$CG/memory.swap.max"
	elif [ -n "$v1" ]; then
		CG=$v1/bpfkit-mem-$$-$BATS_TEST_NUMBER
		mkdir "$CG"
		echo 32M >"$CG/memory.limit_in_bytes"
		[ ! -e "$CG/memory.memsw.limit_in_bytes" ] ||
			echo 32M >"$CG/memory.memsw.limit_in_bytes"
	else
		skip "no cgroup hierarchy with the memory controller in /proc/mounts"
	fi
}

# writer: write 128 MiB to a new FILE on disk from a dd in CG, each MiB
# synced (clean page cache, which reclaim drops at once: dirty pages over
# a v1 limit can get the writer OOM-killed first); WRITER gets its pid.
# SKIP where /var/tmp is no disk (tmpfs, or a guest's overlay on one):
# there page cache is shared memory, which no swap can take.
writer() {
	case $(stat -f -c %T /var/tmp) in
	tmpfs | overlayfs) skip "/var/tmp is no disk (tmpfs or overlay): its page cache cannot be reclaimed without swap" ;;
	esac
	FILE=$(mktemp /var/tmp/bpfkit-dr.XXXXXX)
	sh -c 'echo $$ >"$1/cgroup.procs" &&
		exec dd if=/dev/zero of="$2" bs=1M count=128 oflag=dsync status=none' \
		sh "$CG" "$FILE" &
	WRITER=$!
	wait "$WRITER"
}

# memcg_hog COMM: oom-hog, named COMM, in CG, touching 256 MiB until the OOM
# killer takes it; HOG gets its pid.
memcg_hog() {
	local out=$BATS_TEST_TMPDIR/hog
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3" 256' \
		sh "$CG" "$HELPERS/oom-hog" "$1" >"$out" || true
	HOG=$(head -1 "$out")
	! grep -qx survived "$out" || echo "# oom-hog survived 256 MiB in $CG" >&3
}
