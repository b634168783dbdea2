#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# bashreadline: a line typed into an interactive bash on a pty arrives with
# that bash's pid; a binary without readline() is refused in one line.

bats_require_minimum_version 1.5.0
load helpers

PYTHON=/usr/bin/python3

setup() {
	require_root
	[ -x "$PYTHON" ] || skip "needs $PYTHON for its pty module (tools/deps.sh test)"
}

# type_into_bash LINE...: run an interactive /bin/bash (no rc files) on a
# new pty, type each LINE and then exit; its pid goes to $BATS_TEST_TMPDIR/bash.
type_into_bash() {
	timeout $((20 * TIME_SCALE)) "$PYTHON" - "$BATS_TEST_TMPDIR/bash" "$@" <<'PY'
import os, pty, sys

pid, fd = pty.fork()
if pid == 0:
    os.execve("/bin/bash", ["bash", "--norc", "--noprofile", "-i"],
              {"PS1": "$ ", "TERM": "dumb", "PATH": "/usr/bin:/bin"})
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % pid)
# The tty holds what is typed until readline reads it.
for line in sys.argv[2:] + ["exit"]:
    os.write(fd, line.encode() + b"\n")
# Read the terminal until bash is gone, so it never blocks writing to it.
while True:
    try:
        if not os.read(fd, 4096):
            break
    except OSError:
        break
os.waitpid(pid, 0)
PY
	read -r BASH_PID <"$BATS_TEST_TMPDIR/bash"
}

@test "bashreadline: a line typed into bash arrives with that bash's pid" {
	start_tool bashreadline
	type_into_bash "echo bk-unique-line"
	wait_for "$OUT" "^$BASH_PID +0 +bash +echo bk-unique-line\$" 5
	wait_for "$OUT" "^$BASH_PID +0 +bash +exit\$" 5
	stop_tool
	[ "$TOOL_STATUS" = 0 ]
	head -1 "$OUT" | grep -Eq '^PID +UID +COMM +LINE$'
	grep -Eq '^bashreadline: [0-9]+ events, 0 lost$' "$ERR"
}

@test "bashreadline: -j -c bash gives the line as JSON" {
	start_tool bashreadline -j -c bash
	type_into_bash "echo bk-unique-json"
	wait_for "$OUT" '"line":"exit"' 5
	stop_tool
	jq -es --argjson p "$BASH_PID" '
		map(select(.type == null)) |
		any(.[]; del(.cgroup_id, .mntns, .pidns, .pidns_pid) ==
			{pid: $p, uid: 0, comm: "bash",
			line: "echo bk-unique-json"}) and
		all(.[]; .comm == "bash")
	' "$OUT"
}

@test "bashreadline: a binary without readline() is refused in one line" {
	run --separate-stderr "$BIN/bashreadline" --shell /bin/true -d 1
	[ "$status" = 1 ]
	[ "${#stderr_lines[@]}" = 1 ]
	[ "$stderr" = "bashreadline: /bin/true has no function readline (nm -D /bin/true lists its symbols); give a binary that has it" ]
	[ -z "$output" ]
}

@test "bashreadline: --shell that is not a program: exit 2, one line" {
	run --separate-stderr "$BIN/bashreadline" --shell /etc/hostname
	[ "$status" = 2 ]
	[ "$stderr" = "bashreadline: invalid -s/--shell '/etc/hostname': not an ELF program or library; give the path of one" ]
}
