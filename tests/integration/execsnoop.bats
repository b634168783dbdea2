#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# execsnoop: execve and execveat with pid, ppid, result and arguments.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	require_root
}

# exec_at ARG...: run $HELPERS/exec-at; set E_PID, E_PPID and E_TID from its line.
exec_at() {
	local line
	line=$("$HELPERS/exec-at" "$@") || true
	read -r E_PID E_PPID E_TID <<<"$line"
}

# A copy of /bin/true under a unique name, so its comm is unique too.
unique_true() {
	COMM=$(unique_comm)
	cp /bin/true "$BATS_TEST_TMPDIR/$COMM"
	TRUE=$BATS_TEST_TMPDIR/$COMM
}

@test "execsnoop: an execveat shows its path, arguments and ppid" {
	start_tool execsnoop
	exec_at /bin/true true "a b" 'c"d' "e'f"
	wait_for "$OUT" "^true +$E_PID +$E_PPID +0 +/bin/true a b c\"d e'f\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PCOMM +PID +PPID +RET +ARGS$'
}

@test "execsnoop: -q quotes each argument" {
	start_tool execsnoop -q
	exec_at /bin/true true "a b" 'c"d'
	wait_for "$OUT" "^true +$E_PID +$E_PPID +0 +\"/bin/true\" \"a b\" \"c\\\\\"d\"\$" 5
	stop_tool
}

