#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# oomkill: a helper in a 32 MiB memory cgroup the test makes allocates and
# touches 256 MiB; the OOM killer kills it, and its pid and comm arrive,
# with its uid and memory, and the task that triggered the kill.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	make_memory_cgroup
}

# make_memory_cgroup: a new cgroup CG limited to 32 MiB (no swap), under
# whichever hierarchy holds the memory controller: cgroup v2 when its
# cgroup.controllers lists memory, else v1's memory hierarchy.
make_memory_cgroup() {
	local v2 v1
	v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)memory(,|$)/ { print $2; exit }' /proc/mounts)
	if [ -n "$v2" ] && grep -qw memory "$v2/cgroup.controllers" 2>/dev/null; then
		grep -qw memory "$v2/cgroup.subtree_control" ||
			echo +memory >"$v2/cgroup.subtree_control"
		CG=$v2/bpfkit-oom-$$-$BATS_TEST_NUMBER
		mkdir "$CG"
		echo 32M >"$CG/memory.max"
		[ ! -e "$CG/memory.swap.max" ] || echo 0 >"$CG/memory.swap.max"
	elif [ -n "$v1" ]; then
		CG=$v1/bpfkit-oom-$$-$BATS_TEST_NUMBER
		mkdir "$CG"
		echo 32M >"$CG/memory.limit_in_bytes"
		[ ! -e "$CG/memory.memsw.limit_in_bytes" ] ||
			echo 32M >"$CG/memory.memsw.limit_in_bytes"
	else
		skip "no cgroup hierarchy with the memory controller in /proc/mounts"
	fi
}

teardown() {
	if [ -n "${FILTERED_PID:-}" ]; then
		kill -KILL "$FILTERED_PID" 2>/dev/null
		wait "$FILTERED_PID" 2>/dev/null
	fi
	if [ -n "${TOOL_PID:-}" ]; then
		kill -KILL "$TOOL_PID" 2>/dev/null
		wait "$TOOL_PID" 2>/dev/null
	fi
	[ -z "${CG:-}" ] || rmdir "$CG" 2>/dev/null || true
}

# hog COMM: run oom-hog as COMM in CG, allocating 256 MiB; set HOG_PID and
# HOG_STATUS (137 when the OOM killer took it).
hog() {
	local out=$BATS_TEST_TMPDIR/hog
	HOG_STATUS=0
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3" 256' sh "$CG" \
		"$HELPERS/oom-hog" "$1" >"$out" || HOG_STATUS=$?
	HOG_PID=$(head -1 "$out")
	grep -qx survived "$out" && echo "# oom-hog survived 256 MiB in $CG" >&3
	return 0
}

@test "oomkill: a helper over its cgroup's 32 MiB is killed; its pid and comm arrive" {
	start_tool oomkill
	comm=$(unique_comm)
	hog "$comm"
	[ "$HOG_STATUS" = 137 ]
	wait_for "$OUT" "^$HOG_PID +$comm " 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +UID +TOTAL_KB +RSS_KB +OOM_ADJ +TPID +TCOMM$'
	# The victim ran as root with oom_score_adj 0; it had touched more
	# than a few MiB of the 256 when the 32 MiB limit stopped it.
	read -r pid c uid total rss adj tpid tcomm < <(awk -v p="$HOG_PID" '$1 == p' "$OUT")
	[ "$c" = "$comm" ] && [ "$uid" = 0 ] && [ "$adj" = 0 ]
	[ "$total" -ge $((256 * 1024)) ] && [ "$rss" -ge 4096 ]
	# The cgroup's only task hit the limit, so it ran the OOM killer.
	[ "$tpid" = "$HOG_PID" ] && [ "$tcomm" = "$comm" ]
	grep -Eq '^oomkill: 1 events, 0 lost$' "$ERR"
}

@test "oomkill: -j carries the victim's fields and the trigger's" {
	start_tool oomkill -j
	comm=$(unique_comm)
	hog "$comm"
	[ "$HOG_STATUS" = 137 ]
	wait_for "$OUT" "\"pid\":$HOG_PID," 10
	stop_tool
	jq -es --argjson p "$HOG_PID" --arg c "$comm" '
		map(select(.pid == $p)) | length == 1 and
		(.[0] | .comm == $c and .uid == 0 and .oom_score_adj == 0 and
			.total_vm_kb >= 256 * 1024 and
			.anon_rss_kb + .file_rss_kb + .shmem_rss_kb >= 4096 and
			.trigger_pid == $p and .trigger_comm == $c and
			(.from_task | type) == "boolean")
	' "$OUT"
}

@test "oomkill: -c selects by the triggering task: another command's kill is left out" {
	# A filtered instance beside an unfiltered one: once the unfiltered
	# one has printed the kill, the filtered one has decided on it too
	# (in the kernel, at the same event), and its stop drains the rest.
	"$BIN/oomkill" -c "$(unique_comm)" >"$BATS_TEST_TMPDIR/c.out" \
		2>"$BATS_TEST_TMPDIR/c.err" &
	FILTERED_PID=$!
	wait_for "$BATS_TEST_TMPDIR/c.err" 'tracing; hit Ctrl-C to end' 20
	start_tool oomkill
	comm=$(unique_comm)
	hog "$comm"
	[ "$HOG_STATUS" = 137 ]
	wait_for "$OUT" "^$HOG_PID +$comm " 10
	stop_tool
	kill -INT "$FILTERED_PID"
	wait "$FILTERED_PID"
	FILTERED_PID=
	[ "$(wc -l <"$BATS_TEST_TMPDIR/c.out")" = 1 ]
	grep -Eq '^oomkill: 0 events, 0 lost$' "$BATS_TEST_TMPDIR/c.err"
}

@test "oomkill: a bad option exits 2 with one line and no output" {
	run --separate-stderr "$BIN/oomkill" --ringbuf
	[ "$status" = 2 ] && [ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}
