# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tiers kunit-6.1, nobkl: the KUnit suites under UML.

# KUnit under UML, where it adds breadth to the suites the QEMU tier's
# x86_64 kernel runs at boot (boot): Linux 6.1, and CONFIG_BKL=n.  Each test
# case kunit.py reports counts as one check (lib/kunit.sh).

# run_kunit KVER BUILD_DIR MIN_CASES NAME CONFIG...
run_kunit() {
	local kver=$1 bdir=$2 min=$3 name="kunit $1 $4" log json rc=0 k c args=()
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
	kunit_checks "$name" "$json" "$log" "$rc" "$min"
}

# (uml-boot: the bench tier boots the same kernel)
tier_kunit_6_1() { run_kunit 6.1 "$BUILD/kunit-6.1" $KUNIT_MIN_BKL "BKL=y inline" bkl inline uml-boot; }
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
	if fixture_build "$(tree "$kver")" "$bdir" um bkl-users "$log" -j1; then
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
