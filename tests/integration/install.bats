#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# make install and make install-dev into a scratch root, from a build of
# their own: every tool as bpfkit-NAME with its man page and bash
# completion; and tools made by the installed new-tool --out in a directory
# outside the checkout, built against that root's bpfkit-dev files alone,
# pass their own tests. And every tool of bpf/ is documented: a row in
# README's tool table, a man page with its OVERHEAD, the package's
# description.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	DEST=$(mktemp -d "${TMPDIR:-/tmp}/install-test.XXXXXX")
	export DEST
	plain_make -C "$ROOT" -j2 BUILD="$DEST/build" PREFIX=/usr \
		DESTDIR="$DEST/root" install install-dev >"$DEST/make.log" 2>&1 ||
		{
			tail -20 "$DEST/make.log" | sed 's/^/# /' >&3
			return 1
		}
}

teardown_file() {
	rm -rf "$DEST"
}

# The tools of this tree, by their plain names.
tools() {
	local f
	for f in "$ROOT"/bpf/*.bpf.c; do
		f=${f##*/}
		echo "${f%.bpf.c}"
	done
}

# dev_env CMD...: run CMD with pkg-config finding bpfkit-dev in $DEST/root.
dev_env() {
	PKG_CONFIG_PATH=$DEST/root/usr/lib/pkgconfig \
		PKG_CONFIG_SYSROOT_DIR=$DEST/root "$@"
}

@test "install: every tool as bpfkit-NAME, with its man page and completion" {
	local t
	for t in $(tools); do
		[ -x "$DEST/root/usr/sbin/bpfkit-$t" ]
		[ -s "$DEST/root/usr/share/man/man8/bpfkit-$t.8" ]
		[ -s "$DEST/root/usr/share/bash-completion/completions/bpfkit-$t" ]
	done
	[ "$(ls "$DEST/root/usr/sbin" | grep -vc '^bpfkit-')" = 0 ]
	[ -s "$DEST/root/usr/share/doc/bpfkit/README.md" ]
	[ -s "$DEST/root/usr/share/doc/bpfkit/LICENSE" ]
}

@test "docs: every tool has a README row, a man page with OVERHEAD and a place in the package" {
	local t missing=
	[ "$(wc -l <"$ROOT/README.md")" -le 600 ]
	for t in $(tools); do
		grep -q "^| \`$t\` | " "$ROOT/README.md" || missing+=" README:$t"
		grep -qx '\.SH OVERHEAD' "$ROOT/man/$t.8" || missing+=" man:$t"
		grep -Eq "bpfkit-$t([^a-z0-9-]|$)" "$ROOT/debian/control" ||
			missing+=" debian/control:$t"
	done
	[ -z "$missing" ] || {
		echo "# not documented:$missing" >&3
		return 1
	}
}

@test "install: man pages name the installed tool and format cleanly" {
	local t page
	for t in $(tools); do
		page=$DEST/root/usr/share/man/man8/bpfkit-$t.8
		lexgrog "$page" | grep -q "\"bpfkit-$t - "
		grep -q "^\.TH BPFKIT-${t^^} 8 .*\"bpfkit $("$ROOT/tools/version")\"" "$page"
		refute grep -Eq "^(\.BR? )?$t( |,|$)" "$page"
		# What lintian runs for its groff-message check.
		run --separate-stderr env LC_ALL=C.UTF-8 MANROFFSEQ='' \
			MANWIDTH=120 man --warnings -E UTF-8 -l -Tutf8 -Z "$page"
		[ "$status" = 0 ]
		[ -z "$stderr" ] || {
			echo "# $page: $stderr" >&3
			return 1
		}
	done
}

@test "install: -V, --help and errors name the installed tool" {
	local tool=$DEST/root/usr/sbin/bpfkit-execsnoop
	[ "$("$tool" -V)" = "bpfkit-execsnoop (bpfkit $("$ROOT/tools/version"))" ]
	[ "$("$BIN/execsnoop" -V)" = "execsnoop (bpfkit $("$ROOT/tools/version"))" ]
	run "$tool" --help
	[ "$status" = 0 ]
	[ "${lines[0]}" = "Usage: bpfkit-execsnoop [OPTION...]" ]
	printf '%s\n' "${lines[@]}" | grep -q '^  bpfkit-execsnoop -x  *# '
	refute grep -q '^  execsnoop' <<<"$output"
	run --separate-stderr "$tool" --bogus
	[ "$status" = 2 ]
	[ "$stderr" = "bpfkit-execsnoop: unknown option '--bogus'; see 'bpfkit-execsnoop --help'" ]
}

# complete_words NAME WORD...: COMPREPLY, one per line, for the last WORD of
# "NAME WORD..." from NAME's installed completion.
complete_words() {
	bash -c '
		source "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		"$(complete -p "$1" | sed "s/.*-F \([^ ]*\) .*/\1/")"
		printf "%s\n" "${COMPREPLY[@]}"
	' complete "$DEST/root/usr/share/bash-completion/completions/$1" "$@"
}

