#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# The event formatters under libFuzzer (tools/fuzz): every input that once
# crashed one (tests/reliability/corpus/TOOL/) must now pass, and a short
# fuzzing run must find nothing new. Needs no root: no BPF is loaded.

load helpers

@test "reliability: fuzz: saved crash inputs pass, a short run finds nothing new" {
	echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' \
		>"$BATS_TEST_TMPDIR/probe.c"
	# Probe the compiler tools/fuzz will use (make test CLANG=clang-19
	# passes it down), with the sanitizers the harnesses are built with.
	cc=${CLANG:-clang}
	"$cc" -fsanitize=fuzzer,address,undefined "$BATS_TEST_TMPDIR/probe.c" \
		-o "$BATS_TEST_TMPDIR/probe" 2>/dev/null ||
		skip "$cc cannot build libFuzzer targets (tools/deps.sh test installs libclang-rt-dev for clang, tools/deps.sh clang19 libclang-rt-19-dev for clang-19)"
	# Each target for at least 4 s (a tool's two runs 2 s each).
	run env BPFKIT_BUILD="$BUILD" "$ROOT/tools/fuzz" 4
	echo "$output" | sed 's/^/# /' >&3
	[ "$status" = 0 ]
}
