# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# TAP-like checks: "ok - NAME" / "not ok - NAME", counted in PASSED and
# FAILED, which the sourcing script prints at its end.  Sourced, not run.

PASSED=0 FAILED=0

pass() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
fail() {
	FAILED=$((FAILED + 1))
	echo "not ok - $1"
	[ $# -lt 2 ] || printf '%s\n' "$2" | head -n 40 | sed 's/^/#   /'
}
# expect NAME COMMAND...: one check that passes when COMMAND succeeds.
expect() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

# expect_exit NAME CODE PATTERN COMMAND...: COMMAND exits CODE and says PATTERN.
expect_exit() {
	local name=$1 code=$2 pattern=$3 out rc=0
	shift 3
	out=$("$@" 2>&1) || rc=$?
	if [ "$rc" = "$code" ] && grep -qE -- "$pattern" <<<"$out"; then
		pass "$name"
	else
		fail "$name" "exit $rc; $out"
	fi
}

# count_tap COMMAND...: COMMAND's "ok - " and "not ok - " lines counted as
# our checks, the rest of its output shown.
count_tap() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass "${line#ok - }" ;;
		"not ok - "*) FAILED=$((FAILED + 1)); echo "$line" ;;
		*" passed, "*" failed") ;;
		*) echo "$line" ;;
		esac
	done < <("$@" 2>&1)
}
