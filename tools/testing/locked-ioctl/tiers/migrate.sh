# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tier migrate: scripts/bkl-migrate on the fixtures.

# scripts/bkl-migrate on fixtures/migrate/ where a kernel tree or build is
# needed: the converted fixtures checkpatch-clean, built against 6.12 with
# sparse, --build, make coccicheck; and the manifest's claims.  Its runs on
# the fixtures alone (before/ becomes after/, --dry-run, refusals, ...) are
# Python unittest cases (bkl_migrate_fixtures_test.py, tier unittest).

COCCI_DIR=$REPO/scripts/coccinelle/locked-ioctl
MIGRATE=$REPO/scripts/bkl-migrate

tier_migrate() {
	migrate_compile_check
	migrate_checkpatch
	migrate_refusals
	migrate_after_builds
	migrate_coccicheck
	migrate_claims
}

# The manifest's claims of what protects each target and what its compat
# path does (tools/testing/locked-ioctl/claims), on 6.12 and on 6.1, each as
# Debian ships it (a tree "make migrate" changed is not the one described).
migrate_claims() {
	local v k out rc
	for v in 6.12 6.1; do
		k=$(tree "$v")
		[ -f "$k/Kconfig" ] || setup_tree "$v" || continue
		if "$INSTALL/migrate" --status "$k" >/dev/null 2>&1; then
			echo "# manifest claims on $v: skipped, the tree is migrated"
			continue
		fi
		if out=$("$TESTING/claims" "$k" 2>&1); then
			pass "target manifest on $v: what protects each target and its compat path is so (${out##*claims: })"
		else
			fail "target manifest on $v: what protects each target and its compat path is so" "$out"
		fi
		[ "$v" = 6.12 ] || continue
		# a false claim of each kind is caught
		sed -e 's|^\(drivers/hwmon/fschmd.c\t.*\)\tnative\t\(-\t-\t-\)$|\1\t-\t\2|' \
		    -e 's|mutex_lock(&sfp->f_mutex);|mutex_lock(\&sfp->no_mutex);|' \
		    -e 's|^\(drivers/scsi/aacraid/linit.c\t[^\t]*\t[^\t]*\t\)annotated|\1none|' \
		    -e 's|^\(drivers/char/dtlk.c\t.*\)\ti386\t\([^\t]*\)\tm$|\1\t-\t\2\tm|' \
		    "$REPO/tools/locked-ioctl/targets" >"$BUILD/test/targets.false"
		rc=0
		out=$("$TESTING/claims" "$k" "$BUILD/test/targets.false" 2>&1) || rc=$?
		expect "target manifest: false claims are caught (compat, lock line, a candidate left, where it is built)" \
			test "$rc" = 1
		expect "target manifest: ... each of the four" \
			test "$(grep -cE "no_mutex.*not in drivers/scsi/sg.c|aac_cfg_open taking &aac_mutex|fschmd.c: has .compat_ioctl = compat_ptr_ioctl, manifest says none|dtlk.c: migration annotated, arch '-'" <<<"$out")" = 4
	done
}

# --build compiles each converted file in a configured build directory (the
# QEMU tier's x86_64 one) and keeps only what compiles: badsig_ioctl.c goes
# back as it was.
migrate_compile_check() {
	local fx=$TESTING/fixtures/migrate w=$BUILD/test/migrate exp=$BUILD/test/migrate-expected
	qemu_kernel || return
	rm -rf "$w" "$exp" && cp -r "$fx/before" "$w" && cp -r "$fx/after" "$exp"
	cp "$fx/before/badsig_ioctl.c" "$exp/"
	expect_exit "bkl-migrate --build: a file that does not compile is reported, exit 1" 1 \
		'^badsig_ioctl.c: failed, left as it was: does not compile: .*badsig_ioctl' \
		"$MIGRATE" --build "$(qemu_build)" --tree "$w"
	expect "bkl-migrate --build: what compiles is converted, the rest left as it was" \
		diff -ru "$exp" "$w"
	expect_exit "bkl-migrate --build: a directory without .config is refused" 2 \
		'not a configured kernel build directory' "$MIGRATE" --build "$fx" --tree "$w"
}

