#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hello-attach: the same execve, "<pid> <uid> <command> <attach> <path>",
# from each of six attach types, or a one-line refusal where this kernel
# lacks the type (kprobes and BPF trampolines: tested in a guest kernel).

load helpers

bats_require_minimum_version 1.5.0 # run --separate-stderr

setup() {
	require_root
}

# exec_as UID COMM: exec /bin/true as UID with command name COMM; print pid.
exec_as() {
	setpriv --reuid="$1" --regid="$1" --clear-groups \
		"$HELPERS/execas" "$2" /bin/true
}

# attach_sees_exec TYPE: an exec by uid 65534 arrives tagged with TYPE.
attach_sees_exec() {
	start_tool hello-attach --attach="$1"
	comm=$(unique_comm)
	pid=$(exec_as 65534 "$comm")
	wait_for "$OUT" "^$pid 65534 $comm $1 /bin/true\$" 10
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(head -1 "$OUT")" = "PID UID COMMAND ATTACH PATH" ]
	[ "$(grep -c " $comm " "$OUT")" = 1 ]
}

# attach_refused TYPE LINE: --attach=TYPE exits 1 with just LINE on stderr.
attach_refused() {
	run --separate-stderr "$BIN/hello-attach" --attach="$1" -d 5
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

KPROBE_ERR='^hello-attach: kprobes are not available on this kernel \(CONFIG_KPROBES or CONFIG_KPROBE_EVENTS is not set\); use --attach=tracepoint$'
FENTRY_ERR='^hello-attach: fentry is not available on this kernel \(BPF trampolines refused: E[A-Z0-9]+\); use --attach=tracepoint or tp_btf$'

# The tool loads a trivial fentry program to decide; ask it the same.
fentry_refused() {
	"$BIN/hello-attach" --attach=fentry -d 0.1 2>&1 >/dev/null |
		grep -Eq "$FENTRY_ERR"
}

@test "hello-attach: --attach=tracepoint sees an exec" {
	attach_sees_exec tracepoint
}

@test "hello-attach: --attach=raw_tp sees an exec" {
	attach_sees_exec raw_tp
}

@test "hello-attach: --attach=tp_btf sees an exec" {
	attach_sees_exec tp_btf
}

@test "hello-attach: --attach=ksyscall sees an exec" {
	kprobes_available ||
		skip "kprobes are not available on this kernel (CONFIG_KPROBES off)"
	attach_sees_exec ksyscall
}

@test "hello-attach: --attach=kprobe sees an exec" {
	kprobes_available ||
		skip "kprobes are not available on this kernel (CONFIG_KPROBES off)"
	attach_sees_exec kprobe
}

@test "hello-attach: --attach=fentry sees an exec" {
	! fentry_refused ||
		skip "fentry is not available on this kernel (BPF trampolines refused)"
	attach_sees_exec fentry
}

@test "hello-attach: without kprobes, ksyscall and kprobe fail in one line" {
	! kprobes_available || skip "kprobes are available on this kernel"
	attach_refused ksyscall "$KPROBE_ERR"
	attach_refused kprobe "$KPROBE_ERR"
}

@test "hello-attach: without trampolines, fentry fails in one line" {
	fentry_refused || skip "fentry works on this kernel"
	attach_refused fentry "$FENTRY_ERR"
}

# auto_takes_tracepoint ARG...: with ARG..., an exec comes from the tracepoint.
auto_takes_tracepoint() {
	start_tool hello-attach -j "$@"
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "\"command\":\"$comm\"" 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$pid" '
		map(select(.command == $c)) | length == 1 and
		(.[0] | .pid == $p and .uid == 0 and
		 .attach == "tracepoint" and .path == "/bin/true")' "$OUT"
}

@test "hello-attach: auto, the default, takes the tracepoint" {
	auto_takes_tracepoint
	auto_takes_tracepoint --attach=auto
}

@test "hello-attach: the path is execve's argument, as the caller wrote it" {
	start_tool hello-attach
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/sh -c true)
	wait_for "$OUT" "^$pid 0 $comm tracepoint /bin/sh\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

@test "hello-attach: an unknown --attach type is a usage error" {
	run --separate-stderr "$BIN/hello-attach" --attach=uprobe -d 1
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "$stderr" = "hello-attach: invalid --attach 'uprobe': expected auto, tracepoint, tp_btf, raw_tp, fentry, ksyscall or kprobe" ]
}
