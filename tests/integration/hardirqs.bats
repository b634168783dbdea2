#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# hardirqs: O_DIRECT reads of a file on a disk move that disk's IRQ count,
# in the totals table and in JSON, as /proc/interrupts counts them; -D,
# -i COUNT.

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

# dev_irqs: the interrupts so far on the disk's IRQ lines (those whose
# handler's name starts with IRQ_DEV), summed over CPUs: /proc/interrupts.
dev_irqs() {
	awk -v d="$IRQ_DEV" 'NR == 1 { cpus = NF; next }
		index($NF, d) == 1 { for (i = 2; i <= cpus + 1; i++) n += $i }
		END { print n + 0 }' /proc/interrupts
}

# ftrace_on: count the disk's handler runs the kernel's own tracer sees,
# irq:irq_handler_entry filtered to IRQ_DEV's handlers, in a tracefs
# instance of the test's own; ftrace_off: stop and put their number in
# FTRACE: the events in its buffer, and those it overwrote for want of
# room (overrun, which it counts).
ftrace_on() {
	local t
	for t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -d "$t/instances" ] && break
	done
	[ -d "$t/instances" ] || skip "no tracefs instances to count IRQs with"
	TRACE=$t/instances/bk-hardirqs-$$
	mkdir "$TRACE"
	echo "name ~ \"$IRQ_DEV*\"" >"$TRACE/events/irq/irq_handler_entry/filter"
	echo 1 >"$TRACE/events/irq/irq_handler_entry/enable"
}

ftrace_off() {
	echo 0 >"$TRACE/events/irq/irq_handler_entry/enable"
	FTRACE=$(cat "$TRACE"/per_cpu/cpu*/stats |
		awk '$1 == "overrun:" { n += $2 } END { print n + 0 }')
	FTRACE=$((FTRACE + $(grep -vc '^#' "$TRACE/trace" || true)))
	rmdir "$TRACE"
	TRACE=
}

eval "helpers_$(declare -f teardown)"
teardown() {
	[ -z "${TRACE:-}" ] || {
		echo 0 >"$TRACE/events/irq/irq_handler_entry/enable"
		rmdir "$TRACE"
	}
	helpers_teardown
}

# traced_io TOOL_ARG...: disk_io under hardirqs, with the kernel's own
# counts of the disk's interrupts read around it: /proc/interrupts' INNER
# from just after the tool attached to just before it was stopped, and
# OUTER from before it started to after it exited; and ftrace's FTRACE,
# the runs of the disk's handlers it saw in a window inside INNER's. The
# tool traced a window between the two, so its count of those runs is at
# least FTRACE (less the runs of its programs the kernel skipped and
# counted, MISSES) and at most OUTER, exactly; OUTER - INNER is what other
# I/O on this shared disk added while the tool started and stopped.
# The tool counts handler runs, as ftrace does; /proc/interrupts counts
# interrupts, before a handler runs. Under CI's load INNER has exceeded
# the tool's count (1024 against 1003 and 945) with no runs skipped; why
# is not known here, and ftrace, beside it, says whether the handlers ran.
traced_io() {
	local outer0 inner0
	outer0=$(dev_irqs)
	start_tool hardirqs "$@"
	inner0=$(dev_irqs)
	ftrace_on
	disk_io
	ftrace_off
	INNER=$(($(dev_irqs) - inner0))
	# The runs the kernel skipped (recursion_misses): not counted, but
	# counted by the kernel.
	MISSES=$(bpftool prog show -j | jq '[.[] |
		select(.name == "irq_handler_entry" or .name == "irq_handler_exit") |
		.recursion_misses // 0] | add // 0')
	stop_tool
	OUTER=$(($(dev_irqs) - outer0))
	[ "$TOOL_STATUS" = 0 ]
}

# in_bounds COUNT: COUNT is within [FTRACE - MISSES, OUTER], and the reads
# made interrupts.
in_bounds() {
	echo "# $IRQ_DEV: hardirqs counted $1 (the kernel skipped $MISSES runs); ftrace saw $FTRACE handler runs inside /proc/interrupts' $INNER while it surely traced, $OUTER around it" >&3
	# What the tool said besides, such as keys the map found no room for.
	grep -v 'tracing; hit Ctrl-C to end' "$ERR" | sed 's/^/# hardirqs: /' >&3 || true
	[ "$FTRACE" -gt 0 ]
	[ "$1" -ge $((FTRACE - MISSES)) ]
	[ "$1" -le "$OUTER" ]
}

@test "hardirqs: the table counts the disk's interrupts as /proc/interrupts does" {
	disk_irq
	traced_io
	head -1 "$OUT" | grep -Eq '^HARDIRQ +IRQ +TOTAL_usecs +COUNT +AVG$'
	in_bounds "$(awk -v d="$IRQ_DEV" 'NR > 1 && index($1, d) == 1 { n += $4 }
		END { print n + 0 }' "$OUT")"
}

@test "hardirqs: -j carries the disk IRQ's histogram and totals, as /proc/interrupts counts" {
	disk_irq
	traced_io -j
	check_hist_json "$OUT" '(.hardirq | type == "string") and (.irq >= 0)'
	in_bounds "$(jq -s --arg d "$IRQ_DEV" '
		map(select(.hardirq | startswith($d)) | .count) | add // 0' "$OUT")"
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
