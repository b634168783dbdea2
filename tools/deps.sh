#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Find bpfkit's Debian packages, and install the missing ones.
#
#   tools/deps.sh [--check] GROUP...   groups: build test clang19 vm bench
#                                      deb root containers
#
# Each group names every package its purpose uses, so that a stage that
# asks for its groups on a brand-new Debian 12 machine has all it needs:
#   build    make, the compilers and libraries (`make`, `make demo`;
#            libdw-dev: the symbols room, elfutils' libdwfl; libstdc++-12-dev:
#            its C++ demangler, __cxa_demangle),
#            binutils (new-tool checks symbols and SDT notes with nm, readelf)
#   test     everything `make test` runs: cmocka, bats, jq, the fuzzer's
#            runtime for clang 14, valgrind, gdb (channel.bats times a signal
#            with it), clang-format, cpio (new-tool.bats
#            copies the tree with it), util-linux's unshare and setpriv,
#            e2fsprogs (mkfs.ext4: fsslower.bats, fsdist.bats),
#            man-db (install.bats checks the man pages as lintian does),
#            systemtap-sdt-dev (<sys/sdt.h> for the USDT test helpers),
#            python3 (bashreadline.bats drives bash through its pty module;
#            pyimport.bats traces its USDT probes),
#            prometheus, prometheus-node-exporter, curl (metrics.bats: promtool,
#            a real Prometheus server and node_exporter's textfile collector),
#            systemd (systemd-units.bats: systemd-analyze verify and
#            security --offline on the unit templates),
#            iproute2 and nftables (the TCP tools' tests: network namespaces,
#            veth pairs, netem delays and drop rules inside them),
#            libxml2-utils, chromium and nodejs (profile.bats checks the flame
#            graph with xmllint, renders it headless, names node's JIT code),
#            g++ (profile.bats builds a C++ helper to see its names demangled)
#   clang19  clang-19 and its sanitizer/libFuzzer runtime (CLANG=clang-19)
#   vm       QEMU and what tools/vm-run packs into the guest's initramfs
#   bench    the peers make bench measures against (linux-perf: perf record
#            -g beside profile), and gnuplot
#   deb      make deb: build-essential (dpkg-buildpackage checks for it),
#            debhelper, dpkg-dev, lintian
#   root     tools/fresh-root: debootstrap
#   containers  containers.bats' runtime: podman, runc (crun refuses hybrid
#            cgroup layouts with a v2 controller), busybox-static (its image)
#
# As root with apt, missing packages are installed; otherwise (or with
# --check) the exact apt-get line is printed and the exit status is 1.
# Nothing is fetched from anywhere but the distribution's archive.
set -eu

check_only=0
if [ "${1:-}" = "--check" ]; then
	check_only=1
	shift
fi
[ $# -gt 0 ] || set -- build

pkgs=
for group in "$@"; do
	case $group in
	build) pkgs="$pkgs make gcc binutils libc6-dev clang llvm bpftool libbpf-dev libelf-dev libdw-dev libstdc++-12-dev zlib1g-dev libzstd-dev pkg-config linux-libc-dev" ;;
	test) pkgs="$pkgs libcmocka-dev bats jq util-linux e2fsprogs procps libclang-rt-dev valgrind gdb clang-format cpio man-db systemtap-sdt-dev python3 prometheus prometheus-node-exporter curl iproute2 nftables libxml2-utils chromium nodejs g++ systemd" ;;
	clang19) pkgs="$pkgs clang-19 libclang-rt-19-dev" ;;
	vm) pkgs="$pkgs qemu-system-x86 busybox-static kmod cpio xz-utils" ;;
	bench) pkgs="$pkgs libbpf-tools bpftrace gnuplot-nox linux-perf" ;;
	deb) pkgs="$pkgs build-essential debhelper dpkg-dev lintian" ;;
	root) pkgs="$pkgs debootstrap" ;;
	containers) pkgs="$pkgs podman runc busybox-static" ;;
	*) echo "deps.sh: unknown group '$group' (build test clang19 vm bench deb root containers)" >&2; exit 2 ;;
	esac
done

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps.sh: not a Debian system; install the equivalents of:$pkgs" >&2
	exit 1
fi

missing=
for p in $pkgs; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case $status in
	*" installed") ;;
	*) case " $missing " in *" $p "*) ;; *) missing="$missing $p" ;; esac ;;
	esac
done
[ -z "$missing" ] && exit 0

if [ "$check_only" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	echo "bpfkit: missing packages; install them with:" >&2
	echo "  sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends $missing >/dev/null 2>&1 || {
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends $missing
}