# The conversion is meant to be sent upstream: each converted file is
# checkpatch --strict clean where its original was.  Not a driver written
# for many kernel versions, whose HAVE_UNLOCKED_IOCTL the migration defines
# again for 5.9 and later with a test of LINUX_VERSION_CODE, which
# checkpatch rightly calls out of place upstream: such a driver is not.
migrate_checkpatch() {
	local fx=$TESTING/fixtures/migrate k f n=0 bad=""
	setup_tree 6.12 || return
	k=$(tree 6.12)
	for f in "$fx"/before/*.[ch]; do
		f=${f##*/}
		cmp -s "$fx/before/$f" "$fx/after/$f" && continue
		grep -q 'HAVE_UNLOCKED_IOCTL' "$fx/before/$f" && continue
		perl "$k/scripts/checkpatch.pl" --strict --no-tree -q -f "$fx/before/$f" >/dev/null 2>&1 || continue
		n=$((n + 1))
		perl "$k/scripts/checkpatch.pl" --strict --no-tree -q -f "$fx/after/$f" >/dev/null 2>&1 ||
			bad="$bad $f"
	done
	if [ -z "$bad" ] && [ "$n" -ge 5 ]; then
		pass "bkl-migrate: the $n converted fixtures that were checkpatch --strict clean still are"
	else
		fail "bkl-migrate: converted fixtures checkpatch --strict clean ($n checked)" "not clean:$bad"
	fi
	expect "bkl-migrate --annotate-driver-locks: the result is checkpatch --strict clean" \
		perl "$k/scripts/checkpatch.pl" --strict --no-tree -q -f "$fx"/after-annotate/*.c
}

# The test tools' own refusals (bkl-migrate's are unittest cases).
migrate_refusals() {
	expect_exit "check-legacy: a tree that is not Linux 2.6.34 is refused" 2 \
		'not a Linux 2.6.34 tree' "$TESTING/check-legacy" --no-whole --work "$BUILD/test/legacy" \
		"$(tree 6.12)"
	expect_exit "cross-root --help" 0 'Exit codes' "$TESTING/cross-root" --help
	expect_exit "cross-root: run without a made root says how to make it, exit 1" 1 \
		"no cross root at .*: run '.*cross-root setup' first" \
		env CROSS_ROOT="$BUILD/test/no-cross-root" "$TESTING/cross-root" run true
	expect_exit "cross-root: an unknown argument is refused, exit 1" 1 "unknown argument '--bogus'" \
		"$TESTING/cross-root" --bogus run true
}

# The converted files build against the QEMU tier's 6.12 kernel (CONFIG_BKL=y),
# sparse-clean, and bkl-users lists what the migration annotated.
migrate_after_builds() {
	local fx=$TESTING/fixtures/migrate copy=$BUILD/test/migrate-build log=$LOGS/migrate-build.log
	local mode
	qemu_kernel || return
	for mode in after after-shim after-annotate; do
		rm -rf "$copy" && mkdir -p "$copy"
		cp "$fx/$mode"/*.[ch] "$copy/"
		if [ "$mode" = after-annotate ]; then
			echo 'obj-m += prologue_mutex_ioctl.o open_mutex.o' >"$copy/Kbuild"
		else
			echo 'obj-m += old_ioctl.o noinode_ioctl.o narrow_ioctl.o inline_ioctl.o proto_ioctl.o driver_lock.o untouched.o gnu_ioctl.o enc_ioctl.o late_ioctl.o ifbrace_ioctl.o hdr_ioctl.o group_core.o group_dev.o shell_ioctl.o twoinit_ioctl.o unlockedsig_ioctl.o unsorted_ioctl.o comment_ioctl.o body_mutex_ioctl.o prologue_mutex_ioctl.o open_mutex.o' >"$copy/Kbuild"
		fi
		if module_build "$(qemu_src)" "$(qemu_build)" x86_64 "$copy" C=2 CHECK=sparse modules \
			>"$log" 2>&1; then
			if grep -qE '\.c:[0-9]+:[0-9]+: (warning|error): ' "$log" &&
			   grep -E '\.c:[0-9]+:[0-9]+: ' "$log" | grep -v 'defined but not used' >/dev/null; then
				fail "bkl-migrate: $mode/ builds sparse-clean against 6.12" "$(grep -E '\.c:[0-9]+:' "$log")"
			else
				pass "bkl-migrate: $mode/ builds sparse-clean against 6.12"
			fi
		else
			fail "bkl-migrate: $mode/ builds sparse-clean against 6.12" "$(grep -E 'error|\.c:' "$log" | head -n 30)"
		fi
	done
	expect "bkl-users lists the migrated drivers" lists_migrated "$fx/after"
}

# What scripts/bkl-users lists of the migrated fixtures: at least these
# users (KIND and the name without its module), the missing ones printed.
lists_migrated() {
	local json=$BUILD/test/migrated-fixtures.json got missing
	mkdir -p "$BUILD/test"
	"$BKL_USERS" --json "$1" >"$json" || return 1
	got=$("$RECORDS" select "$json" --print kind,name | sed 's/\t[^:\t]*:/\t/' | LC_ALL=C sort -u)
	missing=$(LC_ALL=C comm -23 - <(echo "$got") <<'WANT'
bkl-direct	comment_open_bkl
bkl-direct	inline_late_ioctl_bkl
bkl-direct	narrow_ioctl_bkl
bkl-direct	narrow_open_bkl
bkl-ioctl	comment_unlocked_ioctl
bkl-ioctl	group_generic_unlocked_ioctl
bkl-ioctl	hdr_unlocked_ioctl
bkl-ioctl	inline_ioctl
bkl-ioctl	noinode_unlocked_ioctl
bkl-ioctl	old_unlocked_ioctl
bkl-ioctl	proto_unlocked_ioctl
bkl-ioctl	shell_ioctl
bkl-ioctl	twoinit_unlocked_ioctl
bkl-ioctl	unlockedsig_unlocked_ioctl
bkl-ioctl	unsorted_unlocked_ioctl
replacement	body_intr_ioctl
replacement	body_ioctl
replacement	lock_compat_ioctl
replacement	lock_ioctl
replacement	lock_status_ioctl
WANT
)
	[ -z "$missing" ] || { echo "missing:"; echo "$missing"; echo "listed:"; echo "$got"; return 1; }
}

# The semantic patches work through the kernel's own "make coccicheck".
# The copy goes outside this repository: inside a git work tree spatch --dir
# lists files with git, which skips the ignored build/.
migrate_coccicheck() {
	local fx=$TESTING/fixtures/migrate w out
	local name="make coccicheck MODE=report runs our semantic patches"
	w=$(mktemp -d /tmp/locked-ioctl-coccicheck.XXXXXX)
	cp -r "$fx/before/." "$w/"
	out=$( (cd "$(tree 6.12)" &&
		make coccicheck MODE=report COCCI="$COCCI_DIR/ioctl_pushdown.cocci" M="$w" &&
		make coccicheck MODE=report COCCI="$COCCI_DIR/driver_lock_wrapper.cocci" M="$w" &&
		make coccicheck MODE=report COCCI="$COCCI_DIR/inline_pushdown.cocci" M="$w" &&
		make coccicheck MODE=report COCCI="$COCCI_DIR/driver_lock_inline.cocci" M="$w" &&
		make coccicheck MODE=report COCCI="$COCCI_DIR/bkl_user_annotate.cocci" M="$w") 2>&1) || true
	if [ "$(grep -c 'old_ioctl.c:[0-9]*:[0-9-]*: BKL-locked .ioctl handler old_ioctl' <<<"$out")" = 2 ] &&
	   grep -q 'proto_ioctl.c:.*BKL-locked .ioctl handler proto_ioctl' <<<"$out" &&
	   grep -q 'driver_lock.c:.*lock_ioctl holds one driver mutex.*DEFINE_LOCKED_IOCTL()' <<<"$out" &&
	   grep -q 'driver_lock.c:.*lock_compat_ioctl holds one driver mutex.*_INTERRUPTIBLE()' <<<"$out" &&
	   grep -q 'narrow_ioctl.c:.*narrow_ioctl takes the BKL itself' <<<"$out" &&
	   grep -q 'inline_ioctl.c:.*inline_ioctl pushes the BKL down inline' <<<"$out" &&
	   grep -q 'shell_ioctl.c:.*shell_ioctl pushes the BKL down inline' <<<"$out" &&
	   [ "$(grep -c 'pushes the BKL down inline' <<<"$out")" = 2 ] &&
	   grep -q 'body_mutex_ioctl.c:.*body_ioctl holds a driver mutex across its body: use DEFINE_LOCKED_IOCTL()' <<<"$out" &&
	   grep -q 'body_mutex_ioctl.c:.*body_intr_ioctl holds a driver mutex across its body: use DEFINE_LOCKED_IOCTL_INTERRUPTIBLE()' <<<"$out" &&
	   grep -q 'driver_lock.c:.*lock_status_ioctl holds a driver mutex across its body' <<<"$out" &&
	   ! grep -q 'prologue_mutex_ioctl.c:' <<<"$out" &&
	   grep -q 'narrow_ioctl.c:.*narrow_open takes the BKL itself' <<<"$out" &&
	   ! grep -q 'untouched.c:' <<<"$out"; then
		pass "$name"
	else
		fail "$name" "$out"
	fi
	rm -rf "$w"
}
