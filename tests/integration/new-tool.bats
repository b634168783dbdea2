#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# tools/new-tool: in a throwaway copy of the tree, make tools from the
# template, build them and run their generated tests; refuse bad names and
# tracepoints with exit 2, writing nothing.

load helpers
bats_require_minimum_version 1.5.0

# Copy the working tree once, as `make` sees it: every file git does not
# ignore, or everything but build directories outside a git checkout.
setup_file() {
	COPY=$(mktemp -d "${TMPDIR:-/tmp}/new-tool-test.XXXXXX")
	export COPY
	cd "$ROOT"
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -co --exclude-standard |
			while read -r f; do [ -e "$f" ] && echo "$f"; done |
			cpio -pdm --quiet "$COPY"
	else
		find . -mindepth 1 -maxdepth 1 ! -name 'build*' \
			-exec cp -a {} "$COPY/" \;
	fi
}

# make in the copy, with its defaults (plain_make).
copy_make() {
	plain_make -C "$COPY" "$@"
}

teardown_file() {
	rm -rf "$COPY"
}

# snapshot: every path in the copy outside build/; files with size and mtime.
snapshot() {
	find "$COPY" -path "$COPY/build" -prune -o -type d -printf '%p/\n' \
		-o -printf '%p %s %T@\n' | sort
}

# refuses REGEX ARG...: new-tool ARG... exits 2 with one line on stderr
# matching REGEX, nothing on stdout, and writes nothing.
refuses() {
	local before
	before=$(snapshot)
	run --separate-stderr "$COPY/tools/new-tool" "${@:2}"
	[ "$status" = 2 ]
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr =~ ^new-tool:\ .*$1 ]]
	[ "$(snapshot)" = "$before" ]
}

# build_and_test NAME: build NAME and the test helpers inside the copy, then
# run NAME's generated test there; it must pass at least once, fail never.
# Its three files come out in the tree's style (make check-format).
build_and_test() {
	(cd "$COPY" && clang-format --dry-run -Werror "bpf/$1.bpf.c" \
		"user/$1.c" "include/$1.h")
	copy_make -j2 --no-print-directory "build/bin/$1" \
		build/test/helpers/execas build/test/helpers/newtool-callsys \
		>/dev/null
	run env BPFKIT_BUILD="$COPY/build" "$COPY/tests/run" \
		"tests/integration/$1.bats"
	printf '# %s\n' "${lines[@]}" >&3
	[ "$status" = 0 ]
	[[ ${lines[-1]} =~ ^([0-9]+)\ passed,\ 0\ failed,\ 0\ skipped$ ]]
	[ "${BASH_REMATCH[1]}" -ge 1 ]
}

@test "new-tool: --help shows usage and exits 0" {
	run "$COPY/tools/new-tool" --help
	[ "$status" = 0 ]
	[[ ${lines[0]} == "Usage: tools/new-tool NAME [--tracepoint CATEGORY:EVENT]" ]]
}

@test "new-tool: refuses bad names with exit 2 and writes nothing" {
	refuses "is not a tool name" 9bad
	refuses "is not a tool name" Foo
	refuses "is not a tool name" "a b"
	refuses "is not a tool name" my--tool
	refuses "is not a tool name" my-tool-
	refuses "is not a tool name" my_tool
	refuses "too long" abcdefghij-abcdefghij-abcdefghij-x
	refuses "NAME is empty" ""
	refuses "missing NAME"
	refuses "one NAME only" one two
	refuses "unknown option '--bogus'" --bogus
}

@test "new-tool: refuses an existing tool or any existing target file" {
	refuses "tool 'hello-buffer' exists already" hello-buffer
	refuses "tests/integration/new-tool.bats exists already" new-tool
	touch "$COPY/include/taken.h"
	refuses "include/taken.h exists already" taken
	rm "$COPY/include/taken.h"
}

@test "new-tool: a write that fails leaves nothing behind" {
	# Make man/ a plain file: the last write, man/half-made.8, fails.
	mv "$COPY/man" "$COPY/man.away" 2>/dev/null || true
	touch "$COPY/man"
	before=$(snapshot)
	run --separate-stderr "$COPY/tools/new-tool" half-made
	after=$(snapshot)
	rm "$COPY/man"
	mv "$COPY/man.away" "$COPY/man" 2>/dev/null || true
	[ "$status" = 1 ]
	[ "$stderr" = "new-tool: could not write man/half-made.8 (is its directory writable?); wrote nothing" ]
	[ "$after" = "$before" ]
}

@test "new-tool: refuses a malformed tracepoint, writing nothing" {
	refuses "is not CATEGORY:EVENT" x-tool --tracepoint sys_enter_getppid
	refuses "is not CATEGORY:EVENT" x-tool --tracepoint a:b:c
	refuses "needs CATEGORY:EVENT" x-tool --tracepoint
}

@test "new-tool: refuses a tracepoint this kernel lacks, writing nothing" {
	[ "$(id -u)" = 0 ] || skip "needs root to read tracefs"
	refuses "no such tracepoint on this kernel" x-tool \
		--tracepoint syscalls:sys_enter_no_such_call
	refuses "no such tracepoint on this kernel" x-tool \
		--tracepoint=nosuchcategory:nosuchevent
}

