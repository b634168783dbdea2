# SPDX-License-Identifier: GPL-2.0
# Shared by the file tools' tests (vfsstat, syncsnoop, filelife, filetop):
# start the file-trigger helper, which makes known file calls once $GO
# exists. Load after helpers.bash; set GO in setup.

# file_trigger VAR ACTION FILE [ARG...]: start `file-trigger COMM $GO
# ACTION FILE ARG...` (COMM a fresh name) and wait until it is ready; VAR
# is its pid, VAR_JOB its job (added to JOBS), VAR_COMM its name.
file_trigger() {
	local comm out=$BATS_TEST_TMPDIR/$1.pid
	comm=$(unique_comm)
	"$HELPERS/file-trigger" "$comm" "$GO" "${@:2}" >"$out" &
	printf -v "$1_JOB" %s "$!"
	JOBS+=" $!"
	printf -v "$1_COMM" %s "$comm"
	wait_for "$out" '^[0-9]+$' 5
	printf -v "$1" %s "$(head -1 "$out")"
}
