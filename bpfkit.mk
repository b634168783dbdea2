# SPDX-License-Identifier: GPL-2.0
# bpfkit.mk: how a bpfkit tool is built. NAME.bpf.c goes through clang
# -target bpf against vmlinux.h, then `bpftool gen object` (which drops the
# DWARF) and `bpftool gen skeleton` into NAME.skel.h; NAME.c includes that
# skeleton and links libbpfkit.
#
# bpfkit's own Makefile includes this file for those steps (it sets
# BPFKIT_IN_TREE first). Installed by bpfkit-dev, where
# `pkg-config --variable=mk bpfkit` finds it, it also builds tools in their
# own directory against the installed library and headers:
#
#   BPFKIT_TOOLS := mytool          # mytool.bpf.c, mytool.c [, mytool.h]
#   include $(shell pkg-config --variable=mk bpfkit)
#
#   make          build/bin/mytool
#   make test     run ./*.bats as root (bats), with bpfkit's test helpers
#   make clean    remove build/
#
# CLANG=, BPFTOOL=, CC=, ARCH=, CFLAGS= and PKG_CONFIG= override the
# defaults; PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR find a bpfkit-dev
# installed under another root (make install-dev DESTDIR=...).

CLANG ?= clang
BPFTOOL ?= bpftool
PKG_CONFIG ?= pkg-config
BUILD ?= build

# The BPF target architecture, from the machine unless given.
ARCH ?= $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
	-e 's/ppc64le/powerpc/' -e 's/riscv64/riscv/' -e 's/s390x/s390/' \
	-e 's/loongarch64/loongarch/')

# Flags both kinds of build share, and the libraries every tool links.
BPFKIT_BPF_FLAGS := -g -O2 -Wall -Werror -target bpf -D__TARGET_ARCH_$(ARCH) \
	-fdebug-prefix-map=$(CURDIR)=.
BPFKIT_USER_FLAGS := -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror
BPFKIT_LDLIBS := -lbpf -lelf -lz
# clang -target bpf does not search the host's system include dirs.
CLANG_SYS_INCLUDES = $(shell $(CLANG) -v -E - </dev/null 2>&1 | \
	sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

# The three steps, each from $< to $@: $(call bpfkit_bpf_cc,FLAGS) with
# BPFKIT_BPF_FLAGS and the include dirs, then the object and the skeleton
# (hello-buffer's is struct hello_buffer_bpf).
bpfkit_bpf_cc = $(CLANG) $(1) $(CLANG_SYS_INCLUDES) -MMD -MP -c $< -o $@
bpfkit_gen_object = $(BPFTOOL) gen object $@ $<
bpfkit_gen_skel = $(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf \
	>$@.tmp && mv $@.tmp $@

ifndef BPFKIT_IN_TREE
ifneq ($(shell $(PKG_CONFIG) --exists bpfkit && echo yes),yes)
$(error bpfkit: pkg-config finds no bpfkit.pc; install bpfkit-dev, or point PKG_CONFIG_PATH at the directory holding bpfkit.pc)
endif
bpfkit_var = $(shell $(PKG_CONFIG) --variable=$(1) bpfkit)
BPFKIT_CFLAGS := $(shell $(PKG_CONFIG) --cflags bpfkit)
BPFKIT_LIBS := $(shell $(PKG_CONFIG) --libs bpfkit)
BPFKIT_VMLINUX := $(call bpfkit_var,vmlinuxdir)/$(ARCH)
CFLAGS ?= -g -O2

BPFKIT_BINS := $(addprefix $(BUILD)/bin/,$(BPFKIT_TOOLS))

.PHONY: all
all: $(BPFKIT_BINS)

$(BUILD) $(BUILD)/bin:
	mkdir -p $@

$(BUILD)/%.tmp.o: %.bpf.c | $(BUILD)
	@test -f $(BPFKIT_VMLINUX)/vmlinux.h || { echo "bpfkit: no $(BPFKIT_VMLINUX)/vmlinux.h for ARCH=$(ARCH); bpfkit-dev has: $$(ls $(dir $(BPFKIT_VMLINUX)) | tr '\n' ' ')" >&2; exit 1; }
	$(call bpfkit_bpf_cc,$(BPFKIT_BPF_FLAGS) -I$(BPFKIT_VMLINUX) $(BPFKIT_CFLAGS))

$(BUILD)/%.bpf.o: $(BUILD)/%.tmp.o
	$(bpfkit_gen_object)

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	$(bpfkit_gen_skel)

$(BUILD)/bin/%: %.c $(BUILD)/%.skel.h | $(BUILD)/bin
	$(CC) $(CPPFLAGS) $(CFLAGS) $(BPFKIT_USER_FLAGS) -I$(BUILD) \
		$(BPFKIT_CFLAGS) -MMD -MP -MF $(BUILD)/$*.d $(LDFLAGS) $< \
		$(BPFKIT_LIBS) -o $@

# The tests load helpers.bash and run the trigger programs bpfkit-dev
# ships, on the tools in $(BUILD)/bin.
.PHONY: test
test: all
	BPFKIT_BUILD=$(abspath $(BUILD)) \
	BPFKIT_TESTLIB=$(call bpfkit_var,testlibdir) \
	BPFKIT_HELPERS=$(call bpfkit_var,helperdir) \
		bats $(wildcard *.bats)

.PHONY: clean
clean:
	rm -rf $(BUILD)

# Keep the objects and skeletons between steps; they are build products.
.SECONDARY:

-include $(wildcard $(BUILD)/*.d)
endif
