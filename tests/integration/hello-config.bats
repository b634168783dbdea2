#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hello-config: hello-buffer's line, with the greeting user space sets: a
# user's own from -m (a BPF hash map), else by pid parity with --even-odd.

load helpers

bats_require_minimum_version 1.5.0 # run --separate-stderr

setup() {
	require_root
}

# run_usage ARG...: run hello-config expecting a one-line usage error.
run_usage() {
	run --separate-stderr "$BIN/hello-config" -d 1 "$@"
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
}

# exec_as UID COMM: exec /bin/true as UID with command name COMM; print pid.
exec_as() {
	setpriv --reuid="$1" --regid="$1" --clear-groups \
		"$HELPERS/execas" "$2" /bin/true
}

@test "hello-config: without settings, hello-buffer's lines under a header" {
	comm=$(unique_comm)
	start_tool hello-config -c "$comm"
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "^$pid 0 $comm Hello World\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(cat "$OUT")" = "PID UID COMMAND MESSAGE
$pid 0 $comm Hello World" ]
	grep -Eq '^hello-config: 1 events, 0 lost$' "$ERR"
}

@test "hello-config: -m greets each user with its own text, others as before" {
	start_tool hello-config -m 0="Hey root!" -m nobody=Hi-nobody
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

@test "hello-config: a later -m for the same user wins" {
	start_tool hello-config -m 0=first -m root=second -j
	comm=$(unique_comm)
	pid=$("$HELPERS/execas" "$comm" /bin/true)
	wait_for "$OUT" "\"command\":\"$comm\"" 5
	stop_tool
	jq -es --arg c "$comm" --argjson p "$pid" '
		map(select(.command == $c)) | length == 1 and
		(.[0] | .pid == $p and .uid == 0 and .message == "second")
	' "$OUT"
}

@test "hello-config: -m with 12 bytes of text is a usage error" {
	run_usage -m 0=123456789012
	[ "$stderr" = "hello-config: invalid -m/--message '0=123456789012': TEXT must be 1 to 11 bytes, not 12" ]
}

@test "hello-config: -m with a bad uid, no text or no '=' is a usage error" {
	run_usage -m no-such-user-hb=hi
	[[ "$stderr" == *"-m/--message UID 'no-such-user-hb': no such user"* ]]
	run_usage -m 12x=hi
	[[ "$stderr" == *"-m/--message UID '12x'"* ]]
	run_usage -m 0=
	[[ "$stderr" == *"TEXT must be 1 to 11 bytes, not 0" ]]
	run_usage -m 0
	[[ "$stderr" == *"'0': expected UID=TEXT" ]]
}

@test "hello-config: more than 64 users for -m is a usage error" {
	local args=() i
	for ((i = 0; i <= 64; i++)); do
		args+=(-m "$((10000 + i))=hi")
	done
	run_usage "${args[@]}"
	[ "$stderr" = "hello-config: too many -m/--message: at most 64 users" ]
}

@test "hello-config: --even-odd greets by pid parity; -m still wins" {
	start_tool hello-config --even-odd -m 0=Root
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
	[ "$even" -gt 0 ]
	[ "$odd" -gt 0 ]
	refute grep -q " $comm Hello World\$" "$OUT"
}
