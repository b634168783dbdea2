#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Portability, scheduler, stacks and interrupts: known CPU bursts and run
# queue waits, a 1 s block on a pipe with its waker, a spinner's hot
# function, a virtio device's interrupts and loopback NET_RX softirqs,
# each checked against what the helper did or the kernel's own counters;
# cpudist and offcputime again with --btf of 'make min-btf' for this
# kernel and the kernel's BTF hidden.

bats_require_minimum_version 1.5.0
load ../integration/helpers
load ../integration/histogram
load ../integration/burst
load helpers

# peak_holds_median FILE: the fullest bucket of FILE's histogram holds the
# burst helper A's median burst (its wall time; within 10%).
peak_holds_median() {
	local median
	median=$(awk '$1 == "median_burst_us" { print $2 }' "$BATS_TEST_TMPDIR/A")
	echo "# median burst $median us" >&3
	check_out --argjson us "$median" '
		[.[] | select(.type != "lost") | .buckets[]] | max_by(.count) |
		.min * 1000 <= $us * 1.1 and $us * 0.9 < (.max + 1) * 1000'
}

# cpudist_bursts [ARG...]: cpudist -m -j -p A ARG... over 1 s of 10 ms
# bursts of real-time helper A, 10 ms apart.
cpudist_bursts() {
	command -v chrt >/dev/null || skip "no chrt (util-linux)"
	BURST_ARGS=(10 10)
	burst A chrt -f 10
	launch cpudist -m -j -p "$A" "$@"
	go
	check_hist_json "$OUT" '(.unit == "msecs")'
	check_out 'length == 1 and .[0].count >= 20'
	peak_holds_median
}

# block_traced TOOL ARG...: TOOL -p PID -j ARG... while pipe-block (PID)
# blocks 1 s in read(2) until its child pipe-waker writes.
block_traced() {
	local go=$BATS_TEST_TMPDIR/go i
	# The waker lingers 5 s after its write, not 1: its memory maps must
	# still be there when the tool stops and names its frames, which a
	# loaded emulated guest can take over a second to get to.
	"$HELPERS/pipe-block" "$go" 1000 5000 >"$BATS_TEST_TMPDIR/pid" &
	PID=$!
	JOBS+=" $PID"
	await "$BATS_TEST_TMPDIR/pid" '^[0-9]+$'
	launch "$1" -p "$PID" -j "${@:2}"
	touch "$go"
	for ((i = 0; i < 100 * TIME_SCALE; i++)); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
}

# offcpu_checked: offcputime's JSON in $OUT has PID's 1 s in read(2),
# under bk_block_read and the kernel's pipe_read.
offcpu_checked() {
	check_out --argjson pid "$PID" '[.[] | select(.type == null) |
		select(any(.frames[]; .name == "bk_block_read"))] |
		length > 0 and all(.pid == $pid and .us > 0) and
		(map(.us) | add) >= 950000 and
		all(.frames | any(.kind == "kernel" and
			(.name | test("^(anon_)?pipe_read$"))))'
}

# btf_hidden_bin: BIN becomes wrappers that run each tool in a mount
# namespace where a tmpfs hides /sys/kernel/btf; MIN_BTF is 'make min-btf'
# for this kernel (tools/test-vm makes it on the host).
btf_hidden_bin() {
	MIN_BTF=${BPFKIT_MIN_BTF:-}
	[ -n "$MIN_BTF" ] ||
		skip "no minimized BTF of this kernel (BPFKIT_MIN_BTF, made by tools/test-vm --portability)"
	[ -s "$MIN_BTF" ] || {
		echo "# make min-btf for this kernel failed:" >&3
		sed 's/^/#   /' "$MIN_BTF.err" >&3
		false
	}
	local t dir=$BATS_TEST_TMPDIR/nobtf
	mkdir "$dir"
	for t in "$BIN"/*; do
		printf '#!/bin/sh\nexec unshare -m sh -c %s "%s" "$@"\n' \
			"'mount -t tmpfs none /sys/kernel/btf && exec \"\$0\" \"\$@\"'" \
			"$t" >"$dir/${t##*/}"
		chmod +x "$dir/${t##*/}"
	done
	BIN=$dir
}

@test "cpudist: 10 ms bursts peak in the bucket of the helper's median burst" {
	cpudist_bursts
}

@test "cpudist: the same with --btf of make min-btf's BTF for this kernel, kernel BTF hidden (#31 defect 2 on 5.10)" {
	btf_hidden_bin
	cpudist_bursts --btf "$MIN_BTF"
}

