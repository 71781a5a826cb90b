# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# KUnit results as checks, for the KUnit tiers (check) and the QEMU guest
# whose kernel runs the suites at boot (boot).  Sourced, not run; needs
# TESTING and lib/tap.sh.

# kunit_py TREE ARG...: the tree's kunit.py, run from the tree.
kunit_py() {
	(cd "$1" && shift && python3 tools/testing/kunit/kunit.py "$@")
}

# kunit_checks NAME JSON LOG RC MIN: one check per test case of the JSON
# kunit.py wrote (kunit_cases.py: a parameterised case once per parameter),
# named "NAME: case"; a failed case shows what LOG, the kernel's output,
# says about it.  RC is kunit.py's exit status: non-zero with no failed case
# is a failure of its own, and so is a run of fewer than MIN cases, which
# lost a case or a suite.
kunit_checks() {
	local name=$1 json=$2 log=$3 rc=$4 min=$5 status case npass=0 nfail=0
	while IFS=$'\t' read -r status case; do
		case $status in
		PASS) pass "$name: $case"; npass=$((npass + 1)) ;;
		FAIL | ERROR) fail "$name: $case ($status)" \
			"$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -B2 -A12 -F "$case" | head -n 40)"
			nfail=$((nfail + 1)) ;;
		esac
	done < <([ ! -f "$json" ] || python3 "$TESTING/kunit_cases.py" "$json")
	if [ "$rc" != 0 ] && [ "$nfail" = 0 ]; then
		fail "$name: kunit.py exited $rc" "$(tail -n 30 "$log")"
	elif [ $((npass + nfail)) -lt "$min" ]; then
		fail "$name: ran $((npass + nfail)) cases, expected at least $min" "$(tail -n 30 "$log")"
	fi
}

# The number of cases (parameters included) the suites have, with the BKL
# and without: a run that loses a case or a suite fails.
# shellcheck disable=SC2034 # used by the scripts that source this file
readonly KUNIT_MIN_BKL=68 KUNIT_MIN_NOBKL=27

# CONFIG_BKL_WARN_UNANNOTATED, in the kernel log LOG of a run of the
# suites: every plain lock_kernel() call site is named once, however often
# it runs (bkl_race_fn takes the BKL in a loop in several threads).
unannotated_warned_once() {
	local log=$1 sites dups name="CONFIG_BKL_WARN_UNANNOTATED names each call site once"
	sites=$(sed -n 's/.*BKL: unannotated user \([^ ]*\) .*/\1/p' "$log")
	dups=$(sort <<<"$sites" | uniq -d)
	if [ -z "$dups" ] && [ "$(grep -c '^bkl_race_fn+' <<<"$sites")" = 1 ] &&
	   grep -q '^bkl_users_test_unannotated+' <<<"$sites"; then
		pass "$name"
	else
		fail "$name" "$(printf 'sites:\n%s\nrepeated:\n%s\n' "$sites" "$dups")"
	fi
}

# inversion_names_user LOG RESULTS: the run of bkl_users_lockdep with
# provoke_inversion=1 (its kernel log LOG, its KTAP results RESULTS) made
# lockdep report an inversion between a BKL user and a mutex: the report
# must name the user, not only kernel_lock_mutex.
inversion_names_user() {
	local log=$1 results=$2 report name="lockdep: an inversion report names the BKL user"
	report=$(sed -n '/possible circular locking dependency detected/,/stack backtrace/p' "$log")
	if grep -q '(bkl_users_kunit:bkl_users_test_ioctl)' <<<"$report" &&
	   grep -qE '^ *ok 1 bkl_users_test_inversion_names_user' "$results"; then
		pass "$name"
	else
		fail "$name" "$( (echo "$report"; tail -n 20 "$results") | head -n 40)"
	fi
}
