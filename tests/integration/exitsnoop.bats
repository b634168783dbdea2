#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# exitsnoop: process and thread exits with exit code or signal, pid, ppid.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	require_root
}

# exit_with COMM MODE [N]: run $HELPERS/exit-with; set X_PID, X_PPID, X_TID.
exit_with() {
	local line
	line=$("$HELPERS/exit-with" "$@") || true
	read -r X_PID X_PPID X_TID <<<"$line"
}

@test "exitsnoop: exit code 42 and a SIGKILL death, with pid and ppid" {
	start_tool exitsnoop
	comm=$(unique_comm)
	exit_with "$comm" code 42
	coded="$X_PID +$X_PPID +$X_PID"
	exit_with "$comm" signal 9
	wait_for "$OUT" "^$comm +$X_PID +$X_PPID +$X_PID +[0-9]+\\.[0-9]{3} signal 9 \\(KILL\\)\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -Eq "^$comm +$coded +[0-9]+\\.[0-9]{3} code 42\$" "$OUT"
	head -1 "$OUT" | grep -Eq '^PCOMM +PID +PPID +TID +AGE\(s\) +EXIT$'
}

@test "exitsnoop: -j gives every field as JSON" {
	start_tool exitsnoop -j
	comm=$(unique_comm)
	# The process starts and ends within these two times: its age too.
	t0=$(date +%s%N)
	exit_with "$comm" code 42
	t1=$(date +%s%N)
	coded=$X_PID coded_ppid=$X_PPID
	exit_with "$comm" signal 9
	wait_for "$OUT" "\"pid\":$X_PID," 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$coded" --argjson pp "$coded_ppid" \
		--argjson span $((t1 - t0)) '
		map(select(.comm == $c and .pid == $p)) | length == 1 and
		(.[0] | .tid == $p and .ppid == $pp and .uid == 0 and
		 .status == 10752 and .exit_code == 42 and .signal == 0 and
		 (has("signal_name") | not) and .core_dumped == false and
		 .age_ns > 0 and .age_ns <= $span)' "$OUT"
	jq -es --arg c "$comm" --argjson p "$X_PID" --argjson pp "$X_PPID" '
		map(select(.comm == $c and .pid == $p)) | length == 1 and
		(.[0] | .ppid == $pp and .status == 9 and .exit_code == 0 and
		 .signal == 9 and .signal_name == "KILL" and
		 .core_dumped == false)' "$OUT"
}

@test "exitsnoop: -x leaves out a zero exit" {
	start_tool exitsnoop -x
	comm=$(unique_comm)
	exit_with "$comm" code 0
	zero=$X_PID
	exit_with "$comm" code 3
	wait_for "$OUT" "^$comm +$X_PID .* code 3\$" 5
	stop_tool
	refute grep -Eq "^$comm +$zero " "$OUT"
}

@test "exitsnoop: a thread exit shows only with --threads" {
	start_tool exitsnoop --threads
	comm=$(unique_comm)
	exit_with "$comm" thread
	[ "$X_TID" != "$X_PID" ]
	wait_for "$OUT" "^$comm +$X_PID +$X_PPID +$X_PID +[0-9.]+ 0\$" 5
	stop_tool
	grep -Eq "^$comm +$X_PID +$X_PPID +$X_TID +[0-9.]+ 0\$" "$OUT"

	# Without --threads: one line, for the process.
	start_tool exitsnoop
	exit_with "$comm" thread
	wait_for "$OUT" "^$comm +$X_PID +$X_PPID +[0-9]+ +[0-9.]+ 0\$" 5
	stop_tool
	[ "$(grep -Ec "^$comm +$X_PID " "$OUT")" = 1 ]
}

@test "exitsnoop: threads that end together report their process once" {
	local i started=
	comm=$(unique_comm)
	start_tool exitsnoop -c "$comm"
	for ((i = 0; i < 100; i++)); do
		exit_with "$comm" group 5
		started+="$X_PID"$'\n'
	done
	wait_for "$OUT" "^$comm +$X_PID " 10
	stop_tool
	# 100 processes, one line each (pids may wrap on a busy machine, so
	# compare the pids as multisets), each with the exit code.
	[ "$(grep -c "^$comm " "$OUT")" = 100 ]
	[ "$(awk '$1 == c { print $2 }' c="$comm" "$OUT" | sort)" = \
		"$(printf '%s' "$started" | sort)" ]
	[ -z "$(awk '$1 == c && $NF != 5' c="$comm" "$OUT")" ]
}