@test "runqlat: two spinners on one CPU wait milliseconds (#31 defect 1 on 5.10)" {
	BURST_ARGS=(1000 0)
	burst A taskset -c 1
	burst B taskset -c 1
	launch runqlat -j -p "$A"
	go
	check_hist_json "$OUT"
	check_out 'length == 1 and .[0].count >= 20'
	share=$(hist_time_share "$OUT" 512)
	echo "# share of their time in waits >= 512 us: $share" >&3
	jq -en --argjson s "$share" '$s >= 0.5'
}

@test "offcputime: 1 s blocked in read(2) on a pipe, under bk_block_read and pipe_read" {
	block_traced offcputime
	offcpu_checked
}

@test "offcputime: the same with --btf of make min-btf's BTF for this kernel, kernel BTF hidden (#31 defect 2 on 5.10)" {
	btf_hidden_bin
	block_traced offcputime --btf "$MIN_BTF"
	offcpu_checked
}

# One of the waker's wakeups is the pipe's, after the 1 s MS: in a loaded
# TCG guest the blocker can also wait 10-20 ms for the waker in other ways
# (6.12 once, right after the fork), each a record of its own with other
# frames. The host and the 6.1 guest's wakeuptime.bats check the rest.
@test "wakeuptime: blocked on a pipe, woken by pipe-waker's bk_wake_write" {
	block_traced wakeuptime
	check_out '[.[] | select(.type == null) | select(.comm == "pipe-waker")] |
		all(.target == "pipe-block" and .us > 0) and
		any(.us >= 900000 and (.frames | any(.name == "bk_wake_write")) and
			(.frames | any(.kind == "kernel" and
				(.name | test("^(anon_)?pipe_write$")))))'
}

@test "profile: a spinner's samples end in bk_hot_spin, with its pid" {
	"$HELPERS/stack-spin" 30 >/dev/null &
	PID=$!
	JOBS+=" $PID"
	OUT=$BATS_TEST_TMPDIR/out ERR=$BATS_TEST_TMPDIR/err
	status=0
	"$BIN/profile" -d 2 -p "$PID" -j >"$OUT" 2>"$ERR" || status=$?
	kill "$PID"
	sed 's/^/# profile: /' "$ERR" >&3
	[ "$status" = 0 ]
	check_out 'last | .type == "summary" and .lost == 0 and .samples > 0'
	check_out --argjson pid "$PID" '[.[] | select(.type == null)] |
		length > 0 and all(.pid == $pid and .comm == "stack-spin") and
		any(.frames[-1].name == "bk_hot_spin")'
}

# irqs NAME: the count of /proc/interrupts' lines naming NAME, all CPUs.
irqs() {
	awk -v n="$1" '$NF == n { for (i = 2; i <= NF; i++)
		if ($i ~ /^[0-9]+$/) s += $i; else break } END { print s + 0 }' \
		/proc/interrupts
}

@test "hardirqs: reads of the virtio-9p share count its interrupts, no more than the kernel did" {
	local d dev=
	for d in /sys/bus/virtio/devices/*; do
		[ "$(cat "$d/mount_tag" 2>/dev/null)" = cwd ] && dev=${d##*/}
	done
	[ -n "$dev" ] || skip "no virtio-9p share named cwd (tools/vm-run's)"
	grep -q " $dev-requests\$" /proc/interrupts ||
		skip "no $dev-requests line in /proc/interrupts"
	before=$(irqs "$dev-requests")
	launch hardirqs -j
	dd if="$BIN/hardirqs" of=/dev/null bs=4096 status=none
	stop_tool
	after=$(irqs "$dev-requests")
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.hardirq | type == "string") and (.irq >= 0)'
	echo "# /proc/interrupts: $dev-requests $before -> $after" >&3
	check_out --arg d "$dev-requests" --argjson n $((after - before)) '
		map(select(.hardirq == $d) | .count) | add | . > 0 and . <= $n'
}

# net_rx: NET_RX softirqs so far, all CPUs (/proc/softirqs).
net_rx() {
	awk '$1 == "NET_RX:" { for (i = 2; i <= NF; i++) s += $i }
		END { print s + 0 }' /proc/softirqs
}

@test "softirqs: loopback UDP counts net_rx, no more than the kernel did" {
	before=$(net_rx)
	launch softirqs -j
	"$HELPERS/udp-loop" 2000
	stop_tool
	after=$(net_rx)
	[ "$TOOL_STATUS" = 0 ]
	check_hist_json "$OUT" '(.softirq | type == "string")'
	echo "# /proc/softirqs: NET_RX $before -> $after" >&3
	check_out --argjson n $((after - before)) '
		map(select(.softirq == "net_rx") | .count) | add | . > 0 and . <= $n'
}
