# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tier migrate: scripts/bkl-migrate on the fixtures.

# scripts/bkl-migrate and the semantic patches, on fixtures we wrote: before/
# must become after/ (after-shim/ with --shim), look-alikes must not change.

MIGRATE=$REPO/scripts/bkl-migrate
COCCI_DIR=$REPO/scripts/coccinelle/locked-ioctl

tier_migrate() {
	local fx=$TESTING/fixtures/migrate w=$BUILD/test/migrate out mode exp
	local args
	for mode in bkl shim; do
		args=() exp=$fx/after
		[ $mode = bkl ] || { args=(--shim); exp=$fx/after-shim; }
		rm -rf "$w" && cp -r "$fx/before" "$w"
		# extern_ioctl.c cannot be converted: exit 1, that file untouched.
		expect_exit "bkl-migrate ${args[*]}: reports the file it cannot convert, exit 1" 1 \
			'^extern_ioctl.c: failed, left as it was: a group: extern_ioctl is defined in no file under .*: convert it by hand' \
			"$MIGRATE" "${args[@]}" --jobs "$JOBS" --tree "$w"
		expect "bkl-migrate ${args[*]}: before/ becomes ${exp##*/}/" diff -ru "$exp" "$w"
		snapshot "$w" >"$BUILD/test/migrate.sum"
		out=$("$MIGRATE" "${args[@]}" --tree "$w" 2>&1) || true
		if grep -q ' 0 converted, 1 failed' <<<"$out" &&
		   snapshot "$w" | cmp -s - "$BUILD/test/migrate.sum"; then
			pass "bkl-migrate ${args[*]}: a second run changes nothing"
		else
			fail "bkl-migrate ${args[*]}: a second run changes nothing" "$out"
		fi
	done
	migrate_compile_check
	migrate_dry_run
	migrate_no_leak
	migrate_group_alone
	migrate_annotate_driver_locks
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
# UML one) and keeps only what compiles: badsig_ioctl.c goes back as it was.
migrate_compile_check() {
	local fx=$TESTING/fixtures/migrate w=$BUILD/test/migrate exp=$BUILD/test/migrate-expected
	[ -f "$BUILD/kunit-6.12/.config" ] || tier_kunit_6_12
	rm -rf "$w" "$exp" && cp -r "$fx/before" "$w" && cp -r "$fx/after" "$exp"
	cp "$fx/before/badsig_ioctl.c" "$exp/"
	expect_exit "bkl-migrate --build: a file that does not compile is reported, exit 1" 1 \
		'^badsig_ioctl.c: failed, left as it was: does not compile: .*badsig_ioctl' \
		"$MIGRATE" --build "$BUILD/kunit-6.12" --tree "$w"
	expect "bkl-migrate --build: what compiles is converted, the rest left as it was" \
		diff -ru "$exp" "$w"
	expect_exit "bkl-migrate --build: a directory without .config is refused" 2 \
		'not a configured kernel build directory' "$MIGRATE" --build "$fx" --tree "$w"
}

# --dry-run prints the change of each converted file and writes nothing; the
# summary notes a compat entry point that calls the old handler and now
# takes the BKL too (seed 004's mraid_mm had it without), and no such note
# where there is none; the
# bkl-users candidates the rules cannot take and ioctls that take a
# file-scope mutex after other work are listed as skipped; gcc-style
# designators are converted; an old .ioctl that is left is said, one that
# today's kernels build only because 5.9 dropped HAVE_UNLOCKED_IOCTL gets the
# macro back.
migrate_dry_run() {
	local fx=$TESTING/fixtures/migrate w=$BUILD/test/migrate out
	local name="bkl-migrate --dry-run: prints the diffs, writes nothing"
	rm -rf "$w" && cp -r "$fx/before" "$w"
	out=$("$MIGRATE" --dry-run --tree "$w" 2>&1) || true
	if diff -r "$fx/before" "$w" >/dev/null &&
	   grep -q '^+++ b/old_ioctl.c' <<<"$out" && ! grep -q '^+++ b/extern_ioctl.c' <<<"$out" && grep -q '^+++ b/driver_lock.c' <<<"$out" &&
	   grep -q '^+++ b/Kconfig' <<<"$out" && ! grep -q '^+++ b/untouched.c' <<<"$out" &&
	   grep -q '^+DEFINE_LOCKED_IOCTL(lock_ioctl, lock_do_ioctl, &lock_mutex);' <<<"$out" &&
	   grep -q '^old_ioctl.c: note: old_compat calls old_ioctl, which the native entry point now runs under the BKL: it takes the BKL too (DEFINE_BKL_IOCTL)' <<<"$out" &&
	   [ "$(grep -c ': note: ' <<<"$out")" = 1 ] &&
	   grep -q '^untouched.c: skipped: un_more_ioctl holds &un_mutex' <<<"$out" &&
	   grep -q '^untouched.c: skipped: un_arg_ioctl holds &un_mutex' <<<"$out" &&
	   grep -q '^prologue_mutex_ioctl.c: skipped: pro_copy_ioctl takes the file-scope mutex &pro_mutex' <<<"$out" &&
	   grep -q '^prologue_mutex_ioctl.c: skipped: pro_narrow_ioctl takes the file-scope mutex &pro_mutex' <<<"$out" &&
	   grep -q '^body_mutex_ioctl.c: converted: DEFINE_LOCKED_IOCTL(body_ioctl), DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(body_intr_ioctl)' <<<"$out" &&
	   grep -q '^open_mutex.c: skipped: om_open takes &om_mutex, a file-scope mutex that only the file.s operations take' <<<"$out" &&
	   grep -q '^open_mutex.c: skipped: om_release takes &om_mutex' <<<"$out" &&
	   grep -q '^open_mutex.c: skipped: om_set takes &om_mutex' <<<"$out" &&
	   grep -q '^untouched.c: skipped: un_not_ioctl takes &un_mutex' <<<"$out" &&
	   [ "$(grep -c ': skipped: ' <<<"$out")" = 8 ] &&
	   grep -q '^gnu_ioctl.c: converted: DEFINE_BKL_IOCTL(gnu_unlocked_ioctl)' <<<"$out" &&
	   grep -q '^left_ioctl.c: left: an old .ioctl = left_ioctl is not converted' <<<"$out" &&
	   grep -q '^multiver_ioctl.c: converted: HAVE_UNLOCKED_IOCTL defined again for Linux 5.9 and later$' <<<"$out" &&
	   grep -q '^multiver_ioctl.c: nothing to do: .ioctl = multiver_ioctl stays for kernels before 2.6.11' <<<"$out" &&
	   [ "$(grep -c ': left: ' <<<"$out")" = 1 ]; then
		pass "$name"
	else
		fail "$name" "$out"
	fi
}

# --annotate-driver-locks: the ioctls that take a file-scope mutex no
# wrapper can take, and open(), release() and an ioctl's helper that take a
# mutex as the BKL pushdown left one (and no look-alike: a mutex that
# registration takes too, or one only tried), get DEFINE_DRIVER_LOCK_USER(),
# checkpatch-clean, and a second run changes nothing.
migrate_annotate_driver_locks() {
	local fx=$TESTING/fixtures/migrate w=$BUILD/test/migrate-annotate out f
	local name="bkl-migrate --annotate-driver-locks: before/ becomes after-annotate/"
	rm -rf "$w" && mkdir -p "$w" && cp "$fx"/after-annotate/*.c "$w/"
	for f in "$w"/*.c; do cp "$fx/before/${f##*/}" "$f"; done
	out=$("$MIGRATE" --annotate-driver-locks --tree "$w" "$w"/*.c 2>&1) || true
	if diff -ru "$fx/after-annotate" "$w" >"$LOGS/annotate.diff" &&
	   grep -q '^prologue_mutex_ioctl.c: converted: DEFINE_DRIVER_LOCK_USER(pro_copy_ioctl_lock, pro_narrow_ioctl_lock)$' <<<"$out" &&
	   grep -q '^open_mutex.c: converted: DEFINE_DRIVER_LOCK_USER(om_open_lock, om_release_lock, om_set_lock)$' <<<"$out"; then
		pass "$name"
	else
		fail "$name" "$out$(cat "$LOGS/annotate.diff")"
	fi
	out=$("$MIGRATE" --annotate-driver-locks --tree "$w" "$w"/*.c 2>&1) || true
	expect "bkl-migrate --annotate-driver-locks: a second run changes nothing" \
		diff -ru "$fx/after-annotate" "$w"
	expect "bkl-migrate --annotate-driver-locks: the result is checkpatch --strict clean" \
		"$(tree 6.12)/scripts/checkpatch.pl" --strict --no-tree -q -f "$w"/*.c
}

# Each file is converted by its own spatch run: converting the directory at
# once gives what converting each file alone gives.
migrate_no_leak() {
	local fx=$TESTING/fixtures/migrate w=$BUILD/test/migrate-one f
	local name="bkl-migrate: a file converts the same alone as with the others"
	rm -rf "$w" && cp -r "$fx/before" "$w"
	for f in "$w"/*.c; do
		case $f in */group_*) continue ;; esac
		"$MIGRATE" --tree "$w" "$f" >/dev/null 2>&1 || true
	done
	# a group goes together: the file of its handler and those of its users
	"$MIGRATE" --tree "$w" "$w"/group_*.c >/dev/null 2>&1 || true
	expect "$name" diff -ru "$fx/after" "$w"
}

