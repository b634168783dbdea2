#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# oomkill: a helper in a 32 MiB memory cgroup the test makes allocates and
# touches 256 MiB; the OOM killer kills it, and its pid and comm arrive,
# with its uid and memory, and the task that triggered the kill.

bats_require_minimum_version 1.5.0
load helpers
load reclaim

setup() {
	require_root
	limited_cgroup max
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
	# A killed task can linger in its cgroups for a moment.
	for d in "${CHILD_CG:-}" "${TOP_CG:-}" "${CG:-}"; do
		[ -n "$d" ] && [ -d "$d" ] || continue
		for ((i = 0; i < 50; i++)); do
			rmdir "$d" 2>/dev/null && break
			sleep 0.1
		done
	done
	return 0
}

# hog COMM [V2DIR]: run oom-hog as COMM in CG (and then in the cgroup v2
# directory V2DIR, if given: on a hybrid layout memory is v1's), allocating
# 256 MiB; set HOG_PID and HOG_STATUS (137 when the OOM killer took it).
# It runs as user HOG_UID with oom_score_adj HOG_ADJ: values that a field
# left zero cannot pass for.
HOG_UID=4242 HOG_ADJ=250
hog() {
	local out=$BATS_TEST_TMPDIR/hog
	HOG_STATUS=0
	sh -c 'echo $$ >"$1/cgroup.procs" &&
		{ [ -z "$4" ] || echo $$ >"$4/cgroup.procs"; } &&
		echo "$6" >/proc/self/oom_score_adj &&
		exec setpriv --reuid="$5" --regid="$5" --clear-groups \
			"$2" "$3" 256' sh "$CG" "$HELPERS/oom-hog" "$1" "${2:-}" \
		"$HOG_UID" "$HOG_ADJ" >"$out" || HOG_STATUS=$?
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
	# The victim ran as HOG_UID with oom_score_adj HOG_ADJ; it had mapped
	# 256 MiB (and its binary and libc: less than 64 MiB more), and
	# touched more than a few MiB of it when the 32 MiB limit stopped it.
	read -r pid c uid total rss adj tpid tcomm < <(awk -v p="$HOG_PID" '$1 == p' "$OUT")
	[ "$c" = "$comm" ]
	[ "$uid" = "$HOG_UID" ]
	[ "$adj" = "$HOG_ADJ" ]
	[ "$total" -ge $((256 * 1024)) ]
	[ "$total" -lt $((320 * 1024)) ]
	[ "$rss" -ge 4096 ]
	# The cgroup's only task hit the limit, so it ran the OOM killer.
	[ "$tpid" = "$HOG_PID" ]
	[ "$tcomm" = "$comm" ]
	grep -Eq '^oomkill: 1 events, 0 lost$' "$ERR"
}

@test "oomkill: -j carries the victim's fields and the trigger's" {
	start_tool oomkill -j
	comm=$(unique_comm)
	hog "$comm"
	[ "$HOG_STATUS" = 137 ]
	wait_for "$OUT" "\"pid\":$HOG_PID," 10
	stop_tool
	jq -es --argjson p "$HOG_PID" --arg c "$comm" --argjson u "$HOG_UID" \
		--argjson a "$HOG_ADJ" '
		map(select(.pid == $p)) | length == 1 and
		(.[0] | .comm == $c and .uid == $u and .oom_score_adj == $a and
			.total_vm_kb >= 256 * 1024 and .total_vm_kb < 320 * 1024 and
			.anon_rss_kb + .file_rss_kb + .shmem_rss_kb >= 4096 and
			.trigger_pid == $p and .trigger_comm == $c and
			(.from_task | type) == "boolean")
	' "$OUT"
}

@test "oomkill: where mark_victim lacks the victim's fields, they come from its task" {
	# A copy of this kernel's BTF with __data_loc_comm renamed (one string
	# for every record that has it; none on kernels whose record lacks it
	# already): CO-RE finds a record of the pid alone, as before 6.9, and the
	# victim's comm, uid, memory (mm->rss_stat in this kernel's shape)
	# and oom_score_adj are read from its task, the one the OOM killer
	# sent SIGKILL.
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF to edit"
	btf=$BATS_TEST_TMPDIR/old.btf
	python3 - /sys/kernel/btf/vmlinux "$btf" <<-'PY'
		import sys
		data = open(sys.argv[1], "rb").read()
		old, new = b"\0__data_loc_comm\0", b"\0__data_loc_xomm\0"
		assert data.count(old) <= 1
		open(sys.argv[2], "wb").write(data.replace(old, new))
	PY
	start_tool oomkill -j --btf "$btf"
	comm=$(unique_comm)
	hog "$comm"
	[ "$HOG_STATUS" = 137 ]
	wait_for "$OUT" "\"pid\":$HOG_PID," 10
	stop_tool
	jq -es --argjson p "$HOG_PID" --arg c "$comm" --argjson u "$HOG_UID" \
		--argjson a "$HOG_ADJ" '
		map(select(.pid == $p)) | length == 1 and
		(.[0] | .from_task and .comm == $c and .uid == $u and
			.oom_score_adj == $a and .total_vm_kb >= 256 * 1024 and
			.anon_rss_kb + .file_rss_kb + .shmem_rss_kb >= 4096 and
			.anon_rss_kb <= 64 * 1024 and .trigger_pid == $p)
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

@test "oomkill: --cgroup selects by the triggering task's cgroup v2 subtree" {
	local v2 top empty
	v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$v2" ] || skip "no cgroup v2 hierarchy mounted"
	# Where v2 holds memory, CG is v2's and its limit holds below it too.
	if [[ $CG == "$v2"/* ]]; then
		top=$CG
	else
		top=$v2/bpfkit-oomcg-$$-$BATS_TEST_NUMBER
		mkdir "$top"
		TOP_CG=$top
	fi
	CHILD_CG=$top/child
	mkdir "$CHILD_CG"
	# An instance on a cgroup the hog is not in sees nothing of it.
	empty=$top-empty
	mkdir "$empty"
	"$BIN/oomkill" --cgroup "$empty" >"$BATS_TEST_TMPDIR/c.out" \
		2>"$BATS_TEST_TMPDIR/c.err" &
	FILTERED_PID=$!
	wait_for "$BATS_TEST_TMPDIR/c.err" 'tracing; hit Ctrl-C to end' 20
	start_tool oomkill --cgroup "$top"
	comm=$(unique_comm)
	hog "$comm" "$CHILD_CG"
	[ "$HOG_STATUS" = 137 ]
	wait_for "$OUT" "^$HOG_PID +$comm " 10
	stop_tool
	kill -INT "$FILTERED_PID"
	wait "$FILTERED_PID"
	FILTERED_PID=
	rmdir "$empty"
	[ "$TOOL_STATUS" = 0 ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/c.out")" = 1 ]
	grep -Eq '^oomkill: 0 events, 0 lost$' "$BATS_TEST_TMPDIR/c.err"
}

@test "oomkill: a bad option exits 2 with one line and no output" {
	run --separate-stderr "$BIN/oomkill" --ringbuf
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$(wc -l <<<"$stderr")" = 1 ]
}
