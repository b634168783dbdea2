#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hardirqs: O_DIRECT reads of a file on a disk move that disk's IRQ count,
# in the totals table and in JSON; -D, -i COUNT.

bats_require_minimum_version 1.5.0
load helpers
load histogram

setup() {
	require_root
}

# disk_irq: find the disk under the test's temp dir and the IRQ prefix of
# its device in /proc/interrupts (virtio1 -> virtio1-req.0) into IRQ_DEV,
# and write a file there to read; skip when there is no such disk.
disk_irq() {
	local src disk
	src=$(df --output=source "$BATS_TEST_TMPDIR" | tail -1)
	disk=$(lsblk -ndo PKNAME "$src" 2>/dev/null || true)
	[ -n "$disk" ] || disk=${src#/dev/}
	[ -e "/sys/block/$disk/device" ] ||
		skip "the temp dir is on no disk with a device ($src)"
	IRQ_DEV=$(basename "$(readlink "/sys/block/$disk/device")")
	grep -q " $IRQ_DEV" /proc/interrupts ||
		skip "no IRQ named after $disk's device $IRQ_DEV in /proc/interrupts"
	FILE=$BATS_TEST_TMPDIR/data
	dd if=/dev/zero of="$FILE" bs=1M count=4 oflag=direct status=none
}

# disk_io: 1024 O_DIRECT reads of 4 KiB from the disk.
disk_io() {
	dd if="$FILE" of=/dev/null bs=4096 iflag=direct status=none
}

@test "hardirqs: disk reads move the disk's IRQ count in the table" {
	disk_irq
	start_tool hardirqs
	disk_io
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^HARDIRQ +IRQ +TOTAL_usecs +COUNT +AVG$'
	awk -v d="$IRQ_DEV" 'index($1, d) == 1 && $4 > 0 { ok = 1 }
		END { exit !ok }' "$OUT"
}

@test "hardirqs: -j carries the disk IRQ's histogram and totals" {
	disk_irq
	start_tool hardirqs -j
	disk_io
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.hardirq | type == "string") and (.irq >= 0)'
	jq -es --arg d "$IRQ_DEV" '
		map(select(.hardirq | startswith($d)) | .count) | add > 0' "$OUT"
}

@test "hardirqs: -D prints a histogram per handler" {
	disk_irq
	start_tool hardirqs -D
	disk_io
	stop_tool
	grep -Eq "^hardirq = $IRQ_DEV[^ ]* irq = [0-9]+$" "$OUT"
	grep -Eq '^ +usecs +: count +distribution$' "$OUT"
}

@test "hardirqs: -i 1 3 prints exactly 3 intervals and exits 0" {
	run --separate-stderr timeout 20 "$BIN/hardirqs" -j -i 1 3
	[ "$status" = 0 ]
	[ "$(jq -s 'map(.interval) | unique' <<<"$output" | jq -c .)" = "[1,2,3]" ]
	check_hist_json <(echo "$output")
}
