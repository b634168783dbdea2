#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# drsnoop: a writer of 128 MiB of page cache in a cgroup held to 32 MiB
# (memory.high on cgroup v2, memory.limit_in_bytes where v1 holds the
# memory controller) reclaims its own pages: every stall is reported for
# its pid, as a memcg reclaim, and the pages add up to what it wrote past
# the limit. A hog of anonymous memory over memory.max reclaims in vain
# before its OOM kill: reported for its pid too, in text; -p and -c
# select; bad input.

bats_require_minimum_version 1.5.0
load helpers
load reclaim

setup() {
	require_root
	CG=
	V2=
	FILE=
	JOBS=
}

eval "helpers_$(declare -f teardown)"
teardown() {
	helpers_teardown
	[ -z "$JOBS" ] || kill $JOBS 2>/dev/null || true
	wait 2>/dev/null || true
	CG=$V2 drop_test_cgroups
	[ -z "$FILE" ] || rm -f "$FILE"
	local i
	for ((i = 0; i < 50; i++)); do
		[ -n "$CG" ] && [ -d "$CG" ] && ! rmdir "$CG" 2>/dev/null || break
		sleep 0.1
	done
}

@test "drsnoop: a writer past its cgroup's 32 MiB reclaims what it wrote beyond" {
	limited_cgroup high
	start_tool drsnoop -j
	writer
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	jq -es 'map(select(.type == "summary")) | length == 1' "$OUT"
	jq -es --argjson p "$WRITER" '[.[] | select(.pid == $p)] | length > 0 and
		all(.tid == $p and .comm == "dd" and .uid == 0 and
		    .kind == "memcg" and .latency_ns > 0 and .order >= 0)' "$OUT"
	# 96 MiB past the limit, in 4 KiB pages: reclaimed by the writer
	# itself (a little less: the limit lets a charge batch over it; no
	# more than it wrote).
	pages=$(jq -s --argjson p "$WRITER" 'map(select(.pid == $p) | .pages) | add' "$OUT")
	echo "# dd reclaimed $pages pages" >&3
	[ "$pages" -ge $((96 * 256 * 9 / 10)) ]
	[ "$pages" -le $((128 * 256)) ]
}

@test "drsnoop: a hog over memory.max reclaims before its OOM kill; -c, -p, text" {
	local comm
	comm=$(unique_comm)
	limited_cgroup max
	start_tool drsnoop -c "$comm"
	memcg_hog "$comm"
	stop_tool
	head -1 "$OUT" | grep -Eq '^PID +COMM +TID +LAT\(ms\) +PAGES +ORDER +KIND$'
	grep -Eq "^$HOG +$comm +$HOG +[0-9]+\.[0-9]{3} +[0-9]+ +[0-9]+ memcg\$" "$OUT"
	[ "$(grep -Evc "^$HOG +$comm " "$OUT")" = 1 ]

	# Another process's only: nothing but the header.
	sleep 30 &
	JOBS=$!
	start_tool drsnoop -p "$JOBS"
	memcg_hog "$comm"
	stop_tool
	[ "$(wc -l <"$OUT")" = 1 ]
}

@test "drsnoop: --cgroup shows a cgroup's reclaims, not its sibling's" {
	local v2 v in out
	case $(stat -f -c %T /var/tmp) in
	tmpfs | overlayfs) skip "/var/tmp is no disk (tmpfs or overlay): its page cache cannot be reclaimed without swap" ;;
	esac
	limited_cgroup high
	v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$v2" ] || skip "no cgroup v2 mounted"
	# Cgroup v2's in and out: under the memory cgroup where v2 holds it.
	if [ "${CG#"$v2"/}" != "$CG" ]; then
		V2=$CG/bk
	else
		V2=$v2/bk$$-$RANDOM
	fi
	mkdir -p "$V2/in" "$V2/out"
	FILE=$(mktemp /var/tmp/bpfkit-dr.XXXXXX)
	start_tool drsnoop -j --cgroup "$V2/in"
	# A writer of 64 MiB past the 32 MiB limit in each.
	for v in in out; do
		sh -c 'echo $$ >"$1/cgroup.procs" && echo $$ >"$2/cgroup.procs" &&
			exec dd if=/dev/zero of="$3" bs=1M count=64 oflag=dsync status=none' \
			sh "$CG" "$V2/$v" "$FILE" &
		printf -v "$v" %s $!
		wait $!
		rm -f "$FILE"
	done
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(jq -s --argjson p "$in" 'map(select(.pid == $p)) | length' "$OUT")" -gt 0 ]
	jq -es --argjson p "$in" 'map(select(.type == null)) | all(.pid == $p)' "$OUT"
}

@test "drsnoop: bad input exits 2 with one line and no output" {
	for args in "x" "-p 0x" "-d -1"; do
		run --separate-stderr "$BIN/drsnoop" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "drsnoop: "* ]]
	done
}