@test "execsnoop: -j gives every field of an execveat as JSON" {
	start_tool execsnoop -j
	exec_at /bin/true true "a b" 'c"d' "e'f"
	wait_for "$OUT" "\"pid\":$E_PID,\"tid\":$E_PID,\"ppid\":$E_PPID" 5
	stop_tool
	jq -es --argjson p "$E_PID" --argjson pp "$E_PPID" '
		map(select(.pid == $p and .syscall == "execveat")) |
		length == 1 and (.[0] | .ppid == $pp and .tid == $p and
		.uid == 0 and .comm == "true" and .ret == 0 and
		(has("errno") | not) and .fd == -100 and
		.path == "/bin/true" and .fd_path == false and
		.args == ["true", "a b", "c\"d", "e'"'"'f"] and
		.truncated == false)' "$OUT"
}

@test "execsnoop: fexecve (empty path) names the file run by fd" {
	start_tool execsnoop -j
	exec_at -f /bin/true true fx
	wait_for "$OUT" "\"pid\":$E_PID,.*\"execveat\"|\"execveat\",\"pid\":$E_PID" 5
	stop_tool
	jq -es --argjson p "$E_PID" '
		map(select(.pid == $p and .syscall == "execveat")) |
		length == 1 and (.[0] | .fd >= 0 and .path == "true" and
		.fd_path == true and .args == ["true", "fx"])' "$OUT"
}

@test "execsnoop: an exec from a second thread is still seen" {
	start_tool execsnoop -j
	exec_at -t /bin/true true th
	wait_for "$OUT" "\"execveat\",\"pid\":$E_PID" 5
	stop_tool
	[ "$E_TID" != "$E_PID" ]
	jq -es --argjson p "$E_PID" --argjson t "$E_TID" '
		map(select(.pid == $p and .syscall == "execveat")) |
		length == 1 and .[0].tid == $t and .[0].args == ["true", "th"]
	' "$OUT"
}

@test "execsnoop: a failed exec shows ENOENT with -x only" {
	start_tool execsnoop -x -j
	exec_at /nonexistent/bk-nope nope x
	wait_for "$OUT" "\"pid\":$E_PID,.*\"errno\":\"ENOENT\"" 5
	stop_tool
	jq -es --argjson p "$E_PID" '
		map(select(.pid == $p and .syscall == "execveat")) |
		length == 1 and (.[0] | .ret == -2 and .errno == "ENOENT" and
		.comm == "exec-at" and .path == "/nonexistent/bk-nope")' "$OUT"

	start_tool execsnoop -x
	exec_at /nonexistent/bk-nope nope x
	wait_for "$OUT" "^exec-at +$E_PID +$E_PPID +ENOENT +/nonexistent/bk-nope x\$" 5
	stop_tool

	# Without -x it is left out; a later success proves the tool saw both.
	start_tool execsnoop
	exec_at /nonexistent/bk-nope nope x
	failed=$E_PID
	exec_at /bin/true true ok
	wait_for "$OUT" "^true +$E_PID .* /bin/true ok\$" 5
	stop_tool
	refute grep -Eq "^[^ ]+ +$failed .* ENOENT " "$OUT"
}

@test "execsnoop: ... marks exactly the execs with more than --max-args" {
	start_tool execsnoop --max-args 4 -j
	exec_at /bin/true true a b c
	exact=$E_PID
	exec_at /bin/true true a b c d
	wait_for "$OUT" "\"execveat\",\"pid\":$E_PID" 5
	stop_tool
	jq -es --argjson e "$exact" --argjson m "$E_PID" '
		map(select(.syscall == "execveat")) |
		(map(select(.pid == $e)) | length == 1 and
		 .[0].args == ["true", "a", "b", "c"] and
		 .[0].truncated == false) and
		(map(select(.pid == $m)) | length == 1 and
		 .[0].args == ["true", "a", "b", "c"] and
		 .[0].truncated == "max-args")' "$OUT"

	start_tool execsnoop --max-args 4
	exec_at /bin/true true a b c
	exact="$E_PID +$E_PPID"
	exec_at /bin/true true a b c d
	wait_for "$OUT" "^true +$E_PID +$E_PPID +0 +/bin/true a b c \\.\\.\\.\$" 5
	stop_tool
	grep -Eq "^true +$exact +0 +/bin/true a b c\$" "$OUT"
}

@test "execsnoop: --max-args 60 loads and keeps 60 arguments of a failed exec" {
	args=()
	for ((i = 0; i < 61; i++)); do
		args+=("a$i")
	done
	start_tool execsnoop --max-args 60 -x -j
	# Failed execs: argv is read at exit from the caller's memory.
	exec_at /nonexistent/bk-nope "${args[@]:0:60}"
	exact=$E_PID
	exec_at /nonexistent/bk-nope "${args[@]}"
	wait_for "$OUT" "\"execveat\",\"pid\":$E_PID" 5
	stop_tool
	want=$BATS_TEST_TMPDIR/want
	printf '%s\n' "${args[@]:0:60}" | jq -R . | jq -s . >"$want"
	jq -es --argjson e "$exact" --argjson m "$E_PID" --slurpfile w "$want" '
		map(select(.syscall == "execveat")) |
		(map(select(.pid == $e)) | length == 1 and
		 .[0].args == $w[0] and .[0].truncated == false) and
		(map(select(.pid == $m)) | length == 1 and
		 .[0].args == $w[0] and .[0].truncated == "max-args")' "$OUT"
}

@test "execsnoop: a 200-byte argument is whole, or cut to 127 and marked if the exec failed" {
	long=$(printf 'x%.0s' {1..200})
	start_tool execsnoop -x -j
	exec_at /bin/true true "$long"
	ok=$E_PID
	exec_at /nonexistent/bk-nope nope "$long"
	wait_for "$OUT" "\"execveat\",\"pid\":$E_PID" 5
	stop_tool
	jq -es --argjson p "$ok" --arg l "$long" '
		map(select(.pid == $p and .syscall == "execveat")) |
		.[0].truncated == false and .[0].args == ["true", $l]' "$OUT"
	jq -es --argjson p "$E_PID" '
		map(select(.pid == $p and .syscall == "execveat")) |
		.[0].truncated == "long-arg" and (.[0].args[1] | length) == 127
	' "$OUT"
}

@test "execsnoop: 20 arguments of 250 bytes, over two pages, arrive whole" {
	args=()
	for ((i = 0; i < 30; i++)); do
		args+=("$i-$(printf 'y%.0s' {1..247})")
	done
	start_tool execsnoop -j
	exec_at /bin/true "${args[@]:0:20}"
	all=$E_PID
	exec_at /bin/true "${args[@]}"
	wait_for "$OUT" "\"execveat\",\"pid\":$E_PID" 5
	stop_tool
	want=$BATS_TEST_TMPDIR/want
	printf '%s\n' "${args[@]:0:20}" | jq -R . | jq -s . >"$want"
	jq -es --argjson a "$all" --argjson p "$E_PID" --slurpfile w "$want" '
		map(select(.syscall == "execveat")) |
		(map(select(.pid == $a)) | length == 1 and
		 .[0].args == $w[0] and .[0].truncated == false) and
		(map(select(.pid == $p)) | length == 1 and
		 .[0].args == $w[0] and .[0].truncated == "max-args")' "$OUT"
}

@test "execsnoop: arguments not in memory at entry are read from the new image" {
	start_tool execsnoop -j
	line=$("$HELPERS/exec-unreadable" mapped /bin/true true "a b" c) || true
	read -r E_PID E_PPID <<<"$line"
	wait_for "$OUT" "\"execveat\",\"pid\":$E_PID" 5
	stop_tool
	jq -es --argjson p "$E_PID" '
		map(select(.pid == $p and .syscall == "execveat")) |
		length == 1 and .[0].args == ["true", "a b", "c"] and
		.[0].truncated == false' "$OUT"
}

@test "execsnoop: an exec whose argv or path cannot be read is marked" {
	start_tool execsnoop -x -j
	line=$("$HELPERS/exec-unreadable" bad-argv /bin/true true) || true
	read -r argv_pid _ <<<"$line"
	line=$("$HELPERS/exec-unreadable" bad-path /bin/true true) || true
	read -r E_PID E_PPID <<<"$line"
	wait_for "$OUT" "\"execveat\",\"pid\":$E_PID" 5
	stop_tool
	jq -es --argjson a "$argv_pid" --argjson p "$E_PID" '
		map(select(.syscall == "execveat")) |
		(map(select(.pid == $a)) | length == 1 and
		 (.[0] | .errno == "EFAULT" and .path == "/bin/true" and
		  .args == [] and .truncated == "args-unreadable")) and
		(map(select(.pid == $p)) | length == 1 and
		 (.[0] | .errno == "EFAULT" and .path == "" and
		  .fd_path == false and .args == ["true"] and
		  .truncated == "path-unreadable"))' "$OUT"

	start_tool execsnoop -x
	line=$("$HELPERS/exec-unreadable" bad-argv /bin/true true) || true
	read -r E_PID E_PPID <<<"$line"
	wait_for "$OUT" "^exec-unreadable +$E_PID +$E_PPID +EFAULT +/bin/true \\[args unreadable\\]\$" 5
	stop_tool
}

@test "execsnoop: -l matches the arguments, not the command name" {
	token=bk-l-$RANDOM$RANDOM
	start_tool execsnoop -l "$token"
	exec_at /bin/true true no-match
	excluded=$E_PID
	exec_at /bin/true true "pre-$token-post"
	wait_for "$OUT" "^true +$E_PID +$E_PPID +0 +/bin/true pre-$token-post\$" 5
	stop_tool
	refute grep -Eq "^true +$excluded " "$OUT"
}

@test "execsnoop: what -l leaves out is counted filtered, not as events" {
	token=bk-l-$RANDOM$RANDOM
	start_tool execsnoop -j -l "$token"
	exec_at /bin/true true no-match
	exec_at /bin/true true "pre-$token-post"
	wait_for "$OUT" "pre-$token-post" 5
	stop_tool
	jq -es '.[-1] as $s | map(select(.type == null)) |
		length == $s.events and $s.filtered >= 1 and
		$s.events + $s.filtered + $s.lost == $s.produced' "$OUT"
	grep -Eq '^execsnoop: [0-9]+ events, [0-9]+ lost.*, [1-9][0-9]* filtered$' "$ERR"
}

@test "execsnoop: -u and -U include the user's execs, exclude others" {
	start_tool execsnoop -u 65534 -U
	exec_at /bin/true true as-root
	excluded=$E_PID
	line=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HELPERS/exec-at" /bin/true true as-nobody)
	read -r E_PID E_PPID E_TID <<<"$line"
	wait_for "$OUT" "^65534 +true +$E_PID +$E_PPID +0 +/bin/true as-nobody\$" 5
	stop_tool
	refute grep -Eq " $excluded " "$OUT"
	head -1 "$OUT" | grep -Eq '^UID +PCOMM +PID +PPID +RET +ARGS$'
}

@test "execsnoop: -p includes the process, excludes others" {
	# A process that execs once told to (or after 10 s times TIME_SCALE,
	# if never told: the tool may take that long to start in the guest).
	go=$BATS_TEST_TMPDIR/go
	mkfifo "$go"
	(exec 3>&-; read -r -t $((10 * TIME_SCALE)) _ <>"$go"
	 exec "$HELPERS/exec-at" /bin/true true p-in >/dev/null) &
	target=$!
	start_tool execsnoop -p "$target"
	exec_at /bin/true true p-out
	echo go 1<>"$go"
	wait_for "$OUT" "^true +$target .* /bin/true p-in\$" 5
	stop_tool
	wait "$target" || true
	refute grep -q "p-out" "$OUT"
}

@test "execsnoop: -c (and -n) match the command name after the exec" {
	unique_true
	for opt in -c -n; do
		start_tool execsnoop "$opt" "$COMM"
		exec_at /bin/true true c-out
		exec_at "$TRUE" "$COMM" c-in
		wait_for "$OUT" "^$COMM +$E_PID +$E_PPID +0 +$TRUE c-in\$" 5
		stop_tool
		refute grep -q "c-out" "$OUT"
	done
}

@test "execsnoop: bad options name the problem and exit 2" {
	run --separate-stderr "$BIN/execsnoop" --max-args 0
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "execsnoop: invalid --max-args '0': expected a whole number from 1 to 60" ]
	run --separate-stderr "$BIN/execsnoop" --max-args 61
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "execsnoop: invalid --max-args '61': expected a whole number from 1 to 60" ]
	run --separate-stderr "$BIN/execsnoop" -l ""
	[ "$status" = 2 ]
	[ -z "$output" ]
	[[ "$stderr" == *"-l/--line"* ]]
}

@test "execsnoop: no map of its allocates at run time, so it cannot taint the kernel" {
	# A tracing program's map with BPF_F_NO_PREALLOC makes kernels
	# before Linux 6.1 print a WARNING and taint themselves (PREEMPT_RT
	# ones refuse it): execsnoop stages 280 bytes per exec, preallocated.
	start_tool execsnoop
	flags=$(awk '/^map_flags:/ { print $2 }' /proc/"$TOOL_PID"/fdinfo/*)
	stop_tool
	[ -n "$flags" ]
	for f in $flags; do
		[ $((f & 1)) = 0 ]
	done
}
