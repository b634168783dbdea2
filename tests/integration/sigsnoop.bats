#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# sigsnoop: signals between controlled processes arrive with sender, signal,
# target and result; -s, -k, -x and -j behave.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	SIG=$HELPERS/sig-trigger
	TARGETS=
}

# target VAR [IGNSIG]: start a waiting target with a unique comm; set VAR to
# its pid and VAR_COMM to its comm.
target() {
	local comm out=$BATS_TEST_TMPDIR/$1
	comm=$(unique_comm)
	"$SIG" "$comm" wait ${2:-} >"$out" &
	wait_for "$out" '^[0-9]+$' 5
	printf -v "$1" %s "$(head -1 "$out")"
	printf -v "$1_COMM" %s "$comm"
	TARGETS+=" ${!1}"
}

# send HOW PID SIG: send from a unique comm; set SND to its pid, SND_COMM.
send() {
	SND_COMM=$(unique_comm)
	run "$SIG" "$SND_COMM" "$@"
	[ "$status" = 0 ]
	SND=${lines[0]}
	SND_RET=${lines[1]}
}

# row SENDER SIG TPID TCOMM RESULT: the exact line for these fields.
row() {
	printf '%-7s %-15s %-8s %-7s %-15s %s' "$@"
}

teardown() {
	[ -z "$TARGETS" ] || kill -KILL $TARGETS 2>/dev/null
	if [ -n "${TOOL_PID:-}" ]; then
		kill -KILL "$TOOL_PID" 2>/dev/null
	fi
	wait 2>/dev/null
	return 0
}

@test "sigsnoop: a SIGUSR1 arrives with sender, target and DELIVERED" {
	target A
	start_tool sigsnoop
	send kill "$A" 10
	[ "$SND_RET" = 0 ]
	wait_for "$OUT" "^$SND +$SND_COMM +USR1 " 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +COMM +SIG +TPID +TCOMM +RESULT$'
	grep -Fxq "$(row "$SND" "$SND_COMM" USR1 "$A" "$A_COMM" DELIVERED)" \
		"$OUT"
	grep -Eq '^sigsnoop: [0-9]+ events, 0 lost$' "$ERR"
}

@test "sigsnoop: -s takes names and numbers and excludes other signals" {
	target A
	target B
	start_tool sigsnoop -s sigusr2
	send kill "$A" 10
	a_snd=$SND
	send kill "$B" 12
	wait_for "$OUT" "^$SND +$SND_COMM +USR2 " 5
	stop_tool
	grep -Fxq "$(row "$SND" "$SND_COMM" USR2 "$B" "$B_COMM" DELIVERED)" \
		"$OUT"
	! grep -Eq "^$a_snd " "$OUT" || false
	[ -z "$(awk 'NR > 1 && $3 != "USR2"' "$OUT")" ]

	target C
	start_tool sigsnoop -s 10
	send tgkill "$C" 10
	wait_for "$OUT" "^$SND +$SND_COMM +USR1 +$C +$C_COMM +DELIVERED\$" 5
	stop_tool
	[ -z "$(awk 'NR > 1 && $3 != "USR1"' "$OUT")" ]
}

@test "sigsnoop: -k shows kill(2) but not sigqueue(3)" {
	target A
	target B
	start_tool sigsnoop -k
	send queue "$A" 10
	q_snd=$SND
	send kill "$B" 10
	wait_for "$OUT" "^$SND +$SND_COMM +USR1 +$B " 5
	stop_tool
	! grep -Eq "^$q_snd " "$OUT" || false
	! grep -Eq ' CHLD ' "$OUT" || false

	target C
	start_tool sigsnoop
	send queue "$C" 10
	wait_for "$OUT" "^$SND +$SND_COMM +USR1 +$C +$C_COMM +DELIVERED\$" 5
	stop_tool
}

@test "sigsnoop: -x shows IGNORED signals and failed kills, not deliveries" {
	target A 10
	target B
	start_tool sigsnoop -x
	send kill "$A" 10
	ign=$SND ign_comm=$SND_COMM
	SND_COMM=$(unique_comm)
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SIG" "$SND_COMM" kill "$B" 12
	[ "${lines[1]}" = -1 ]
	perm=${lines[0]} perm_comm=$SND_COMM
	send kill "$B" 10
	wait_for "$OUT" "^$perm " 5
	stop_tool
	grep -Fxq "$(row "$ign" "$ign_comm" USR1 "$A" "$A_COMM" IGNORED)" "$OUT"
	grep -Fxq "$(row "$perm" "$perm_comm" USR2 "$B" - EPERM)" "$OUT"
	! grep -Eq "^$SND " "$OUT" || false
	! grep -Eq ' DELIVERED$' "$OUT" || false
}

@test "sigsnoop: -j prints valid JSON with the same fields" {
	target A
	start_tool sigsnoop -j
	send kill "$A" 10
	wait_for "$OUT" "\"comm\":\"$SND_COMM\"" 5
	stop_tool
	jq -es --arg c "$SND_COMM" --argjson p "$SND" --argjson t "$A" \
		--arg tc "$A_COMM" '
		map(select(.comm == $c and .sig == 10)) | length == 1 and
		(.[0] | .pid == $p and .tid == $p and .uid == 0 and
			.signal == "USR1" and .tpid == $t and .tcomm == $tc and
			.result == "DELIVERED" and .errno == 0 and .code == 0 and
			.kill == true and .group == true)
	' "$OUT"
	jq -es 'map(select(.type == "summary")) | length == 1' "$OUT"
}

@test "sigsnoop: a bad -s exits 2 with one line and no output" {
	for s in FOO 0 65 ""; do
		run --separate-stderr "$BIN/sigsnoop" -s "$s"
		[ "$status" = 2 ]
		[ -z "$output" ]
		[[ "$stderr" == "sigsnoop: invalid -s/--signal '$s': "* ]]
	done
}