@test "install: bash completion offers each tool's own options" {
	local t
	[ "$(complete_words bpfkit-execsnoop --ri)" = --ringbuf ]
	[ "$(complete_words bpfkit-execsnoop --max-a)" = --max-args ]
	# The common options too (--max-cpu, --max-series, from the cli room).
	[ "$(complete_words bpfkit-execsnoop --max)" = "$(printf '%s\n' --max-args --max-cpu --max-series)" ]
	[ "$(complete_words bpfkit-syscount --metrics-)" = --metrics-labels ]
	[ "$(complete_words bpfkit-hello-attach --att)" = --attach ]
	[ -z "$(complete_words bpfkit-syscount --att)" ]
	complete_words bpfkit-execsnoop -u ro | grep -qx root
	[ "$(complete_words bpfkit-opensnoop --btf "$ROOT/LICEN")" = "$ROOT/LICENSE" ]
	[ -z "$(complete_words bpfkit-opensnoop -p '')" ]
	for t in $(tools); do
		[ "$(complete_words "bpfkit-$t" --he)" = --help ]
	done
}

# new_tool NAME ARG...: the installed new-tool --out in a scratch directory
# outside the checkout; sets PROJECT.
new_tool() {
	local made
	PROJECT=$BATS_TEST_TMPDIR/$1
	made=$(dev_env "$DEST/root/usr/share/bpfkit/new-tool" --out "$PROJECT" "$@")
	sed 's/^/# /' <<<"$made" >&3
}

# build_and_test: build PROJECT with the installed bpfkit.mk and run its
# test; only the installed files and the system's may go into it.
build_and_test() {
	dev_env plain_make -C "$PROJECT" >/dev/null
	refute grep -q "$ROOT" "$PROJECT"/build/*.d
	# As a user runs it: bats puts its libexec dir first in PATH, and the
	# bats there needs a function that make does not pass on.
	PATH=${PATH#"$BATS_LIBEXEC:"} run dev_env plain_make -C "$PROJECT" \
		--no-print-directory test
	printf '# %s\n' "${lines[@]}" >&3
	[ "$status" = 0 ]
	[[ $output =~ ok\ 1 ]]
	[[ ! $output =~ "not ok" ]]
	[[ ! $output =~ "# skip" ]]
}

@test "install-dev: pkg-config gives the headers and the libraries" {
	[ "$(dev_env pkg-config --cflags --libs bpfkit | xargs)" = "-I$DEST/root/usr/include/bpfkit -L$DEST/root/usr/lib -lbpfkit -lbpf -lelf -lz" ]
	[ "$(dev_env pkg-config --modversion bpfkit)" = "$("$ROOT/tools/version")" ]
	[ -f "$(dev_env pkg-config --variable=mk bpfkit)" ]
	[ -f "$(dev_env pkg-config --variable=vmlinuxdir bpfkit)/x86/vmlinux.h" ]
}

@test "install-dev: an out-of-tree execve tool builds and its test passes" {
	require_root
	new_tool exec-count
	for f in exec-count.bpf.c exec-count.c exec-count.h exec-count.bats \
		exec-count.8 Makefile README.md; do
		[ -s "$PROJECT/$f" ]
	done
	refute grep -Eq '@[A-Z]+@' "$PROJECT"/*
	build_and_test
}

@test "install-dev: an out-of-tree syscall tool builds and its test passes" {
	require_root
	new_tool ppid-calls --tracepoint syscalls:sys_enter_getppid
	grep -Eq 'newtool-callsys" [0-9]+ ' "$PROJECT/ppid-calls.bats"
	build_and_test
}

@test "install-dev: out-of-tree uprobe and USDT tools build and their tests pass" {
	require_root
	new_tool rl-calls --uprobe /bin/bash:readline
	grep -q 'SEC("uprobe")' "$PROJECT/rl-calls.bpf.c"
	refute grep -Eq '@[A-Z_]+@' "$PROJECT"/*
	build_and_test
	python=$(readlink -f /usr/bin/python3)
	readelf -n "$python" 2>/dev/null | grep -q 'Name: gc__start' ||
		skip "needs Debian's python3 with its USDT probes (tools/deps.sh test)"
	new_tool py-gc --usdt /usr/bin/python3:python:gc__start
	grep -q 'SEC("usdt")' "$PROJECT/py-gc.bpf.c"
	refute grep -Eq '@[A-Z_]+@' "$PROJECT"/*
	build_and_test
}

@test "install-dev: new-tool --out refuses in one line without bpfkit-dev" {
	run --separate-stderr env PKG_CONFIG_PATH=/nonexistent \
		PKG_CONFIG_LIBDIR=/nonexistent \
		"$DEST/root/usr/share/bpfkit/new-tool" --out \
		"$BATS_TEST_TMPDIR/x" x-tool
	[ "$status" = 1 ]
	[[ $stderr =~ ^new-tool:\ pkg-config\ finds\ no\ bpfkit ]]
	[ ! -e "$BATS_TEST_TMPDIR/x" ]
}
