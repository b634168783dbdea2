#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# mountsnoop: in a private mount namespace the test makes (unshare -m), a
# helper mounts and unmounts a tmpfs, fails a mount (EINVAL) and mounts one
# with the new API; each call arrives with its target, fs type, flags and
# result, in columns and in JSON.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	command -v unshare >/dev/null || skip "needs unshare (util-linux)"
	DIR=$BATS_TEST_TMPDIR/mnt
	mkdir "$DIR"
}

# mounts COMM: run mount-trigger as COMM in a private mount namespace;
# set PID, and RESULTS to its "CALL RESULT" lines.
mounts() {
	run unshare -m --propagation private "$HELPERS/mount-trigger" "$1" "$DIR"
	[ "$status" = 0 ]
	PID=${lines[0]}
	RESULTS=("${lines[@]:1}")
}

@test "mountsnoop: mount, umount2 and a failed mount in a private namespace" {
	start_tool mountsnoop -c "${COMM:=$(unique_comm)}"
	mounts "$COMM"
	[ "${RESULTS[0]}" = "mount 0" ]
	[ "${RESULTS[2]}" = "mount -22" ]
	wait_for "$OUT" "umount2\(\"$DIR\", MNT_DETACH\)\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +MNT_NS +RET +CALL$'
	ns=$(awk -v p="$PID" '$1 == p { print $3; exit }' "$OUT")
	[ "$ns" != "$(stat -Lc %i /proc/self/ns/mnt)" ]
	row() { printf '%-7s %-15s %-10s %-7s %s' "$PID" "$COMM" "$ns" "$1" "$2"; }
	[ "$(sed -n 2p "$OUT")" = "$(row 0 "mount(\"bk-src\", \"$DIR\", \"tmpfs\", MS_NOSUID|MS_NODEV, \"size=1m\")")" ]
	[ "$(sed -n 3p "$OUT")" = "$(row 0 "umount2(\"$DIR\", 0)")" ]
	[ "$(sed -n 4p "$OUT")" = "$(row EINVAL "mount(\"bk-src\", \"$DIR\", \"tmpfs\", 0, \"size=bogus\")")" ]
	grep -Eq '^mountsnoop: [0-9]+ events, 0 lost$' "$ERR"
}

@test "mountsnoop: the new mount API's calls, with fds and flags" {
	start_tool mountsnoop -c "${COMM:=$(unique_comm)}"
	mounts "$COMM"
	wait_for "$OUT" "umount2\(\"$DIR\", MNT_DETACH\)\$" 5
	stop_tool
	[ "${RESULTS[3]%% *}" = fsopen ]
	fs=${RESULTS[3]#fsopen }
	calls=$(awk 'NR > 1 { $1 = $2 = $3 = ""; sub(/^ +/, ""); print }' "$OUT" | sed -n '4,$p')
	[ "$calls" = "$fs fsopen(\"tmpfs\", FSOPEN_CLOEXEC)
0 fsconfig($fs, FSCONFIG_SET_STRING, \"size\", \"1m\", 0)
0 fsconfig($fs, FSCONFIG_CMD_CREATE, \"\", \"\", 0)
$((fs + 1)) fsmount($fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NODEV)
0 move_mount($((fs + 1)), \"\", AT_FDCWD, \"$DIR\", MOVE_MOUNT_F_EMPTY_PATH)
0 umount2(\"$DIR\", MNT_DETACH)" ]
}

@test "mountsnoop: -x keeps the failure; -j carries every field" {
	start_tool mountsnoop -x -j -c "${COMM:=$(unique_comm)}"
	mounts "$COMM"
	wait_for "$OUT" '"EINVAL"' 5
	stop_tool
	jq -es --argjson p "$PID" --arg c "$COMM" --arg d "$DIR" '
		map(select(has("pid"))) | length == 1 and
		(.[0] | .pid == $p and .tid == $p and .uid == 0 and
			.comm == $c and .syscall == "mount" and .ret == -1 and
			.errno == 22 and .error == "EINVAL" and .flags == 0 and
			.source == "bk-src" and .target == $d and
			.fstype == "tmpfs" and .data == "size=bogus" and
			(.mnt_ns | type) == "number")
	' "$OUT"
}

@test "mountsnoop: a bad option exits 2 with one line and no output" {
	run --separate-stderr "$BIN/mountsnoop" --bogus
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}

@test "mountsnoop: MNT_NS is the caller's mount namespace" {
	# A mount that fails (EINVAL) in the test's own namespace: nothing
	# changes, and the record carries that namespace's inode number.
	COMM=$(unique_comm)
	cp "$(command -v mount)" "$BATS_TEST_TMPDIR/$COMM"
	start_tool mountsnoop -x -j -c "$COMM"
	run "$BATS_TEST_TMPDIR/$COMM" -t tmpfs -o size=bogus bk-src "$DIR"
	[ "$status" != 0 ]
	wait_for "$OUT" '"EINVAL"' 5
	stop_tool
	jq -es --argjson ns "$(stat -Lc %i /proc/self/ns/mnt)" '
		map(select(has("pid"))) | length >= 1 and all(.mnt_ns == $ns)
	' "$OUT"
}