# The operations of group_dev.c name a handler that group_core.c defines:
# without that file among the paths nothing of the group changes.
migrate_group_alone() {
	local fx=$TESTING/fixtures/migrate w=$BUILD/test/migrate
	rm -rf "$w" && cp -r "$fx/before" "$w"
	expect_exit "bkl-migrate: a group's user without the handler's file is reported, exit 1" 1 \
		'^group_dev.c: failed, left as it was: a group: group_generic_ioctl is defined in group_core.c, which is not among the paths given' \
		"$MIGRATE" --tree "$w" "$w/group_dev.c"
	expect "bkl-migrate: ... and the group is left as it was" diff -ru "$fx/before" "$w"
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
}

migrate_refusals() {
	local fx=$TESTING/fixtures/migrate w=$BUILD/test/migrate
	rm -rf "$w" && cp -r "$fx/before" "$w"
	snapshot "$w" >"$BUILD/test/migrate.sum"
	expect_exit "bkl-migrate: a directory without C source is refused" 2 'holds no C source' \
		"$MIGRATE" --tree "$w" "$TESTING/kunit"
	expect_exit "bkl-migrate: a missing path is refused" 2 'no such file' \
		"$MIGRATE" --tree "$w" "$w/no-such-file.c"
	expect_exit "bkl-migrate: a --tree that is not a directory is refused" 2 'not a directory' \
		"$MIGRATE" --tree "$w/Kconfig"
	expect_exit "bkl-migrate: a path that is neither C source nor header is refused" 2 \
		'Makefile: not a C source file or header' "$MIGRATE" --tree "$w" "$w/Makefile"
	expect_exit "bkl-migrate: a header among the paths is taken (prototypes live there)" 0 \
		'^bkl-migrate: 2 file\(s\) scanned, 0 converted, 0 failed' \
		"$MIGRATE" --tree "$w" "$w/extern_ioctl.h" "$w/untouched.c"
	expect_exit "bkl-migrate --help" 0 'Exit codes' "$MIGRATE" --help
	expect_exit "check-legacy: a tree that is not Linux 2.6.34 is refused" 2 \
		'not a Linux 2.6.34 tree' "$TESTING/check-legacy" --no-whole --work "$BUILD/test/legacy" \
		"$(tree 6.12)"
	expect_exit "cross-root --help" 0 'Exit codes' "$TESTING/cross-root" --help
	expect_exit "cross-root: run without a made root says how to make it, exit 1" 1 \
		"no cross root at .*: run '.*cross-root setup' first" \
		env CROSS_ROOT="$BUILD/test/no-cross-root" "$TESTING/cross-root" run true
	expect_exit "cross-root: an unknown argument is refused, exit 1" 1 "unknown argument '--bogus'" \
		"$TESTING/cross-root" --bogus run true
	expect_exit "bkl-migrate --timeout: a file whose spatch runs past it is reported, exit 1" 1 \
		'^old_ioctl.c: failed, left as it was: spatch ioctl_pushdown.cocci ran past 0.05 s' \
		"$MIGRATE" --timeout 0.05 --tree "$w" "$w/old_ioctl.c"
	expect_exit "bkl-migrate --progress: each file done is counted on stderr" 0 \
		'^bkl-migrate: \[1/1\] gnu_ioctl.c$' \
		"$MIGRATE" --progress --dry-run --tree "$w" "$w/gnu_ioctl.c"
	migrate_without_python "$w"
	if snapshot "$w" | cmp -s - "$BUILD/test/migrate.sum"; then
		pass "bkl-migrate: a refused run changes nothing"
	else
		fail "bkl-migrate: a refused run changes nothing"
	fi
}

