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
#   make new-tool NAME=x a new tool from the template
#   make bench           benchmarks against libbpf-tools and bpftrace
#   make install PREFIX=/usr/local DESTDIR=
#   make format          clang-format the tree (check-format: only check)

VERSION := 0.1.0

CLANG ?= clang
BPFTOOL ?= bpftool
CC ?= cc
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
BUILD ?= build

# The BPF target architecture, from the machine unless given.
ARCH ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
	-e 's/ppc64le/powerpc/' -e 's/riscv64/riscv/' -e 's/s390x/s390/' \
	-e 's/loongarch64/loongarch/')
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
BPF_CFLAGS := -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_$(ARCH) \
	-Iinclude -Ivmlinux/$(ARCH) -fdebug-prefix-map=$(CURDIR)=.
# clang -target bpf does not search the host's system include dirs.
CLANG_SYS_INCLUDES = $(shell $(CLANG) -v -E - </dev/null 2>&1 | \
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

# User side.
CFLAGS ?= -g -O2
USER_CFLAGS := $(CFLAGS) -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	-Werror -Iinclude -Iuser/lib -I$(GEN) -DBPFKIT_VERSION='"$(VERSION)"'
LDLIBS := -lbpf -lelf -lz
ifeq ($(STATIC),1)
LDFLAGS += -static
LDLIBS := $(shell $(PKG_CONFIG) --static --libs libbpf libelf 2>/dev/null || \
	echo -lbpf -lelf -lz) -lzstd
endif
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
	$(Q)tools/deps.sh build test

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
	$(Q)$(CLANG) $(BPF_CFLAGS) $(CLANG_SYS_INCLUDES) -MMD -MP -c $< -o $@

$(OBJ)/bpf/%.tmp.o: tests/progs/%.bpf.c $(VMLINUX) $(BUILD)/bpf.flags | $(OBJ)/bpf
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) $(CLANG_SYS_INCLUDES) -MMD -MP -c $< -o $@

$(OBJ)/bpf/%.bpf.o: $(OBJ)/bpf/%.tmp.o
	$(call msg,GEN-OBJ,$@)
	$(Q)$(BPFTOOL) gen object $@ $<

$(GEN)/%.skel.h: $(OBJ)/bpf/%.bpf.o | $(GEN)
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@.tmp
	$(Q)mv $@.tmp $@

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

$(TESTBIN)/helpers/%: tests/helpers/%.c $(BUILD)/user.flags | $(TESTBIN)/helpers $(OBJ)/test
	$(call msg,CC,$@)
	$(Q)$(CC) $(filter-out -fsanitize=% -fno-sanitize-recover=%,$(USER_CFLAGS) $(LDFLAGS)) -MMD -MP -MF $(OBJ)/test/helper-$*.d $< -o $@

.PHONY: tests-build
tests-build: all $(UNIT_TESTS) $(TEST_HELPERS) $(TEST_PROGS)

# The packages a test run needs: clang-19's runtime too when it builds.
TEST_DEPS := build test $(if $(filter clang-19,$(notdir $(CLANG))),clang19)

# The README's test command: deps, build, every test, one summary line.
.PHONY: test
test:
	$(Q)tools/deps.sh $(TEST_DEPS)
	$(Q)$(MAKE) --no-print-directory tests-build
	$(Q)BPFKIT_BUILD=$(BUILD) tests/run

# The README's demo command: deps, build, then hello-buffer until Ctrl-C
# (DEMO_ARGS='-d 5' stops it after 5 s, as tools/fresh-root does).
DEMO_ARGS ?=

.PHONY: demo
demo:
	$(Q)tools/deps.sh build
	$(Q)$(MAKE) --no-print-directory all
	$(BIN)/hello-buffer $(DEMO_ARGS)

# Make a new tool from tools/template/: make new-tool NAME=x [TRACEPOINT=c:e]
.PHONY: new-tool
new-tool:
	$(Q)tools/new-tool "$(NAME)" $(if $(TRACEPOINT),--tracepoint "$(TRACEPOINT)")

# Benchmarks against the peers (not part of make test); results in build/bench.
.PHONY: bench
bench:
	$(Q)tools/deps.sh build test
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

.PHONY: install
install: all
	install -d $(DESTDIR)$(PREFIX)/sbin $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 $(TOOL_BINS) $(DESTDIR)$(PREFIX)/sbin/
	$(if $(MAN_PAGES),install -m 0644 $(MAN_PAGES) $(DESTDIR)$(PREFIX)/share/man/man8/)

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
#   make test-vm                      integration suite in Debian's 6.1 kernel
#   make check-repro                  clean builds give byte-identical objects
#   make min-btf [KERNEL_BTF=FILE]    $(BUILD)/btf/min.btf for BTF-less hosts
#   make bpf-skels                    only the BPF objects and skeletons

KERNEL_BTF ?= /sys/kernel/btf/vmlinux
VM_TIMEOUT ?= 2400
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
	$(Q)tools/test-vm --build $(BUILD) --timeout $(VM_TIMEOUT)
# --- end portability ---

# --- reliability ---
# make fuzz [FUZZ_SECONDS=60]  fuzz every tool's event formatter (tools/fuzz)
# make valgrind                a short memcheck run of every tool
# make reliability             every tests/integration/reliability-*.bats
FUZZ_SECONDS ?= 60

.PHONY: fuzz valgrind reliability
fuzz: all
	$(Q)BPFKIT_BUILD=$(BUILD) tools/fuzz $(FUZZ_SECONDS)

valgrind: tests-build
	$(Q)BPFKIT_BUILD=$(BUILD) tests/run tests/integration/reliability-valgrind.bats

reliability: tests-build
	$(Q)BPFKIT_BUILD=$(BUILD) tests/run $(wildcard tests/integration/reliability-*.bats)
# --- end reliability ---
