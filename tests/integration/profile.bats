#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# profile: a spinner's hot function takes most samples, under main; the
# flame graph is valid XML with the hot function widest; JSON frames;
# --top; kernel stacks; a shared library, a stripped binary with its
# debug file by build-id, JIT code through node's perf map; full maps
# counted; --cgroup; bad options.

bats_require_minimum_version 1.5.0
load helpers

setup() {
	require_root
	JOBS=()
	DEBUG_FILE=
	PERF_MAP=
	CG=
}

eval "helpers_$(declare -f teardown)"
teardown() {
	local j i
	for j in "${JOBS[@]}"; do
		kill -KILL "$j" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	[ -z "${DEBUG_FILE:-}" ] || rm -f "$DEBUG_FILE"
	[ -z "${PERF_MAP:-}" ] || rm -f "$PERF_MAP"
	for d in ${CG:+"$CG/child" "$CG-sibling" "$CG"}; do
		for ((i = 0; i < 50; i++)); do
			rmdir "$d" 2>/dev/null && break
			sleep 0.1
		done
	done
	helpers_teardown
}

# spin CMD...: run CMD in the background; its pid in PID.
spin() {
	"$@" >/dev/null &
	PID=$!
	JOBS+=("$PID")
}

# profile_for ARG...: profile ARG... for 2 s (-d), stdout in $OUT, stderr
# in $ERR; its summary must add up.
profile_for() {
	OUT=$BATS_TEST_TMPDIR/out
	ERR=$BATS_TEST_TMPDIR/err
	"$BIN/profile" -d 2 "$@" >"$OUT" 2>"$ERR" || {
		sed 's/^/# /' "$ERR" >&3
		return 1
	}
	grep -Eq '^profile: [0-9]+ samples, 0 lost$' "$ERR" || {
		sed 's/^/# /' "$ERR" >&3
		return 1
	}
}

# share FILE REGEX: the share of the folded lines' samples in lines
# matching REGEX (extended).
share() {
	awk -v re="$2" '{ n = $NF; total += n; if ($0 ~ re) hit += n }
		END { printf "%.3f %d\n", total ? hit / total : 0, total }' "$1"
}

@test "profile: -p PID gives 70% of the samples to stacks ending in bk_hot_spin under main" {
	local runs all=$BATS_TEST_TMPDIR/all
	spin "$HELPERS/stack-spin" 120
	# A loaded machine leaves the spinner little CPU: enough 2 s runs
	# for 30 samples (at most 5), so that the share means something.
	: >"$all"
	for ((runs = 1; runs <= 5; runs++)); do
		profile_for -p "$PID"
		cat "$OUT" >>"$all"
		read -r _ total < <(share "$all" .)
		[ "$total" -lt 30 ] || break
	done
	read -r hot total < <(share "$all" ';main;bk_hot_spin [0-9]+$')
	read -r cold _ < <(share "$all" ';main;bk_cold_spin [0-9]+$')
	echo "# $total samples in $runs runs: bk_hot_spin $hot, bk_cold_spin $cold" >&3
	[ "$total" -ge 30 ]
	jq -en --argjson h "$hot" --argjson c "$cold" '$h >= 0.7 and $c < $h'
	# Folded: the command's name, then frames, then the count.
	grep -Eq '^stack-spin;([^;]+;)*main;bk_hot_spin [0-9]+$' "$OUT"
}

@test "profile: --svg writes valid XML where bk_hot_spin is the widest frame at its depth" {
	spin "$HELPERS/stack-spin" 60
	profile_for -p "$PID" --svg "$BATS_TEST_TMPDIR/p.svg"
	xmllint --noout "$BATS_TEST_TMPDIR/p.svg"
	# Frames: <g class="f" data-x=".." data-w="WIDTH" data-d="DEPTH" data-n="NAME">
	sed -n 's/^<g class="f" data-x="[^"]*" data-w="\([^"]*\)" data-d="\([^"]*\)" data-n="\([^"]*\)">.*/\1 \2 \3/p' \
		"$BATS_TEST_TMPDIR/p.svg" >"$BATS_TEST_TMPDIR/frames"
	grep -q ' bk_hot_spin$' "$BATS_TEST_TMPDIR/frames"
	read -r w d _ < <(grep ' bk_hot_spin$' "$BATS_TEST_TMPDIR/frames" | sort -rn | head -1)
	widest=$(awk -v d="$d" '$2 == d' "$BATS_TEST_TMPDIR/frames" | sort -rn | head -1)
	echo "# bk_hot_spin: width $w at depth $d; widest there: $widest" >&3
	[ "${widest##* }" = bk_hot_spin ]
	# The tooltip gives the name, count and share; the zoom script is in.
	grep -Eq '<title>bk_hot_spin \([0-9]+ samples, [0-9.]+%\)</title>' "$BATS_TEST_TMPDIR/p.svg"
	grep -q "addEventListener('click', zoom)" "$BATS_TEST_TMPDIR/p.svg"
}

