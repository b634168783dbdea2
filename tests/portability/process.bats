#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, processes and files: each tool sees the exec, exit, signal,
# syscalls, opens, stats, mounts or OOM kill a helper makes, with the
# values the helper reports (pid, ppid, path, result, signal number and
# target, exact counts).

bats_require_minimum_version 1.5.0
load ../integration/helpers
load helpers

# exec_at ARG...: run exec-at; E_PID, E_PPID and E_TID from its line.
exec_at() {
	local line
	line=$("$HELPERS/exec-at" "$@") || true
	read -r E_PID E_PPID E_TID <<<"$line"
}

@test "hello: an exec's Hello World line with its pid" {
	comm=$(unique_comm)
	launch hello -c "$comm"
	pid=$("$HELPERS/execas" "$comm" /nonexistent 2>/dev/null) || true
	await "$OUT" "^.+-$pid +\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: Hello World\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "hello-buffer: an exec's pid, uid and command (perf buffer)" {
	comm=$(unique_comm)
	launch hello-buffer -j
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	await "$OUT" "\"command\":\"$comm\"" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --arg c "$comm" --argjson p "$pid" '
		map(select(.command == $c)) | length == 1 and
		(.[0] | .pid == $p and .uid == 0 and .message == "Hello World")'
}

@test "hello-config: root's -m greeting and nobody's pid parity (perf buffer)" {
	comm=$(unique_comm)
	launch hello-config -j -c "$comm" -m 0=Hey --even-odd
	root=$("$HELPERS/execas" "$comm" /bin/true)
	nobody=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HELPERS/execas" "$comm" /bin/true)
	await "$OUT" "\"pid\":$nobody," 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	parity=$( ((nobody % 2)) && echo Odd || echo Even)
	check_out --argjson r "$root" --argjson n "$nobody" --arg m "$parity pid" '
		map(select(.pid)) | length == 2 and
		any(.pid == $r and .uid == 0 and .message == "Hey") and
		any(.pid == $n and .uid == 65534 and .message == $m)'
}

@test "hello-attach: an exec's path from each attach type this kernel has" {
	local type
	for type in tracepoint tp_btf raw_tp fentry ksyscall kprobe; do
		comm=$(unique_comm)
		launch hello-attach -j -c "$comm" --attach="$type"
		pid=$("$HELPERS/execas" "$comm" /bin/true)
		await "$OUT" "\"pid\":$pid," 5
		stop_tool
		[ "$TOOL_STATUS" = 0 ]
		check_out --argjson p "$pid" --arg t "$type" '
			map(select(.pid)) | length == 1 and
			(.[0] | .pid == $p and .uid == 0 and .attach == $t and
			 .path == "/bin/true")'
	done
}

@test "hello-map: 4 execs of a fresh uid counted exactly" {
	uid=$((50000 + RANDOM % 10000))
	launch hello-map -j -i 1
	"$HELPERS/hello-calls" "$uid" execve 4
	await "$OUT" "\"$uid\":4[,}]" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --arg u "$uid" '.[-1][$u] == 4'
}

@test "hello-tail: timer syscalls and an exec by tail call, in order (ring buffer)" {
	comm=$(unique_comm)
	launch hello-tail -j -c "$comm" --ringbuf
	pid=$("$HELPERS/hello-timers" "$comm" </dev/null)
	await "$OUT" '"message":"Executing a program"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --arg c "$comm" --argjson p "$pid" '
		map(select(.comm == $c)) | length == 4 and
		all(.pid == $p and .uid == 0) and
		map(.syscall) == ["timer_create", "timer_settime",
				  "timer_delete", "execve"] and
		.[0].nr == 222'
}

@test "execsnoop: an execveat's pid, ppid, path and arguments (#31: 6.1-rt's longer trace_entry)" {
	launch execsnoop -j
	exec_at /bin/true true "a b" port
	await "$OUT" "\"pid\":$E_PID," 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$E_PID" --argjson pp "$E_PPID" '
		map(select(.pid == $p and .syscall == "execveat")) |
		length == 1 and (.[0] | .ppid == $pp and .tid == $p and
		.uid == 0 and .comm == "true" and .ret == 0 and
		.path == "/bin/true" and .args == ["true", "a b", "port"])'
}

@test "exitsnoop: exit code 42 and a SIGKILL death with pid and ppid" {
	comm=$(unique_comm)
	launch exitsnoop -j -c "$comm"
	read -r coded coded_ppid _ < <("$HELPERS/exit-with" "$comm" code 42)
	read -r killed killed_ppid _ < <("$HELPERS/exit-with" "$comm" signal 9)
	await "$OUT" "\"pid\":$killed," 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$coded" --argjson pp "$coded_ppid" '
		map(select(.pid == $p)) | length == 1 and
		(.[0] | .ppid == $pp and .exit_code == 42 and .signal == 0)'
	check_out --argjson p "$killed" --argjson pp "$killed_ppid" '
		map(select(.pid == $p)) | length == 1 and
		(.[0] | .ppid == $pp and .signal == 9 and .signal_name == "KILL")'
}