@test "new-tool: a default tool builds and its execve test passes" {
	require_root
	run "$COPY/tools/new-tool" scratch-tool
	[ "$status" = 0 ]
	for f in bpf/scratch-tool.bpf.c user/scratch-tool.c \
		include/scratch-tool.h tests/integration/scratch-tool.bats \
		man/scratch-tool.8; do
		[ -s "$COPY/$f" ]
	done
	grep -q 'SEC("tracepoint/syscalls/sys_enter_execve")' \
		"$COPY/bpf/scratch-tool.bpf.c"
	grep -q 'struct scratch_tool_bpf \*skel' "$COPY/user/scratch-tool.c"
	grep -q '#include "scratch-tool.skel.h"' "$COPY/user/scratch-tool.c"
	! grep -Eq '@[A-Z]+@' "$COPY"/*/scratch-tool.* \
		"$COPY/tests/integration/scratch-tool.bats" || false
	if command -v clang-format >/dev/null; then
		(cd "$COPY" && clang-format --dry-run --Werror \
			bpf/scratch-tool.bpf.c user/scratch-tool.c \
			include/scratch-tool.h)
	fi
	# The Makefile finds the new tool by itself.
	copy_make -n all | grep -q 'build/bin/scratch-tool'
	build_and_test scratch-tool
	"$COPY/build/bin/scratch-tool" --help | grep -q 'sys_enter_execve'
}

@test "new-tool: --tracepoint syscalls:sys_enter_getppid builds and its test passes" {
	require_root
	run "$COPY/tools/new-tool" ppid-calls \
		--tracepoint syscalls:sys_enter_getppid
	[ "$status" = 0 ]
	grep -q 'SEC("tracepoint/syscalls/sys_enter_getppid")' \
		"$COPY/bpf/ppid-calls.bpf.c"
	grep -Eq 'newtool-callsys" [0-9]+ ' \
		"$COPY/tests/integration/ppid-calls.bats"
	build_and_test ppid-calls
}

@test "new-tool: another category gets an attach-only test that passes" {
	require_root
	run "$COPY/tools/new-tool" exit-watch \
		--tracepoint sched:sched_process_exit
	[ "$status" = 0 ]
	grep -q 'SEC("tracepoint/sched/sched_process_exit")' \
		"$COPY/bpf/exit-watch.bpf.c"
	grep -q 'check loading, attaching and output' \
		"$COPY/tests/integration/exit-watch.bats"
	build_and_test exit-watch
}

@test "new-tool: refuses a bad --uprobe or --usdt in one line, writing nothing" {
	printf 'not elf\n' >"$BATS_TEST_TMPDIR/text"
	refuses "is not BINARY:FUNCTION" x-tool --uprobe /bin/bash
	refuses "is not BINARY:FUNCTION" x-tool --uprobe /bin/bash:read.line
	refuses "needs BINARY:FUNCTION" x-tool --uprobe
	refuses "no such file '/no/such/bin'" x-tool --uprobe /no/such/bin:f
	refuses "'$BATS_TEST_TMPDIR/text' is not an ELF program" x-tool \
		--uprobe "$BATS_TEST_TMPDIR/text:main"
	refuses "/bin/bash has no function no_such_function_h9 " x-tool \
		--uprobe /bin/bash:no_such_function_h9
	refuses "is not BINARY:PROVIDER:PROBE" x-tool --usdt /bin/bash:probe
	refuses "needs BINARY:PROVIDER:PROBE" x-tool --usdt
	refuses "no such file '/no/such/bin'" x-tool --usdt /no/such/bin:p:n
	refuses "/bin/bash has no USDT probe nosuch:probe " x-tool \
		--usdt /bin/bash:nosuch:probe
	refuses "give one kind of attachment only" x-tool \
		--tracepoint sched:sched_process_exit --uprobe /bin/bash:readline
	refuses "give one kind of attachment only" x-tool \
		--uprobe /bin/bash:readline --usdt /bin/bash:p:n
}

@test "new-tool: --uprobe /bin/bash:readline builds and its test passes" {
	require_root
	run "$COPY/tools/new-tool" rl-calls --uprobe /bin/bash:readline
	[ "$status" = 0 ]
	[ "${lines[0]}" = "Made tool rl-calls, attached to uprobe /bin/bash:readline:" ]
	grep -q 'SEC("uprobe")' "$COPY/bpf/rl-calls.bpf.c"
	grep -q '\.binary = "/bin/bash",' "$COPY/user/rl-calls.c"
	grep -q '\.name = "readline",' "$COPY/user/rl-calls.c"
	! grep -Eq '@[A-Z_]+@' "$COPY"/*/rl-calls.* \
		"$COPY/tests/integration/rl-calls.bats" || false
	build_and_test rl-calls
}

@test "new-tool: --usdt builds and its test passes" {
	require_root
	python=$(readlink -f /usr/bin/python3)
	readelf -n "$python" 2>/dev/null | grep -q 'Name: gc__start' ||
		skip "needs Debian's python3 with its USDT probes (tools/deps.sh test)"
	run "$COPY/tools/new-tool" py-gc --usdt /usr/bin/python3:python:gc__start
	[ "$status" = 0 ]
	[ "${lines[0]}" = "Made tool py-gc, attached to USDT probe /usr/bin/python3:python:gc__start:" ]
	grep -q 'SEC("usdt")' "$COPY/bpf/py-gc.bpf.c"
	grep -q '\.provider = "python",' "$COPY/user/py-gc.c"
	grep -q '\.name = "gc__start",' "$COPY/user/py-gc.c"
	! grep -Eq '@[A-Z_]+@' "$COPY"/*/py-gc.* \
		"$COPY/tests/integration/py-gc.bats" || false
	build_and_test py-gc
}
