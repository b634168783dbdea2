#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, the suite itself: every kernel runs the same CO-RE objects
# and tools, byte for byte (their checksums, recorded here per kernel, are
# compared across kernels by tools/vm/portability-report), and every tool of
# bpf/ has its test in this suite.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load helpers

@test "objects: this kernel runs the BPF objects and tools the host built" {
	(cd "$BUILD" && sha256sum obj/bpf/*.bpf.o bin/*) >"$BUILD/objects.sha256"
	echo "# $(wc -l <"$BUILD/objects.sha256") files, recorded in $BUILD/objects.sha256" >&3
	grep -q ' obj/bpf/execsnoop\.bpf\.o$' "$BUILD/objects.sha256"
	if [ -z "${BPFKIT_GUEST:-}" ]; then
		[ -e "$BUILD/objects.host.sha256" ] ||
			skip "no host record to compare with (tools/test-vm writes one)"
	fi
	diff -u "$BUILD/objects.host.sha256" "$BUILD/objects.sha256" >&3
}

@test "objects: every tool of bpf/ has its test in this suite" {
	local f t missing=
	for f in "$ROOT"/bpf/*.bpf.c; do
		t=${f##*/}
		t=${t%.bpf.c}
		grep -q "^@test \"$t: " "$BATS_TEST_DIRNAME"/*.bats || missing+=" $t"
	done
	[ -z "$missing" ] || {
		echo "# no test for:$missing" >&3
		false
	}
}