@test "sigsnoop: a USR1 sent by kill(2): its number, sender, target and DELIVERED (#31: 6.1-rt's longer trace_entry)" {
	tcomm=$(unique_comm)
	"$HELPERS/sig-trigger" "$tcomm" wait >"$BATS_TEST_TMPDIR/target" &
	JOBS+=" $!"
	await "$BATS_TEST_TMPDIR/target" '^[0-9]+$' 5
	target=$(head -1 "$BATS_TEST_TMPDIR/target")
	scomm=$(unique_comm)
	launch sigsnoop -j
	run "$HELPERS/sig-trigger" "$scomm" kill "$target" 10
	[ "$status" = 0 ]
	[ "${lines[1]}" = 0 ]
	sender=${lines[0]}
	await "$OUT" "\"comm\":\"$scomm\"" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --arg c "$scomm" --argjson p "$sender" --argjson t "$target" \
		--arg tc "$tcomm" '
		map(select(.comm == $c and .kill)) | length == 1 and
		(.[0] | .pid == $p and .sig == 10 and .signal == "USR1" and
			.tpid == $t and .tcomm == $tc and
			.result == "DELIVERED" and .errno == 0)'
}

@test "syscount: exactly 300 getppid calls (#31: 6.1-rt's longer trace_entry)" {
	comm=$(unique_comm)
	touch "$BATS_TEST_TMPDIR/go"
	launch syscount -j -L -c "$comm" -s getppid
	"$HELPERS/sysc-trigger" "$comm" "$BATS_TEST_TMPDIR/go" 300 >/dev/null
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out '.[0].syscalls | length == 1 and
		(.[0] | .name == "getppid" and .count == 300 and .total_ns > 0)'
}

@test "opensnoop: an open's path and fd, a missing file's ENOENT" {
	file=$BATS_TEST_TMPDIR/file-$RANDOM
	missing=$BATS_TEST_TMPDIR/missing-$RANDOM
	: >"$file"
	comm=$(unique_comm)
	launch opensnoop -j -c "$comm"
	run "$HELPERS/open-trigger" "$comm" - "$file" "$missing"
	pid=${lines[0]} fd=${lines[1]}
	[ "${lines[2]}" = -2 ]
	await "$OUT" "\"path\":\"$missing\"" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$pid" --argjson fd "$fd" --arg f "$file" \
		--arg m "$missing" '
		map(select(.pid == $p)) | length == 2 and
		(.[0] | .fd == $fd and .errno == 0 and .path == $f) and
		(.[1] | .fd == -1 and .errno == 2 and .path == $m)'
}

@test "statsnoop: a stat's path and 0, a missing file's ENOENT" {
	file=$BATS_TEST_TMPDIR/file-$RANDOM
	missing=$BATS_TEST_TMPDIR/missing-$RANDOM
	: >"$file"
	comm=$(unique_comm)
	launch statsnoop -j -c "$comm"
	run "$HELPERS/stat-trigger" "$comm" "$file" "$missing"
	pid=${lines[0]}
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]}" = -2 ]
	await "$OUT" "\"path\":\"$missing\"" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$pid" --arg f "$file" --arg m "$missing" '
		map(select(.pid == $p and (.path == $f or .path == $m))) |
		length == 2 and (.[0] | .ret == 0 and .path == $f) and
		(.[1] | .ret == -1 and .errno == 2 and .path == $m)'
}

@test "mountsnoop: a tmpfs mount, its umount and a failed mount, with target and result" {
	dir=$BATS_TEST_TMPDIR/mnt
	mkdir "$dir"
	comm=$(unique_comm)
	launch mountsnoop -j -c "$comm"
	run unshare -m --propagation private "$HELPERS/mount-trigger" "$comm" "$dir"
	[ "$status" = 0 ]
	pid=${lines[0]}
	[ "${lines[1]}" = "mount 0" ]
	[ "${lines[3]}" = "mount -22" ]
	await "$OUT" '"size=bogus"' 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$pid" --arg d "$dir" '
		map(select(.pid == $p and .syscall == "mount")) | length == 2 and
		(.[0] | .ret == 0 and .target == $d and .fstype == "tmpfs" and
			.data == "size=1m") and
		(.[1] | .ret == -1 and .errno == 22 and .target == $d and
			.data == "size=bogus")'
	check_out --argjson p "$pid" --arg d "$dir" '
		map(select(.pid == $p and .syscall == "umount2")) | length >= 1 and
		all(.target == $d and .ret == 0)'
}

@test "oomkill: the victim of a cgroup's OOM kill, by pid and comm" {
	v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	grep -qw memory "$v2/cgroup.controllers" 2>/dev/null ||
		skip "no cgroup v2 with the memory controller"
	grep -qw memory "$v2/cgroup.subtree_control" ||
		echo +memory >"$v2/cgroup.subtree_control"
	CG=$v2/bpfkit-portability-$$
	mkdir "$CG"
	echo 32M >"$CG/memory.max"
	[ ! -e "$CG/memory.swap.max" ] || echo 0 >"$CG/memory.swap.max"
	comm=$(unique_comm)
	launch oomkill -j
	status=0
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3" 256' sh "$CG" \
		"$HELPERS/oom-hog" "$comm" >"$BATS_TEST_TMPDIR/hog" || status=$?
	[ "$status" = 137 ]
	hog=$(head -1 "$BATS_TEST_TMPDIR/hog")
	await "$OUT" "\"pid\":$hog," 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_out --argjson p "$hog" --arg c "$comm" '
		map(select(.pid == $p)) | length == 1 and
		(.[0] | .comm == $c and .uid == 0 and
			.total_vm_kb >= 256 * 1024 and
			.trigger_pid == $p and .trigger_comm == $c)'
}