@test "profile: the flame graph renders in headless Chromium" {
	host_only "Chromium rendering the SVG"
	browser=$(command -v chromium || command -v chromium-browser || true)
	[ -n "$browser" ] || skip "no chromium (Debian package chromium) to render the SVG"
	spin "$HELPERS/stack-spin" 60
	profile_for -p "$PID" --svg "$BATS_TEST_TMPDIR/p.svg"
	mkdir -p "$BUILD/test/artifacts"
	"$browser" --headless --no-sandbox --disable-gpu \
		--screenshot="$BUILD/test/artifacts/profile-flamegraph.png" \
		--window-size=1200,400 "file://$BATS_TEST_TMPDIR/p.svg" 2>/dev/null
	[ -s "$BUILD/test/artifacts/profile-flamegraph.png" ]
}

@test "profile: -j gives one object per stack with frames, -L their source lines" {
	spin "$HELPERS/stack-spin" 60
	profile_for -p "$PID" -j -L
	# Every line is JSON; the last is the summary.
	jq -e . "$OUT" >/dev/null
	tail -1 "$OUT" | jq -e '.type == "summary" and .lost == 0 and .samples > 0'
	jq -se --argjson pid "$PID" '[.[] | select(.type == null)] |
		length > 0 and all(.pid == $pid and .comm == "stack-spin" and .samples > 0)' "$OUT"
	jq -se '[.[] | select(.type == null) | .frames[-1] | select(.name == "bk_hot_spin")] |
		length > 0 and all(.module | endswith("/stack-spin")) and
		all(.kind == "user" and (.offset | type) == "number") and
		all(.file | endswith("tests/helpers/stack-spin.c")) and all(.line > 0)' "$OUT"
}

@test "profile: --top 2 lists bk_hot_spin first, then bk_cold_spin" {
	spin "$HELPERS/stack-spin" 60
	profile_for -p "$PID" -U --top 2
	[ "$(sed -n 1p "$OUT")" = "    PCT      samples  FUNCTION" ]
	[ "$(wc -l <"$OUT")" = 3 ]
	sed -n 2p "$OUT" | grep -Eq '^ *[0-9.]+% +[0-9]+  bk_hot_spin$'
	sed -n 3p "$OUT" | grep -Eq '^ *[0-9.]+% +[0-9]+  bk_cold_spin$'
}

@test "profile: -K gives kernel frames of a process in syscalls, and no user ones" {
	spin "$HELPERS/getppid-storm" 2000000000
	profile_for -p "$PID" -K
	grep -Eq '^getppid-storm;.*(do_syscall_64|entry_SYSCALL_64)' "$OUT"
	refute grep -q ';main' "$OUT"
}

@test "profile: a shared library's function resolves by name and module" {
	cat >"$BATS_TEST_TMPDIR/lib.c" <<'C'
volatile unsigned long bk_lib_sink;
void bk_lib_spin(void)
{
	for (unsigned long i = 0; i < 1000000; i++)
		bk_lib_sink += i;
}
C
	cat >"$BATS_TEST_TMPDIR/main.c" <<'C'
void bk_lib_spin(void);
int main(void)
{
	for (;;)
		bk_lib_spin();
}
C
	cc -O1 -shared -fPIC -o "$BATS_TEST_TMPDIR/libbkspin.so" "$BATS_TEST_TMPDIR/lib.c"
	cc -O1 -o "$BATS_TEST_TMPDIR/bk-lib-main" "$BATS_TEST_TMPDIR/main.c" \
		-L"$BATS_TEST_TMPDIR" -lbkspin -Wl,-rpath,"$BATS_TEST_TMPDIR"
	spin "$BATS_TEST_TMPDIR/bk-lib-main"
	profile_for -p "$PID" -U -j
	jq -se '[.[] | select(.type == null) | .frames[-1] | select(.name == "bk_lib_spin")] |
		length > 0 and all(.module | endswith("/libbkspin.so"))' "$OUT"
}

