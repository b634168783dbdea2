# SPDX-License-Identifier: GPL-2.0
# bpfkit: one Makefile for every tool, its tests and its benchmarks.
#
#   make                 build every tool into build/bin/
#   make test            install test deps, build, run all tests
#   make demo            install deps, build, run hello-buffer (DEMO_ARGS=)
#   make STATIC=1        fully static binaries, for hosts without libbpf
#   make SANITIZE=1      user space with ASan and UBSan
#   make V=1             show full commands
#   make vmlinux         regenerate vmlinux/$(ARCH)/vmlinux.h from this kernel
#   make new-tool NAME=x a new tool from the template (TRACEPOINT=, UPROBE=, USDT=)
#   make bench           benchmarks against libbpf-tools and bpftrace
#   make install PREFIX=/usr/local DESTDIR=   tools as bpfkit-NAME, man, completion, units
#   make install-dev PREFIX=/usr/local DESTDIR=  library, headers, bpfkit.mk
#   make deb             build/deb/bpfkit_VERSION_ARCH.deb and bpfkit-dev
#   make format          clang-format the tree (check-format: only check)

# The version is debian/changelog's; see tools/version.
VERSION := $(shell tools/version)
ifeq ($(VERSION),)
$(error bpfkit: no version in debian/changelog; its first line must read 'bpfkit (VERSION) ...')
endif

CC ?= cc
PREFIX ?= /usr/local

# CLANG, BPFTOOL, PKG_CONFIG, BUILD, ARCH and the build steps of a tool,
# shared with tools built outside the tree.
BPFKIT_IN_TREE := 1
include bpfkit.mk
VMLINUX := vmlinux/$(ARCH)/vmlinux.h

ifeq ($(V),1)
Q :=
msg =
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

OBJ := $(BUILD)/obj
GEN := $(BUILD)/gen
BIN := $(BUILD)/bin
TESTBIN := $(BUILD)/test

