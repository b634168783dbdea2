# SPDX-License-Identifier: GPL-2.0
# Shared by the reliability tests (tests/integration/reliability-*.bats):
# every tool in $BIN is discovered, never listed, so tools added later are
# covered too. Load after helpers.

REL=$ROOT/tests/reliability

# tools: every tool binary in $BIN that this kernel runs (kernel_lacks),
# one name a line.
tools() {
	local t
	for t in "$BIN"/*; do
		[ -x "$t" ] && [ -f "$t" ] && ! kernel_lacks "${t##*/}" &&
			basename "$t"
	done
}

# offers TOOL OPTION: does TOOL's --help list --OPTION?
offers() {
	"$REL/options" "$BIN/$1" | cut -f2 | grep -qx -- "$2"
}

# event_tools: the tools that send records through the event channel.
event_tools() {
	local t
	for t in $(tools); do
		offers "$t" buffer-pages && echo "$t"
	done
}

# Prefix a command with "${NOBODY[@]}" to run it as an unprivileged user
# with no capabilities.
# shellcheck disable=SC2034 # used by the tests that load this file
NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)

# sanitized: was $BUILD built with SANITIZE=1?
sanitized() {
	grep -q fsanitize "$BUILD/user.flags" 2>/dev/null
}

# wait_tracing PID ERRFILE: wait (30 s times TIME_SCALE at most) until the
# tool PID says it is tracing in ERRFILE; fail at once if it exits first.
wait_tracing() {
	local i
	for ((i = 0; i < 300 * TIME_SCALE; i++)); do
		grep -q 'tracing; hit Ctrl-C to end' "$2" && return 0
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	return 1
}

# first_error ERRFILE: the first line of a tool's stderr that is not its
# "tracing" line, to show why it failed.
first_error() {
	grep -v -m1 'tracing; hit Ctrl-C to end' "$1" | cut -c1-200
}

# bpf_ids PID: the "prog ID", "map ID" and "link ID" lines of the BPF
# objects PID holds open, read from its fdinfo.
bpf_ids() {
	grep -hE '^(prog|map|link)_id:' /proc/"$1"/fdinfo/* 2>/dev/null |
		sed -E 's/^([a-z]+)_id:[[:space:]]*/\1 /' | sort -u
}

# live_ids: the same lines for every BPF object the kernel has now.
live_ids() {
	local kind
	for kind in prog map link; do
		bpftool -j "$kind" list 2>/dev/null |
			jq -r --arg k "$kind" '.[] | "\($k) \(.id)"'
	done | sort -u
}

# leftovers IDS_FILE: the lines of IDS_FILE still alive, waiting up to 5 s
# (times TIME_SCALE) for the kernel's deferred frees; prints them with
# their names.
leftovers() {
	local i left
	for ((i = 0; i < 50 * TIME_SCALE; i++)); do
		left=$(live_ids | comm -12 - "$1")
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	while read -r kind id; do
		echo "$kind $id $(bpftool -j "$kind" show id "$id" 2>/dev/null |
			jq -r '.name // .type // ""')"
	done <<<"$left"
}

# storm_args TOOL: the tool's own arguments in its tests/reliability/storms
# row (those that make it see rel-storm's events), or else its plain_args,
# one a line.
storm_args() {
	local row
	row=$(grep "^$1 " "$REL/storms") || {
		plain_args "$1"
		return 0
	}
	eval "set -- $row"
	shift 4
	[ $# = 0 ] || printf '%s\n' "$@"
}

# trigger_execs COMM: exec TRIGGER_ROUNDS programs named COMM (pre and
# post exec), and the rest of rel-storm's mix as many times; then as many
# TCP retransmits of COMM's in a network namespace of rel-storm's own
# (tcpretrans has no other source).
TRIGGER_ROUNDS=4
trigger_execs() {
	local link=$BATS_TEST_TMPDIR/$1
	ln -sf "$(readlink -f "$HELPERS/rel-storm")" "$link"
	echo "$TRIGGER_ROUNDS" | "$HELPERS/rel-storm" mix "$1" "$link" >/dev/null
	echo "$TRIGGER_ROUNDS" | "$HELPERS/rel-storm" retrans "$1" >/dev/null
}