@test "profile: a stripped binary resolves through its debug file under /usr/lib/debug/.build-id" {
	cc -g -O2 -fno-omit-frame-pointer -Wl,--build-id -o "$BATS_TEST_TMPDIR/bk-stripped" \
		"$ROOT/tests/helpers/stack-spin.c"
	id=$(readelf -n "$BATS_TEST_TMPDIR/bk-stripped" | awk '/Build ID:/ { print $3 }')
	[ -n "$id" ]
	DEBUG_FILE=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
	mkdir -p "${DEBUG_FILE%/*}"
	objcopy --only-keep-debug "$BATS_TEST_TMPDIR/bk-stripped" "$DEBUG_FILE"
	strip --strip-all "$BATS_TEST_TMPDIR/bk-stripped"
	[ -z "$(nm "$BATS_TEST_TMPDIR/bk-stripped" 2>/dev/null | grep bk_hot_spin)" ]
	spin "$BATS_TEST_TMPDIR/bk-stripped" 60
	profile_for -p "$PID" -U
	grep -Eq '^bk-stripped;([^;]+;)*main;bk_hot_spin [0-9]+$' "$OUT"
}

@test "profile: a C++ method resolves demangled, bk::Spinner::hot_spin(int)" {
	command -v g++ >/dev/null || skip "no g++ (Debian package g++) to build a C++ helper"
	cat >"$BATS_TEST_TMPDIR/spin.cc" <<'CXX'
namespace bk {
struct Spinner {
	volatile unsigned long sink = 0;
	__attribute__((noinline)) void hot_spin(int rounds)
	{
		for (long i = 0; i < rounds * 1000000L; i++)
			sink += i;
	}
};
}
int main()
{
	bk::Spinner s;
	for (;;)
		s.hot_spin(1);
}
CXX
	g++ -O1 -fno-omit-frame-pointer -o "$BATS_TEST_TMPDIR/bk-cxx" "$BATS_TEST_TMPDIR/spin.cc"
	nm "$BATS_TEST_TMPDIR/bk-cxx" | grep -q '_ZN2bk7Spinner8hot_spinEi'
	spin "$BATS_TEST_TMPDIR/bk-cxx"
	profile_for -p "$PID" -U
	grep -Eq '^bk-cxx;([^;]+;)*bk::Spinner::hot_spin\(int\) [0-9]+$' "$OUT"
	refute grep -q '_ZN2bk' "$OUT"
}

@test "profile: -L shows an always_inline function as an inlined frame at its call's line" {
	cat >"$BATS_TEST_TMPDIR/inline.c" <<'C'
static volatile unsigned long bk_sink;

static inline __attribute__((always_inline)) void bk_inline_step(unsigned long i)
{
	bk_sink += i * i; /* the step */
}

__attribute__((noinline)) void bk_outer_spin(void)
{
	__asm__ volatile("" ::: "memory");
	for (unsigned long i = 0; i < 10000000; i++)
		bk_inline_step(i); /* the call */
}

int main(void)
{
	for (;;)
		bk_outer_spin();
}
C
	cc -g -O2 -fno-omit-frame-pointer -o "$BATS_TEST_TMPDIR/bk-inline" "$BATS_TEST_TMPDIR/inline.c"
	# No symbol of its own: only DWARF knows it.
	refute grep -q bk_inline_step <(nm "$BATS_TEST_TMPDIR/bk-inline")
	step=$(grep -n 'the step' "$BATS_TEST_TMPDIR/inline.c" | cut -d: -f1)
	call=$(grep -n 'the call' "$BATS_TEST_TMPDIR/inline.c" | cut -d: -f1)
	spin "$BATS_TEST_TMPDIR/bk-inline"
	profile_for -p "$PID" -U -L -j
	# As eu-stack -i shows it: the inlined function at the sampled line,
	# under the function it was inlined into at the call's line.
	jq -se --argjson step "$step" --argjson call "$call" '[.[] | select(.type == null) | .frames |
		select(.[-1].name == "bk_inline_step")] | length > 0 and
		all(.[-1].inlined == true and .[-1].line == $step and
		    (.[-1].file | endswith("/inline.c")) and
		    .[-2].name == "bk_outer_spin" and .[-2].line == $call and
		    (.[-2] | has("inlined") | not))' "$OUT"
	profile_for -p "$PID" -U -L
	grep -Eq "^bk-inline;([^;]+;)*bk_outer_spin \[inline.c:$call\];bk_inline_step \[inline.c:$step\] [0-9]+$" "$OUT"
}

@test "profile: a binary built without frame pointers is named once, [missing frame pointer?]" {
	cc -g -O2 -fomit-frame-pointer -o "$BATS_TEST_TMPDIR/bk-nofp" \
		"$ROOT/tests/helpers/stack-spin.c"
	spin "$BATS_TEST_TMPDIR/bk-nofp" 60
	profile_for -p "$PID" -U
	# Its stacks stop in bk_hot_spin, main lost.
	grep -Eq '^bk-nofp;bk_hot_spin [0-9]+$' "$OUT"
	[ "$(grep -c 'missing frame pointer' "$ERR")" = 1 ]
	grep -Fq "profile: [missing frame pointer?] user stacks in $BATS_TEST_TMPDIR/bk-nofp stop after 1 or 2 frames, outside main" "$ERR"
	# The same code built with frame pointers reaches main: no hint.
	spin "$HELPERS/stack-spin" 60
	profile_for -p "$PID" -U
	grep -Eq '^stack-spin;([^;]+;)*main;bk_hot_spin [0-9]+$' "$OUT"
	refute grep -q 'missing frame pointer' "$ERR"
}