TOOLS := $(patsubst bpf/%.bpf.c,%,$(sort $(wildcard bpf/*.bpf.c)))
TOOL_BINS := $(addprefix $(BIN)/,$(TOOLS))
LIB_OBJS := $(patsubst user/lib/%.c,$(OBJ)/lib/%.o,$(wildcard user/lib/*.c)) \
	    $(OBJ)/lib/syscall_table.o
LIB := $(BUILD)/libbpfkit.a

UNIT_TESTS := $(patsubst tests/unit/%.c,$(TESTBIN)/unit/%,$(wildcard tests/unit/*.c))
TEST_HELPERS := $(patsubst tests/helpers/%.c,$(TESTBIN)/helpers/%,$(wildcard tests/helpers/*.c))
TEST_PROGS := $(patsubst tests/progs/%.bpf.c,$(TESTBIN)/progs/%,$(wildcard tests/progs/*.bpf.c))
MAN_PAGES := $(wildcard man/*.8)

# BPF side: CO-RE objects against the checked-in vmlinux.h.
BPF_CFLAGS := $(BPFKIT_BPF_FLAGS) -Iinclude -Ivmlinux/$(ARCH)

# User side.
CFLAGS ?= -g -O2
USER_CFLAGS := $(CPPFLAGS) $(CFLAGS) $(BPFKIT_USER_FLAGS) -Iinclude \
	-Iuser/lib -I$(GEN) -DBPFKIT_VERSION='"$(VERSION)"'
LDLIBS := $(BPFKIT_LDLIBS)
ifeq ($(STATIC),1)
LDFLAGS += -static
LDLIBS := $(shell $(PKG_CONFIG) --static --libs libbpf libelf 2>/dev/null || \
	echo -lbpf -lelf -lz) -lzstd
endif
# Tools that symbolize stacks (user/lib/symbols.c) link elfutils' libdw
# too, and libstdc++ for its C++ demangler (__cxa_demangle).
DW_TOOLS := profile offcputime wakeuptime memleak futexctn klockstat
DW_LDLIBS := $(shell $(PKG_CONFIG) $(if $(filter 1,$(STATIC)),--static) \
	--libs libdw 2>/dev/null || echo -ldw) -lstdc++
ifeq ($(SANITIZE),1)
USER_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif

.PHONY: all
all: check-arch check-deps $(TOOL_BINS)

.PHONY: check-arch
check-arch:
	@test -f $(VMLINUX) || { echo "bpfkit: no $(VMLINUX) for ARCH=$(ARCH); supported: $$(ls vmlinux | tr '\n' ' ')(or run 'make vmlinux' on such a machine)" >&2; exit 1; }

.PHONY: check-deps deps
check-deps:
	$(Q)tools/deps.sh --check build
deps:
	$(Q)tools/deps.sh build test containers

# Rebuild user space when the flags that shape it change (STATIC, SANITIZE).
$(BUILD)/user.flags: FORCE | $(BUILD)
	@echo '$(CC) $(USER_CFLAGS) $(LDFLAGS) $(LDLIBS)' | cmp -s - $@ || \
		echo '$(CC) $(USER_CFLAGS) $(LDFLAGS) $(LDLIBS)' > $@

# Rebuild BPF objects when the compiler or its flags change (CLANG=clang-19).
$(BUILD)/bpf.flags: FORCE | $(BUILD)
	@echo '$(CLANG) $(BPF_CFLAGS)' | cmp -s - $@ || \
		echo '$(CLANG) $(BPF_CFLAGS)' > $@

$(BUILD) $(OBJ)/bpf $(OBJ)/lib $(OBJ)/user $(OBJ)/test $(GEN) $(BIN) \
$(TESTBIN)/unit $(TESTBIN)/helpers $(TESTBIN)/progs:
	$(Q)mkdir -p $@

# bpf/X.bpf.c -> clang -> bpftool gen object (drops DWARF) -> skeleton.
# Test programs (tests/progs/X.bpf.c) take the same path.
$(OBJ)/bpf/%.tmp.o: bpf/%.bpf.c $(VMLINUX) $(BUILD)/bpf.flags | $(OBJ)/bpf
	$(call msg,BPF,$@)
	$(Q)$(call bpfkit_bpf_cc,$(BPF_CFLAGS))

$(OBJ)/bpf/%.tmp.o: tests/progs/%.bpf.c $(VMLINUX) $(BUILD)/bpf.flags | $(OBJ)/bpf
	$(call msg,BPF,$@)
	$(Q)$(call bpfkit_bpf_cc,$(BPF_CFLAGS))

$(OBJ)/bpf/%.bpf.o: $(OBJ)/bpf/%.tmp.o
	$(call msg,GEN-OBJ,$@)
	$(Q)$(bpfkit_gen_object)

$(GEN)/%.skel.h: $(OBJ)/bpf/%.bpf.o | $(GEN)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(bpfkit_gen_skel)

$(GEN)/syscall_table.c: tools/gen-syscall-table | $(GEN)
	$(call msg,GEN,$@)
	$(Q)tools/gen-syscall-table '$(CC)' > $@.tmp && mv $@.tmp $@

# The shared user-space library.
$(OBJ)/lib/%.o: user/lib/%.c $(BUILD)/user.flags | $(OBJ)/lib
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@

$(OBJ)/lib/syscall_table.o: $(GEN)/syscall_table.c $(BUILD)/user.flags | $(OBJ)/lib
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# Tools: user/X.c includes its skeleton, links the library.
$(OBJ)/user/%.o: user/%.c $(GEN)/%.skel.h $(BUILD)/user.flags | $(OBJ)/user
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@

$(BIN)/%: $(OBJ)/user/%.o $(LIB) | $(BIN)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(addprefix $(BIN)/,$(DW_TOOLS)) $(TESTBIN)/unit/test_symbols: \
	LDLIBS := $(DW_LDLIBS) $(LDLIBS)

$(OBJ)/test/%.o: tests/progs/%.c $(GEN)/%.skel.h $(BUILD)/user.flags | $(OBJ)/test
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -MMD -MP -c $< -o $@

$(TESTBIN)/progs/%: $(OBJ)/test/%.o $(LIB) | $(TESTBIN)/progs
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Tests: cmocka unit tests and the small trigger programs tests run.
$(TESTBIN)/unit/%: tests/unit/%.c $(LIB) $(BUILD)/user.flags | $(TESTBIN)/unit $(OBJ)/test
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(LDFLAGS) -MMD -MP -MF $(OBJ)/test/unit-$*.d $< $(LIB) -lcmocka $(LDLIBS) -o $@

# test_staging opens two tools' objects.
$(TESTBIN)/unit/test_staging: $(GEN)/syncsnoop.skel.h $(GEN)/vfsstat.skel.h

# profile.bats, offcputime.bats, wakeuptime.bats and memleak.bats walk
# their helpers' stacks by frame pointers.
$(TESTBIN)/helpers/stack-spin $(TESTBIN)/helpers/pipe-block \
	$(TESTBIN)/helpers/vfork-block $(TESTBIN)/helpers/leak: \
	USER_CFLAGS += -fno-omit-frame-pointer

# btf-bitfield edits a kernel's BTF with libbpf's API.
$(TESTBIN)/helpers/btf-bitfield: HELPER_LDLIBS = $(LDLIBS)

$(TESTBIN)/helpers/%: tests/helpers/%.c $(BUILD)/user.flags | $(TESTBIN)/helpers $(OBJ)/test
	$(call msg,CC,$@)
	$(Q)$(CC) $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(USER_CFLAGS) $(LDFLAGS)) -MMD -MP -MF $(OBJ)/test/helper-$*.d $< $(HELPER_LDLIBS) -o $@

.PHONY: tests-build
tests-build: all $(UNIT_TESTS) $(TEST_HELPERS) $(TEST_PROGS)

# The packages a test run needs: clang-19's runtime too when it builds.
TEST_DEPS := build test containers $(if $(filter clang-19,$(notdir $(CLANG))),clang19)

# The README's test command: deps, build, every test, one summary line
# (TESTS="tests/integration/FILE.bats ..." runs only those files). First
# the tests' own checks (tests/runner/): tests/lint-bats finds no check
# that cannot fail, tests/lib-floors no circle in the library's includes
# (user/lib/floors), and tests/run counts every failure of fake tests.
TESTS ?=
.PHONY: test
test:
	$(Q)tools/deps.sh $(TEST_DEPS)
	$(Q)$(MAKE) --no-print-directory tests-build
	$(Q)bats tests/runner
	$(Q)BPFKIT_BUILD=$(BUILD) tests/run $(TESTS)

# The README's demo command: deps, build, then hello-buffer until Ctrl-C
# (DEMO_ARGS='-d 5' stops it after 5 s, as tools/fresh-root does).
DEMO_ARGS ?=

.PHONY: demo
demo:
	$(Q)tools/deps.sh build
	$(Q)$(MAKE) --no-print-directory all
	$(BIN)/hello-buffer $(DEMO_ARGS)

# Make a new tool from tools/template/: make new-tool NAME=x
# [TRACEPOINT=c:e | UPROBE=binary:function | USDT=binary:provider:probe]
.PHONY: new-tool
new-tool:
	$(Q)tools/new-tool "$(NAME)" $(if $(TRACEPOINT),--tracepoint "$(TRACEPOINT)") \
		$(if $(UPROBE),--uprobe "$(UPROBE)") $(if $(USDT),--usdt "$(USDT)")

# Benchmarks against the peers (not part of make test); results in
# build/bench, and the summary table in README.md rewritten from them.
.PHONY: bench
bench:
	$(Q)tools/deps.sh build test containers
	$(Q)tools/deps.sh bench || echo "bench: some peers could not be installed; their rows are skipped" >&2
	$(Q)$(MAKE) --no-print-directory tests-build
	$(Q)$(MAKE) --no-print-directory STATIC=1 BUILD=$(BUILD)/static all
	$(Q)tools/bench/run $(BUILD)

.PHONY: vmlinux
vmlinux:
	$(Q)mkdir -p vmlinux/$(ARCH)
	$(call msg,GEN,$(VMLINUX))
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $(VMLINUX).tmp
	$(Q)mv $(VMLINUX).tmp $(VMLINUX)
	$(Q)echo "$(VMLINUX): generated from $$(uname -r) ($$(uname -v)) on $$(date -u +%F)" > vmlinux/$(ARCH)/SOURCE

# --- install ---
# The one place that knows where things go; debian/rules passes PREFIX=/usr
# and the multiarch LIBDIR. Tools, their man pages and completions are
# named $(PROGRAM_PREFIX)NAME, so that bpfkit installs beside Debian's
# libbpf-tools (plain names: execsnoop, opensnoop...) and bpfcc-tools
# (NAME-bpfcc); PROGRAM_PREFIX= installs plain names.
PROGRAM_PREFIX ?= bpfkit-
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/bpfkit
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
INCLUDEDIR ?= $(PREFIX)/include
LIBDIR ?= $(PREFIX)/lib
LIBEXECDIR ?= $(PREFIX)/libexec
PKGDATADIR ?= $(PREFIX)/share/bpfkit
# systemd units: Debian 12 keeps the packages' in /lib (PREFIX=/usr).
UNITDIR ?= $(if $(filter /usr,$(PREFIX)),,$(PREFIX))/lib/systemd/system

INSTALLED := $(addprefix $(PROGRAM_PREFIX),$(TOOLS))
INSTALLED_MAN := $(INSTALLED:%=$(BUILD)/man/%.8)
COMPLETIONS := $(INSTALLED:%=$(BUILD)/completion/%)

# Man pages under the installed names: the .TH title, and a tool's name
# where it starts a line (the NAME line, commands in SYNOPSIS and EXAMPLES,
# .B and .BR references to any tool), take the prefix; the footer names
# this version.
MAN_RENAME := -e 's/^\.TH ([^ ]+)/.TH \U$(PROGRAM_PREFIX)\1\E/' \
	-e 's/^(\.TH .*)"bpfkit[^"]*"/\1"bpfkit $(VERSION)"/' \
	$(foreach t,$(TOOLS),-e 's/^(\.BR? )?$(subst -,\\?-,$(t))( |,|$$)/\1$(PROGRAM_PREFIX)$(t)\2/')

$(BUILD)/man $(BUILD)/completion:
	$(Q)mkdir -p $@

$(BUILD)/man/$(PROGRAM_PREFIX)%.8: man/%.8 debian/changelog | $(BUILD)/man
	$(call msg,MAN,$@)
	$(Q)sed -E $(MAN_RENAME) $< >$@.tmp && mv $@.tmp $@

# Bash completion from each tool's own --help (its argp table).
$(BUILD)/completion/$(PROGRAM_PREFIX)%: $(BIN)/% tools/gen-completion | $(BUILD)/completion
	$(call msg,GEN,$@)
	$(Q)tools/gen-completion $< $(PROGRAM_PREFIX)$* >$@.tmp && mv $@.tmp $@

.PHONY: install
install: all $(INSTALLED_MAN) $(COMPLETIONS)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 \
		$(DESTDIR)$(COMPLETIONDIR) $(DESTDIR)$(DOCDIR)
	$(foreach t,$(TOOLS),install -m 0755 $(BIN)/$(t) $(DESTDIR)$(SBINDIR)/$(PROGRAM_PREFIX)$(t) &&) true
	install -m 0644 $(INSTALLED_MAN) $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 $(COMPLETIONS) $(DESTDIR)$(COMPLETIONDIR)/
	install -m 0644 README.md LICENSE $(DESTDIR)$(DOCDIR)/
	install -d $(DESTDIR)$(UNITDIR)
	$(foreach t,$(TOOLS),tools/gen-unit $(BIN)/$(t) $(PROGRAM_PREFIX)$(t) man/$(t).8 $(SBINDIR) >$(BUILD)/unit.tmp && \
		{ [ ! -s $(BUILD)/unit.tmp ] || install -m 0644 $(BUILD)/unit.tmp '$(DESTDIR)$(UNITDIR)/$(PROGRAM_PREFIX)$(t)@.service'; } &&) rm -f $(BUILD)/unit.tmp

# bpfkit-dev: what a tool built outside the tree needs (see bpfkit.mk).
# The library's public headers are every user/lib/*.h and the BPF side's
# include/bpfkit/*.h; tools/new-tool --out, its template, and the test
# helpers and trigger programs its tests run come along.
DEV_HEADERS := $(wildcard user/lib/*.h)
DEV_BPF_HEADERS := $(wildcard include/bpfkit/*.h)
DEV_VMLINUX := $(wildcard vmlinux/*/vmlinux.h)
DEV_TRIGGERS := $(TESTBIN)/helpers/execas $(TESTBIN)/helpers/newtool-callsys
DEV_INCLUDEDIR := $(INCLUDEDIR)/bpfkit

$(BUILD)/bpfkit.pc: bpfkit.pc.in FORCE | $(BUILD)
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@LIBEXECDIR@|$(LIBEXECDIR)|' \
		-e 's|@PKGDATADIR@|$(PKGDATADIR)|' -e 's|@VERSION@|$(VERSION)|' \
		-e 's|@LDLIBS@|$(BPFKIT_LDLIBS)|' $< >$@.tmp
	$(Q)cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

.PHONY: install-dev
install-dev: check-arch check-deps $(LIB) $(DEV_TRIGGERS) $(BUILD)/bpfkit.pc
	install -d $(DESTDIR)$(DEV_INCLUDEDIR)/bpfkit $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(PKGDATADIR)/template $(DESTDIR)$(PKGDATADIR)/test \
		$(DESTDIR)$(LIBEXECDIR)/bpfkit
	install -m 0644 $(DEV_HEADERS) $(DESTDIR)$(DEV_INCLUDEDIR)/
	install -m 0644 $(DEV_BPF_HEADERS) $(DESTDIR)$(DEV_INCLUDEDIR)/bpfkit/
	$(foreach h,$(DEV_VMLINUX),install -D -m 0644 $(h) $(DESTDIR)$(DEV_INCLUDEDIR)/$(h) &&) true
	install -m 0644 $(LIB) $(DESTDIR)$(LIBDIR)/
	install -m 0644 $(BUILD)/bpfkit.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 0644 bpfkit.mk $(DESTDIR)$(PKGDATADIR)/
	install -m 0755 tools/new-tool tools/gen-syscall-table $(DESTDIR)$(PKGDATADIR)/
	install -m 0644 tools/template/* $(DESTDIR)$(PKGDATADIR)/template/
	install -m 0644 tests/integration/helpers.bash $(DESTDIR)$(PKGDATADIR)/test/
	install -m 0755 $(DEV_TRIGGERS) $(DESTDIR)$(LIBEXECDIR)/bpfkit/

# Debian packages from a clean export of the tracked files, in build/deb/.
DEB_DIR := $(BUILD)/deb

.PHONY: deb
deb:
	$(Q)tools/deps.sh build deb
	$(Q)rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	$(Q)git ls-files -z | tar --null -T - -cf - | tar -xf - -C $(DEB_DIR)/src
	$(Q)cd $(DEB_DIR)/src && dpkg-buildpackage -b -us -uc
	$(Q)lintian --fail-on error,warning $(DEB_DIR)/*.changes
	$(Q)ls -l $(DEB_DIR)/*.deb
# --- end install ---

# The C sources in the kernel's style (.clang-format); the template's
# @PLACEHOLDER@ files are C only once tools/new-tool fills them in.
FORMAT_SRCS = $(shell git ls-files '*.c' '*.h' | grep -v -e '^vmlinux/' -e '^tools/template/')

.PHONY: format check-format
format:
	$(Q)clang-format -i $(FORMAT_SRCS)
check-format:
	$(Q)clang-format --dry-run -Werror $(FORMAT_SRCS)

.PHONY: clean
clean:
	rm -rf $(BUILD)

.PHONY: FORCE
FORCE:

# Keep intermediate objects and skeletons; they are real build products.
.SECONDARY:

-include $(wildcard $(OBJ)/*/*.d)

# --- portability ---
# Portable CO-RE, proven (see README "Portability"):
#
#   make test-vm [VM_KERNEL=K]        integration suite in Debian's 6.1 kernel
#                                     (or K: 5.10, 6.1-rt, 6.12)
#   make portability [VM_KERNEL=K]    each tool once against a known trigger
#                                     in kernel K, or in each of
#                                     PORTABILITY_KERNELS, then their objects
#                                     compared (make -j4: the guests at once)
#   make check-repro                  clean builds give byte-identical objects
#   make min-btf [KERNEL_BTF=FILE]    $(BUILD)/btf/min.btf for BTF-less hosts
#   make bpf-skels                    only the BPF objects and skeletons

KERNEL_BTF ?= /sys/kernel/btf/vmlinux
VM_TIMEOUT ?= 2400
VM_KERNEL ?=
PORTABILITY_KERNELS ?= 5.10 6.1-rt 6.12 6.1
PORTABILITY_RUNS := $(or $(VM_KERNEL),$(PORTABILITY_KERNELS))
TOOL_BPF_OBJS := $(patsubst %,$(OBJ)/bpf/%.bpf.o,$(TOOLS))
BPF_SKELS := $(patsubst %,$(GEN)/%.skel.h,$(TOOLS) $(notdir $(TEST_PROGS)))


.PHONY: bpf-skels
bpf-skels: check-arch $(BPF_SKELS)

# Only the types our tools' CO-RE relocations touch, from KERNEL_BTF.
.PHONY: min-btf
min-btf: check-arch $(TOOL_BPF_OBJS)
	$(Q)mkdir -p $(BUILD)/btf
	$(call msg,MIN-BTF,$(BUILD)/btf/min.btf)
	$(Q)$(BPFTOOL) gen min_core_btf $(KERNEL_BTF) $(BUILD)/btf/min.btf.tmp \
		$(TOOL_BPF_OBJS)
	$(Q)mv $(BUILD)/btf/min.btf.tmp $(BUILD)/btf/min.btf

.PHONY: check-repro
check-repro:
	$(Q)tools/check-repro CLANG=$(CLANG)

.PHONY: test-vm
test-vm:
	$(Q)tools/deps.sh $(TEST_DEPS) vm
	$(Q)$(MAKE) --no-print-directory tests-build
	$(Q)tools/test-vm --build $(BUILD) --kernel $(or $(VM_KERNEL),6.1) \
		--timeout $(VM_TIMEOUT)

# One guest per kernel (each runs on one host CPU); a kernel's failures
# do not stop the others: the report at the end says them all.
.PHONY: portability portability-build
portability: $(addprefix portability-,$(PORTABILITY_RUNS))
	$(Q)tools/vm/portability-report $(BUILD) $(PORTABILITY_RUNS)

portability-build:
	$(Q)tools/deps.sh $(TEST_DEPS) vm
	$(Q)$(MAKE) --no-print-directory tests-build

portability-%: portability-build
	-$(Q)tools/test-vm --build $(BUILD) --kernel $* --portability \
		--timeout $(VM_TIMEOUT)
# --- end portability ---

# --- reliability ---
# make fuzz [FUZZ_SECONDS=4]   fuzz every tool's event formatter (tools/fuzz),
#                              FUZZ_SECONDS for each
# make valgrind                a short memcheck run of every tool
# make reliability             every tests/integration/reliability-*.bats
FUZZ_SECONDS ?= 4

.PHONY: fuzz valgrind reliability
fuzz: all
	$(Q)BPFKIT_BUILD=$(BUILD) tools/fuzz $(FUZZ_SECONDS)

valgrind: tests-build
	$(Q)BPFKIT_BUILD=$(BUILD) tests/run tests/integration/reliability-valgrind.bats

reliability: tests-build
	$(Q)BPFKIT_BUILD=$(BUILD) tests/run $(wildcard tests/integration/reliability-*.bats)
# --- end reliability ---