# A spatch that cannot load its Python library (Debian's coccinelle without
# libpython3-dev, as on a fresh machine) is named once, before any file: a
# spatch on PATH that hands the real one an interpreter of a Python version
# whose library does not exist, whatever interpreter it is given.
migrate_without_python() {
	local w=$1 fake=$BUILD/test/no-python out rc=0
	local name="bkl-migrate: a spatch without Python is reported once, exit 2"
	rm -rf "$fake" && mkdir -p "$fake"
	printf '#!/bin/sh\ncase "$*" in *--version*) echo "Python 3.99.0" ;; *) exec python3 "$@" ;; esac\n' \
		>"$fake/python3.99"
	cat >"$fake/spatch" <<-FAKE
		#!/bin/bash
		args=()
		while [ \$# -gt 0 ]; do
			if [ "\$1" = --python ]; then shift 2; continue; fi
			args+=("\$1"); shift
		done
		exec $(command -v spatch) --python $fake/python3.99 "\${args[@]}"
	FAKE
	chmod +x "$fake/python3.99" "$fake/spatch"
	out=$(PATH=$fake:$PATH "$MIGRATE" --tree "$w" 2>&1) || rc=$?
	if [ "$rc" = 2 ] && [ "$(grep -c 'spatch cannot load Python: install libpython3-dev' <<<"$out")" = 1 ] &&
	   ! grep -q 'failed, left as it was' <<<"$out"; then
		pass "$name"
	else
		fail "$name" "exit $rc; $out"
	fi
	expect_exit "bkl-migrate --check-spatch: exit 0 with a working spatch" 0 '' "$MIGRATE" --check-spatch
}

# The converted files build against the applied 6.12 tree (CONFIG_BKL=y),
# sparse-clean, and bkl-users lists what the migration annotated.
migrate_after_builds() {
	local fx=$TESTING/fixtures/migrate copy=$BUILD/test/migrate-build log=$LOGS/migrate-build.log
	local mode
	[ -f "$BUILD/kunit-6.12/.config" ] || tier_kunit_6_12
	for mode in after after-shim after-annotate; do
		rm -rf "$copy" && mkdir -p "$copy"
		cp "$fx/$mode"/*.[ch] "$copy/"
		if [ "$mode" = after-annotate ]; then
			echo 'obj-m += prologue_mutex_ioctl.o open_mutex.o' >"$copy/Kbuild"
		else
			echo 'obj-m += old_ioctl.o noinode_ioctl.o narrow_ioctl.o inline_ioctl.o proto_ioctl.o driver_lock.o untouched.o gnu_ioctl.o enc_ioctl.o late_ioctl.o ifbrace_ioctl.o hdr_ioctl.o group_core.o group_dev.o shell_ioctl.o twoinit_ioctl.o unlockedsig_ioctl.o unsorted_ioctl.o comment_ioctl.o body_mutex_ioctl.o prologue_mutex_ioctl.o open_mutex.o' >"$copy/Kbuild"
		fi
		if module_build "$(tree 6.12)" "$BUILD/kunit-6.12" um "$copy" C=2 CHECK=sparse modules \
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
	expect "bkl-users lists the migrated drivers" python3 -c '
import json, subprocess, sys
r = json.loads(subprocess.run([sys.argv[1], "--json", sys.argv[2]], capture_output=True,
                              text=True, check=True).stdout)
got = {(x["kind"], x["name"].split(":")[1]) for x in r}
want = {("bkl-ioctl", "old_unlocked_ioctl"), ("bkl-ioctl", "proto_unlocked_ioctl"),
        ("bkl-ioctl", "noinode_unlocked_ioctl"), ("bkl-direct", "narrow_ioctl_bkl"),
        ("bkl-direct", "narrow_open_bkl"), ("bkl-ioctl", "inline_ioctl"),
        ("bkl-direct", "inline_late_ioctl_bkl"), ("bkl-ioctl", "hdr_unlocked_ioctl"),
        ("bkl-ioctl", "group_generic_unlocked_ioctl"), ("bkl-ioctl", "shell_ioctl"),
        ("bkl-ioctl", "twoinit_unlocked_ioctl"), ("bkl-ioctl", "unlockedsig_unlocked_ioctl"),
        ("bkl-ioctl", "unsorted_unlocked_ioctl"), ("bkl-ioctl", "comment_unlocked_ioctl"),
        ("bkl-direct", "comment_open_bkl"),
        ("replacement", "lock_ioctl"), ("replacement", "lock_compat_ioctl"),
        ("replacement", "lock_status_ioctl"), ("replacement", "body_ioctl"),
        ("replacement", "body_intr_ioctl")}
print(sorted(got))
sys.exit(not want <= got)' "$BKL_USERS" "$fx/after"
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
