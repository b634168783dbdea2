#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hello-buffer: each execve arrives as "<pid> <uid> <command> Hello World".

load helpers

bats_require_minimum_version 1.5.0 # run --separate-stderr

setup() {
	require_root
}

@test "hello-buffer: an exec arrives with its pid, uid and command" {
	start_tool hello-buffer
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm Hello World\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	grep -Eq '^hello-buffer: [0-9]+ events, 0 lost$' "$ERR"
}

@test "hello-buffer: an exec by another uid carries that uid" {
	start_tool hello-buffer
	comm=$(unique_comm)
	pid=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 65534 $comm Hello World\$" 5
	stop_tool
}

@test "hello-buffer: the ring buffer delivers the same line" {
	start_tool hello-buffer --ringbuf
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm Hello World\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "hello-buffer: -j prints valid JSON with the same fields" {
	start_tool hello-buffer -j
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "\"command\":\"$comm\"" 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$pid" '
		map(select(.command == $c)) | length == 1 and
		(.[0] | .pid == $p and .uid == 0 and .message == "Hello World")
	' "$OUT"
	jq -es 'map(select(.type == "summary")) | length == 1 and
		.[0].events >= 1 and .[0].lost == 0' "$OUT"
}

@test "hello-buffer: --duration stops it with status 0" {
	run "$BIN/hello-buffer" -d 0.5
	[ "$status" = 0 ]
	[[ "$output" == *"events, 0 lost"* ]]
}

# --- -m/--message, --even-odd, the path field ---------------------------

# run_usage ARG...: run hello-buffer expecting a one-line usage error.
run_usage() {
	run --separate-stderr "$BIN/hello-buffer" "$@"
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
}

# exec_as UID COMM: exec /bin/true as UID with command name COMM; print pid.
exec_as() {
	setpriv --reuid="$1" --regid="$1" --clear-groups \
		"$HELPERS/execas" "$2" /bin/true
}

@test "hello-buffer: the seed's plain lines have no header; -T adds one" {
	comm=$(unique_comm)
	start_tool hello-buffer -c "$comm"
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm Hello World\$" 5
	stop_tool
	[ "$(cat "$OUT")" = "$pid 0 $comm Hello World" ]
	start_tool hello-buffer -T
	stop_tool
	[ "$(head -1 "$OUT")" = "TIME     PID UID COMMAND MESSAGE" ]
}

@test "hello-buffer: -m greets each user with its own text, others as before" {
	start_tool hello-buffer -m 0="Hey root!" -m nobody=Hi-nobody
	comm=$(unique_comm)
	root=$("$HELPERS/execas" "$comm" /bin/true)
	nobody=$(exec_as 65534 "$comm")
	other=$(exec_as 1000 "$comm")
	wait_for "$OUT" "^$root 0 $comm Hey root!\$" 5
	wait_for "$OUT" "^$nobody 65534 $comm Hi-nobody\$" 5
	wait_for "$OUT" "^$other 1000 $comm Hello World\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(grep -c " $comm " "$OUT")" = 3 ]
}

@test "hello-buffer: -m with 12 bytes of text is a usage error" {
	run_usage -m 0=123456789012
	[ "$stderr" = "hello-buffer: invalid -m/--message '0=123456789012': TEXT must be 1 to 11 bytes, not 12" ]
}

@test "hello-buffer: -m with a bad uid, no text or no '=' is a usage error" {
	run_usage -m no-such-user-hb=hi
	[[ "$stderr" == *"-m/--message UID 'no-such-user-hb': no such user"* ]]
	run_usage -m 12x=hi
	[[ "$stderr" == *"-m/--message UID '12x'"* ]]
	run_usage -m 0=
	[[ "$stderr" == *"TEXT must be 1 to 11 bytes, not 0" ]]
	run_usage -m 0
	[[ "$stderr" == *"'0': expected UID=TEXT" ]]
}

@test "hello-buffer: --even-odd greets by pid parity; -m still wins" {
	start_tool hello-buffer --even-odd -m 0=Root
	comm=$(unique_comm)
	even=0 odd=0
	for ((i = 0; i < 40 && (even == 0 || odd == 0); i++)); do
		pid=$(exec_as 65534 "$comm")
		if ((pid % 2)); then
			msg="Odd pid" odd=$((odd + 1))
		else
			msg="Even pid" even=$((even + 1))
		fi
		wait_for "$OUT" "^$pid 65534 $comm $msg\$" 5
	done
	root=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$root 0 $comm Root\$" 5
	stop_tool
	((even > 0 && odd > 0))
	refute grep -q " $comm Hello World\$" "$OUT"
}