@test "exitsnoop: a process is reported once, when its last thread exits" {
	# The main thread ends first; the second thread then exits with 7.
	start_tool exitsnoop -j
	comm=$(unique_comm)
	exit_with "$comm" leader-first 7
	wait_for "$OUT" "\"pid\":$X_PID," 5
	stop_tool
	[ "$X_TID" != "$X_PID" ]
	jq -es --argjson p "$X_PID" --argjson t "$X_TID" --argjson pp "$X_PPID" '
		map(select(.pid == $p)) | length == 1 and
		(.[0] | .tid == $t and .ppid == $pp and .exit_code == 7)' "$OUT"
}

@test "exitsnoop: -p, -u and -c include and exclude" {
	comm=$(unique_comm)
	other=$(unique_comm)x
	start_tool exitsnoop -c "$comm"
	exit_with "$other" code 5
	exit_with "$comm" code 6
	wait_for "$OUT" "^$comm +$X_PID .* code 6\$" 5
	stop_tool
	refute grep -q "code 5" "$OUT"

	start_tool exitsnoop -u 65534
	exit_with "$comm" code 5
	line=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HELPERS/exit-with" "$comm" code 6) || true
	read -r X_PID X_PPID X_TID <<<"$line"
	wait_for "$OUT" "^$comm +$X_PID +$X_PPID +$X_PID .* code 6\$" 5
	stop_tool
	refute grep -q "code 5" "$OUT"

	go=$BATS_TEST_TMPDIR/go
	mkfifo "$go"
	(exec 3>&-; read -r -t 10 _ <>"$go"; exit 8) &
	target=$!
	start_tool exitsnoop -p "$target"
	exit_with "$comm" code 5
	echo go 1<>"$go"
	wait "$target" || true
	wait_for "$OUT" "^[^ ]+ +$target .* code 8\$" 5
	stop_tool
	refute grep -q "code 5" "$OUT"
}

@test "exitsnoop: bad options name the problem and exit 2" {
	run --separate-stderr "$BIN/exitsnoop" --threads=3
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "exitsnoop: unknown option '--threads=3'; see 'exitsnoop --help'" ]
	run --separate-stderr "$BIN/exitsnoop" -p 0
	[ "$status" = 2 ]
	[ -z "$output" ]
	[[ "$stderr" == *"-p/--pid"* ]]
}

@test "exitsnoop: a --btf without the members it reads is refused in one line naming them" {
	# runqlat's minimized BTF has task_struct, but not its signal member.
	bpftool gen min_core_btf /sys/kernel/btf/vmlinux \
		"$BATS_TEST_TMPDIR/min.btf" "$BUILD/obj/bpf/runqlat.bpf.o" ||
		skip "no kernel BTF to minimize"
	run --separate-stderr "$BIN/exitsnoop" --btf "$BATS_TEST_TMPDIR/min.btf" -d 1
	[ "$status" = 1 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "exitsnoop: kernel BTF $BATS_TEST_TMPDIR/min.btf has no usable task_struct.signal (no CO-RE match): give this kernel's BTF with --btf FILE" ]]
}

@test "exitsnoop: --btf takes an ELF file's .BTF too, as libbpf does" {
	# An ELF file (its own object) whose .BTF is this kernel's: the
	# header's loads through the current task are checked against the
	# kernel's own types, so other types (vmlinux.h's) load only where
	# they match it.
	[ -r /sys/kernel/btf/vmlinux ] || skip "no kernel BTF"
	llvm-objcopy --update-section .BTF=/sys/kernel/btf/vmlinux \
		"$BUILD/obj/bpf/exitsnoop.bpf.o" "$BATS_TEST_TMPDIR/btf.o"
	run --separate-stderr "$BIN/exitsnoop" \
		--btf "$BATS_TEST_TMPDIR/btf.o" -d 0.5
	[ "$status" = 0 ]
	[[ $stderr == *"exitsnoop: tracing; hit Ctrl-C to end"* ]]
}
