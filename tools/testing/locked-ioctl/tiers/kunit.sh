# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tiers kunit-6.12, kunit-6.1, nobkl: the KUnit suites under UML.

# KUnit under UML.  Each test case kunit.py reports counts as one check: read
# from the JSON it writes (kunit_cases.py), the log only for what a failed
# case printed.

# kunit_py TREE ARG...: the tree's kunit.py, run from the tree.
kunit_py() {
	(cd "$1" && shift && python3 tools/testing/kunit/kunit.py "$@")
}

# run_kunit KVER BUILD_DIR MIN_CASES NAME CONFIG...
run_kunit() {
	local kver=$1 bdir=$2 min=$3 name="kunit $1 $4" log json rc=0 npass=0 nfail=0 k c
	local status case args=()
	shift 4
	for c in "$@"; do args+=(--kunitconfig="$TESTING/kunit/$c.kunitconfig"); done
	k=$(tree "$kver")
	log=$LOGS/$(basename "$bdir").log json=$LOGS/$(basename "$bdir").json
	setup_tree "$kver" || return 1
	if ! "$INSTALL/apply" -q "$k" >"$log" 2>&1; then
		fail "apply onto linux-source-$kver" "$(cat "$log")"
		return 1
	fi
	rm -f "$json"
	progress --objects-in "$bdir" "$name: UML build and run" "$log" \
		kunit_py "$k" run --build_dir="$bdir" "${args[@]}" --jobs="$JOBS" --timeout=600 \
		--json="$json" || rc=$?
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

# The number of cases (parameters included) the suites have: a run that
# loses a case or a suite fails.
readonly KUNIT_MIN_BKL=68 KUNIT_MIN_NOBKL=27

tier_kunit_6_12() {
	run_kunit 6.12 "$BUILD/kunit-6.12" $KUNIT_MIN_BKL "BKL=y" bkl stats atomic-sleep uml-boot || return
	# The registry lines the suite printed, for the bkl-users tier.
	cp "$BUILD/kunit-6.12/test.log" "$LOGS/kunit-6.12-test.log"
	unannotated_warned_once "$LOGS/kunit-6.12-test.log"
	lockdep_report_names_user
}

# CONFIG_BKL_WARN_UNANNOTATED: every plain lock_kernel() call site is named
# once, however often it runs (bkl_race_fn takes the BKL in a loop in
# several threads).
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

# A second boot of the same kernel runs only bkl_users_lockdep, which makes
# lockdep report an inversion between a BKL user and a mutex: the report
# must name the user, not only kernel_lock_mutex.
lockdep_report_names_user() {
	local bdir=$BUILD/kunit-6.12 log=$LOGS/kunit-6.12-lockdep.log report
	local name="lockdep: an inversion report names the BKL user"
	kunit_py "$(tree 6.12)" exec --build_dir="$bdir" \
		--kernel_args=bkl_users_kunit.provoke_inversion=1 --raw_output=all \
		--timeout=300 bkl_users_lockdep >"$log" 2>&1 || true
	report=$(sed -n '/possible circular locking dependency detected/,/stack backtrace/p' "$log")
	if grep -q '(bkl_users_kunit:bkl_users_test_ioctl)' <<<"$report" &&
	   grep -qE '^ *ok 1 bkl_users_test_inversion_names_user' "$log"; then
		pass "$name"
	else
		fail "$name" "$( (echo "$report"; tail -n 20 "$log") | head -n 40)"
	fi
}
tier_kunit_6_1() { run_kunit 6.1 "$BUILD/kunit-6.1" $KUNIT_MIN_BKL "BKL=y inline" bkl inline; }
tier_nobkl() {
	run_kunit 6.1 "$BUILD/kunit-6.1-nobkl" $KUNIT_MIN_NOBKL "BKL=n" nobkl || return
	wrapper_hooks_inline "$BUILD/kunit-6.1-nobkl"
	bkl_users_must_fail 6.1 "$BUILD/kunit-6.1-nobkl"
	bkl_module_builds 6.1 "$BUILD/kunit-6.1-nobkl"
}

# Without lockdep and counters the generic wrappers are the mutex calls
# themselves: the suite's object calls mutex_lock(), no out-of-line hook.
wrapper_hooks_inline() {
	local o=$1/lib/locked_ioctl_kunit.o und name
	name="kunit 6.1 BKL=n: without lockdep and counters DEFINE_LOCKED_IOCTL() calls mutex_lock() inline"
	und=$(nm -u "$o" 2>&1) || { fail "$name" "$und"; return; }
	if grep -qw '__locked_ioctl_lock' <<<"$und" || ! grep -qw 'mutex_lock' <<<"$und"; then
		fail "$name" "$(grep -E 'mutex|locked_ioctl' <<<"$und")"
	else
		pass "$name"
	fi
}

# The repository's Kbuild, with the files "make modules" stages: bkl.ko and
# the test drivers, out of tree, against a kernel with the layer and
# CONFIG_BKL=n.
bkl_module_builds() {
	local kver=$1 bdir=$2 copy=$BUILD/test/bkl-module log=$LOGS/bkl-module.log
	local name="Kbuild: bkl.ko and locked_ioctl_test.ko build out of tree (M=) against a kernel without the BKL"
	rm -rf "$copy"
	"$INSTALL/modules" --dkms-source "$copy" >/dev/null
	if module_build "$(tree "$kver")" "$bdir" um "$copy" >"$log" 2>&1 &&
	   [ -f "$copy/bkl.ko" ] && [ -f "$copy/locked_ioctl_test.ko" ]; then
		pass "$name"
	else
		fail "$name" "$(tail -n 30 "$log")"
	fi
}

# With CONFIG_BKL=n each way into the BKL fails, with the layer's message as
# the first error of that file (built one at a time, so the output is in order).
bkl_users_must_fail() {
	local kver=$1 bdir=$2 log=$LOGS/bkl-users-nobkl.log f first
	local msg='error: .*this code depends on the Big Kernel Lock: convert it \(see Documentation/locking/locked-ioctl.rst\) or enable CONFIG_BKL'
	if fixture_build "$kver" "$bdir" bkl-users "$log" -j1; then
		fail "CONFIG_BKL=n: the BKL users fail to build" "$(cat "$log")"
		return
	fi
	for f in uses_lock_kernel uses_define_bkl_ioctl uses_deprecated_ioctl; do
		first=$(awk -v o="/$f.o" '/ CC \[M\] / { on = index($0, o) > 0; next } on' "$log" |
			grep -m1 'error:' || true)
		if grep -qE "$msg" <<<"$first"; then
			pass "CONFIG_BKL=n: $f.c fails with the layer's message"
		else
			fail "CONFIG_BKL=n: $f.c fails with the layer's message" "first error: $first"
		fi
	done
}