@test "hello-buffer: JSON carries the exec'd path and the attach type" {
	start_tool hello-buffer -j
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "\"command\":\"$comm\"" 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$pid" '
		map(select(.command == $c)) | length == 1 and
		(.[0] | .pid == $p and .uid == 0 and .message == "Hello World"
		 and .path == "/bin/true" and .attach == "tracepoint")
	' "$OUT"
}

@test "hello-buffer: -P adds the path as the last column" {
	start_tool hello-buffer -P
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/sh -c true)
	wait_for "$OUT" "^$pid 0 $comm Hello World /bin/sh\$" 5
	stop_tool
	[ "$(head -1 "$OUT")" = "PID UID COMMAND MESSAGE PATH" ]
}

# --- --attach: the same event from every attach type --------------------

# attach_sees_exec TYPE: an exec by uid 65534 arrives tagged with TYPE.
attach_sees_exec() {
	start_tool hello-buffer --attach="$1" -P
	comm=$(unique_comm)
	pid=$(exec_as 65534 "$comm")
	wait_for "$OUT" "^$pid 65534 $comm Hello World $1 /bin/true\$" 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(head -1 "$OUT")" = "PID UID COMMAND MESSAGE ATTACH PATH" ]
	[ "$(grep -c " $comm " "$OUT")" = 1 ]
}

# attach_refused TYPE LINE: --attach=TYPE exits 1 with just LINE on stderr.
attach_refused() {
	run --separate-stderr "$BIN/hello-buffer" --attach="$1" -d 5
	[ "$status" = 1 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ "$stderr" =~ $2 ]]
}

# The checks the tool makes: a kprobe PMU or tracefs kprobe_events.
kprobes_available() {
	[ -e /sys/bus/event_source/devices/kprobe/type ] ||
		[ -w /sys/kernel/tracing/kprobe_events ] ||
		[ -w /sys/kernel/debug/tracing/kprobe_events ]
}

KPROBE_ERR='^hello-buffer: kprobes are not available on this kernel \(CONFIG_KPROBES or CONFIG_KPROBE_EVENTS is not set\); use --attach=tracepoint$'
FENTRY_ERR='^hello-buffer: fentry is not available on this kernel \(BPF trampolines refused: E[A-Z0-9]+\); use --attach=tracepoint or tp_btf$'

# The tool loads a trivial fentry program to decide; ask it the same.
fentry_refused() {
	"$BIN/hello-buffer" --attach=fentry -d 0.1 2>&1 >/dev/null |
		grep -Eq "$FENTRY_ERR"
}

@test "hello-buffer: --attach=tracepoint sees an exec" {
	attach_sees_exec tracepoint
}

@test "hello-buffer: --attach=raw_tp sees an exec" {
	attach_sees_exec raw_tp
}

@test "hello-buffer: --attach=tp_btf sees an exec" {
	attach_sees_exec tp_btf
}

@test "hello-buffer: --attach=ksyscall sees an exec" {
	kprobes_available ||
		skip "kprobes are not available on this kernel (CONFIG_KPROBES off)"
	attach_sees_exec ksyscall
}

@test "hello-buffer: --attach=kprobe sees an exec" {
	kprobes_available ||
		skip "kprobes are not available on this kernel (CONFIG_KPROBES off)"
	attach_sees_exec kprobe
}

@test "hello-buffer: --attach=fentry sees an exec" {
	! fentry_refused ||
		skip "fentry is not available on this kernel (BPF trampolines refused)"
	attach_sees_exec fentry
}

@test "hello-buffer: without kprobes, ksyscall and kprobe fail in one line" {
	! kprobes_available || skip "kprobes are available on this kernel"
	attach_refused ksyscall "$KPROBE_ERR"
	attach_refused kprobe "$KPROBE_ERR"
}

@test "hello-buffer: without trampolines, fentry fails in one line" {
	fentry_refused || skip "fentry works on this kernel"
	attach_refused fentry "$FENTRY_ERR"
}

@test "hello-buffer: --attach=auto takes the tracepoint and adds no column" {
	start_tool hello-buffer --attach=auto -j
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "\"command\":\"$comm\"" 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$pid" '
		map(select(.command == $c)) | length == 1 and
		.[0].pid == $p and .[0].attach == "tracepoint"' "$OUT"
}

@test "hello-buffer: an unknown --attach type is a usage error" {
	run_usage --attach=uprobe
	[[ "$stderr" == *"invalid --attach 'uprobe': expected auto, tracepoint,"* ]]
}
