#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# runqlen: three CPU-bound helpers pinned to CPU 1 for a second keep two
# of them waiting there at nearly every sample; each CPU is sampled F
# times a second, idle or not; -C, -T, intervals, text, --metrics; bad
# input.

bats_require_minimum_version 1.5.0
load helpers
load burst

setup() {
	require_root
	JOBS=
}

@test "runqlen: three spinners on CPU 1 leave two waiting at nearly every sample there" {
	BURST_ARGS=(1000 0)
	burst A taskset -c 1
	burst B taskset -c 1
	burst C taskset -c 1
	start_tool runqlen -C -j -F 99
	go
	jq -es 'map(select(.cpu == 1)) | length == 1' "$OUT"
	two=$(jq -s 'map(select(.cpu == 1))[0] | [.buckets[] | select(.min >= 2) | .count] | add // 0' "$OUT")
	echo "# CPU 1: $two samples with 2 or more waiting" >&3
	# One second of spinning at 99 samples a second.
	[ "$two" -ge 80 ]
	jq -es 'all(.unit == "runqlen" and .interval == 1)' "$OUT"
}

@test "runqlen: every CPU is sampled F times a second, idle or not" {
	run --separate-stderr timeout 20 "$BIN/runqlen" -C -j -F 50 -d 2
	[ "$status" = 0 ]
	echo "$output" >"$BATS_TEST_TMPDIR/out"
	# One histogram per online CPU, about 100 samples each.
	[ "$(jq -s 'length' "$BATS_TEST_TMPDIR/out")" = "$(nproc)" ]
	jq -es 'all(.count >= 80 and .count <= 120)' "$BATS_TEST_TMPDIR/out"
	# Without -C, one histogram of them all.
	run --separate-stderr timeout 20 "$BIN/runqlen" -j -F 50 -d 2
	[ "$status" = 0 ]
	jq -en --argjson n "$(nproc)" --argjson o "$output" \
		'$o.count >= 80 * $n and $o.count <= 120 * $n and ($o | has("cpu") | not)'
}

@test "runqlen: INTERVAL COUNT prints COUNT reports, -T times them, text" {
	run --separate-stderr timeout 20 "$BIN/runqlen" -T 1 2
	[ "$status" = 0 ]
	[ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' <<<"$output")" = 2 ]
	[ "$(grep -Ec '^ +runqlen +: count +distribution$' <<<"$output")" = 2 ]
	grep -Eq '^ +0 -> 0 +: [0-9]+ ' <<<"$output"
	grep -Eq '^count [0-9]+ avg [0-9.]+ p99 [0-9.]+$' <<<"$output"
}

@test "runqlen: --metrics counts every CPU's samples by length" {
	local port
	port=$(free_port)
	start_tool runqlen --metrics "127.0.0.1:$port" -F 50
	sleep 1
	scrape "$port" >"$BATS_TEST_TMPDIR/prom"
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	[ ! -s "$OUT" ]
	grep -qx '# TYPE bpfkit_runqlen_samples_total counter' "$BATS_TEST_TMPDIR/prom"
	# Each online CPU sampled, at some length, about 50 times a second.
	for ((cpu = 0; cpu < $(nproc); cpu++)); do
		n=$(awk -v c="cpu=\"$cpu\"" 'index($1, "bpfkit_runqlen_samples_total{") == 1 && index($1, c) { s += $2 } END { print s + 0 }' \
			"$BATS_TEST_TMPDIR/prom")
		echo "# cpu $cpu: $n samples" >&3
		[ "$n" -ge 25 ]
	done
}

@test "runqlen: bad input exits 2 with one line and no output" {
	for args in "0" "1 0" "1 2 3" "-F 0" "-F x" "-p 1"; do
		run --separate-stderr "$BIN/runqlen" $args
		[ "$status" = 2 ]
		[ -z "$output" ]
		[ "$(wc -l <<<"$stderr")" = 1 ]
		[[ "$stderr" == "runqlen: "* ]]
	done
}
