#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Valgrind memcheck, for every tool in $BIN: a short run (-d 2) with execs
# and other events happening must show no invalid access and no definite
# or indirect leak. Memory libbpf still holds at exit (reachable) is not
# counted; tests/reliability/valgrind.supp lists valgrind's false alarms
# on bpf(2) attributes.

load helpers
load ../reliability/common

setup() {
	require_root
	command -v valgrind >/dev/null || skip "valgrind is not installed"
	! sanitized || skip "$BUILD is built with SANITIZE=1; valgrind needs a plain build"
	declare -gA PIDS=()
}

teardown() {
	local t
	for t in "${!PIDS[@]}"; do
		kill -KILL "${PIDS[$t]}" 2>/dev/null
		wait "${PIDS[$t]}" 2>/dev/null
	done
	return 0
}

@test "reliability: valgrind: no invalid access, no leak, in any tool" {
	local d=$BATS_TEST_TMPDIR t i status
	for t in $(tools); do
		valgrind -q --error-exitcode=99 --leak-check=full \
			--show-leak-kinds=definite,indirect \
			--errors-for-leak-kinds=definite,indirect \
			--suppressions="$REL/valgrind.supp" --log-file="$d/$t.vg" \
			"$BIN/$t" $(plain_args "$t") -d 2 >"$d/$t.out" 2>"$d/$t.err" &
		PIDS[$t]=$!
	done

	# Cause events until every tool has ended (3 minutes at most).
	for ((i = 0; i < 360; i++)); do
		trigger_execs "$(unique_comm)"
		for t in "${!PIDS[@]}"; do
			kill -0 "${PIDS[$t]}" 2>/dev/null && continue 2
		done
		break
	done

	for t in "${!PIDS[@]}"; do
		status=0
		wait "${PIDS[$t]}" || status=$?
		unset "PIDS[$t]"
		[ "$status" = 0 ] || echo "$t: exit $status"
		grep -q 'tracing; hit Ctrl-C to end' "$d/$t.err" ||
			echo "$t: never traced: $(tail -1 "$d/$t.err")"
		grep -E '^==[0-9]+== +(Invalid|Conditional|Syscall param|Mismatched|Use of|.*(definitely|indirectly) lost in)' \
			"$d/$t.vg" | head -5 | sed "s/^/$t: /"
	done >"$d/report"
	sed 's/^/# /' "$d/report" >&3
	[ ! -s "$d/report" ]
}
