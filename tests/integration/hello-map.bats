#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hello-map: a fresh uid makes an exact number of syscalls, and the map
# counts exactly that many.

load helpers

setup() {
	require_root
	# A uid no one else uses, so its counts are ours alone.
	uid=$((50000 + RANDOM % 10000))
}

# calls SYSCALL N: make N calls of SYSCALL as $uid.
calls() {
	"$HELPERS/hello-calls" "$uid" "$1" "$2"
}

# last KEY: the last count printed for KEY ("ID <uid>" or a syscall name).
last() {
	sed -n "s/^$1: //p" "$OUT" | tail -1
}

@test "hello-map: execs of a uid are counted exactly" {
	start_tool hello-map -i 1
	calls execve 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ "$(last "ID $uid")" = 5 ]
}

@test "hello-map: -u counts that uid only" {
	start_tool hello-map -u "$uid"
	calls execve 3
	/bin/true
	stop_tool
	[ "$(last "ID $uid")" = 3 ]
	refute grep -Ev "^(ID $uid: [0-9]+)?\$" "$OUT"
}

@test "hello-map: --by-syscall counts every syscall by name" {
	start_tool hello-map --by-syscall -u "$uid"
	calls getppid 10
	stop_tool
	[ "$(last getppid)" = 10 ]
	[ "$(last exit_group)" = 1 ]
	refute grep -q '^ID ' "$OUT"
}

@test "hello-map: --all-syscalls counts every syscall of the uid" {
	start_tool hello-map --all-syscalls -u "$uid"
	calls getppid 100
	stop_tool
	[ "$(last "ID $uid")" -ge 100 ]
}

@test "hello-map: --syscalls sums the named syscalls only" {
	start_tool hello-map --syscalls openat,write -u "$uid"
	calls openat 7
	calls write 5
	calls getppid 9
	stop_tool
	[ "$(last "ID $uid")" = 12 ]
}

@test "hello-map: --syscalls with --by-syscall counts each one" {
	start_tool hello-map --syscalls execve,openat,write --by-syscall \
		-u "$uid"
	calls openat 7
	calls write 5
	stop_tool
	[ "$(last openat)" = 7 ]
	[ "$(last write)" = 5 ]
	refute grep -q '^execve: ' "$OUT"
}

@test "hello-map: -j prints one object per interval" {
	start_tool hello-map -j -i 1
	calls execve 4
	wait_for "$OUT" "\"$uid\":4[,}]" 5
	stop_tool
	jq -es --arg u "$uid" 'length >= 2 and .[-1][$u] == 4 and
		all(.[]; type == "object")' "$OUT"
}

@test "hello-map: bad --syscalls and --interval are usage errors" {
	run "$BIN/hello-map" --syscalls execve,nosuchcall
	[ "$status" = 2 ]
	[ "$output" = "hello-map: invalid --syscalls: unknown syscall 'nosuchcall'" ]
	run "$BIN/hello-map" --syscalls write --all-syscalls
	[ "$status" = 2 ]
	[ "${#lines[@]}" = 1 ]
	run "$BIN/hello-map" -i 0
	[ "$status" = 2 ]
	[[ "$output" == "hello-map: invalid -i/--interval '0'"* ]]
}
