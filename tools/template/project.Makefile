# SPDX-License-Identifier: GPL-2.0
# @NAME@, built against bpfkit-dev by its bpfkit.mk:
#
#   make             build/bin/@NAME@
#   sudo make test   run @NAME@.bats (bats and jq)
#   make clean       remove build/

BPFKIT_TOOLS := @NAME@
include $(or $(shell pkg-config --variable=mk bpfkit),/usr/share/bpfkit/bpfkit.mk)