@test "profile: node --perf-basic-prof's JIT function bkHotJs appears by name" {
	command -v node >/dev/null || skip "no node (Debian package nodejs) to run JIT code"
	cat >"$BATS_TEST_TMPDIR/hot.js" <<'JS'
function bkHotJs(n) {
	let s = 0;
	for (let i = 0; i < n; i++)
		s += i % 7;
	return s;
}
let t = 0;
for (;;)
	t += bkHotJs(1000000);
JS
	# In the test's directory: node writes its isolate log where it runs.
	spin sh -c 'cd "$1" && exec node --perf-basic-prof --no-turbo-inlining hot.js' \
		sh "$BATS_TEST_TMPDIR"
	# Until node has compiled it and written its perf map.
	PERF_MAP=/tmp/perf-$PID.map
	wait_for "$PERF_MAP" bkHotJs 10
	profile_for -p "$PID" -U -j
	jq -se '[.[] | select(.type == null) | .frames[] |
		select(.kind == "jit" and (.name | contains("bkHotJs")))] | length > 0' "$OUT"
}

@test "profile: full stack and counts maps are counted, not silent" {
	spin "$HELPERS/stack-spin" 60
	OUT=$BATS_TEST_TMPDIR/out
	ERR=$BATS_TEST_TMPDIR/err
	# One stack fits: every other one is lost, and says so.
	"$BIN/profile" -d 2 -p "$PID" --test-map-entries bpfkit_stacks=1 -j >"$OUT" 2>"$ERR"
	# 6.18 says E2BIG; 6.1 another error, named as it is.
	grep -Eq '^profile: [0-9]+ samples, 0 lost, [1-9][0-9]* stacks lost \((no room in the stack map|the stack map refused them: .+)\)$' "$ERR"
	tail -1 "$OUT" | jq -e '.stack_full > 0 and .lost == 0'
	jq -se '[.[] | select(.type == null) | .frames[] |
		select(.name == "[user stack lost: no room in the stack map]")] | length > 0' "$OUT"
	# One count fits: every sample of another key is lost.
	"$BIN/profile" -d 2 -p "$PID" --test-map-entries bpfkit_stack_counts=1 -j >"$OUT" 2>"$ERR"
	grep -Eq '^profile: [0-9]+ samples, ([1-9][0-9]*) lost \(\1 counts map full\)' "$ERR"
	[ "$(jq -s '[.[] | select(.type == null)] | length' "$OUT")" = 1 ]
	tail -1 "$OUT" | jq -e '.lost > 0 and .lost == .counts_full'
}

@test "profile: --cgroup samples a child cgroup's process, not its sibling's" {
	root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
	[ -n "$root" ] || skip "no cgroup v2 hierarchy mounted"
	CG=$root/bpfkit-test-$$-$RANDOM
	mkdir -p "$CG/child" "$CG-sibling"
	spin sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 60' sh "$CG/child" "$HELPERS/stack-spin"
	in=$PID
	spin sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" 60' sh "$CG-sibling" "$HELPERS/stack-spin"
	out=$PID
	profile_for --cgroup "$CG" -j
	jq -se --argjson in "$in" '[.[] | select(.type == null) | .pid] |
		length > 0 and all(. == $in)' "$OUT"
}

@test "profile: bad options are refused in one line, exit 2" {
	run -2 "$BIN/profile" -U -K
	[ "${#lines[@]}" = 1 ]
	[[ "$output" == "profile: -U and -K are exclusive; give one of them"* ]]
	run -2 "$BIN/profile" -F 0
	[[ "$output" == "profile: invalid -F/--frequency '0': expected a whole number from 1 to 100000" ]]
	run -2 "$BIN/profile" --svg /nonexistent-dir/p.svg
	[ "${#lines[@]}" = 1 ]
	[[ "$output" == "profile: invalid --svg '/nonexistent-dir/p.svg': /nonexistent-dir: No such file or directory; give a path in a writable directory" ]]
	run -2 "$BIN/profile" --svg /tmp
	[[ "$output" == "profile: invalid --svg '/tmp': not a regular file"* ]]
	run -2 "$BIN/profile" --top 0
	[ "${#lines[@]}" = 1 ]
}
