# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tier patches: make patches, bkl-migrate --format-patch, the legacy series.

# make patches: the series of 6.12 with the layer and the migrated targets.

readonly FORMAT=$RELEASE/format-series

# Debian's 6.12 unmodified, extracted once (the QEMU tier uses it too).
pristine_612() {
	extract_kernel /usr/src/linux-source-6.12.tar.xz "$BUILD/src/pristine-6.12"
}

# bkl-migrate --format-patch on a git work tree of the unmodified 6.12 (the
# series' base): the same driver patches as make patches (their diffs; the
# abbreviation of the blob names aside), no branch or HEAD moved; again on
# the files it left changed: refused, nothing written.  W: the tier's
# directory, then make patches' driver patches.
bkl_migrate_format_patch() {
	local w=$1 fp=$1/fp head out a b bad="" i=0 files
	shift
	rm -rf "$fp" "$w/fp-out"
	git -C "$w/work/tree" worktree prune
	git -C "$w/work/tree" worktree add -q --detach "$fp" series-base
	head=$(git -C "$fp" rev-parse HEAD)
	files=$(target_field '$2 != "-"' '$2')
	# shellcheck disable=SC2086
	if ! (cd "$fp" && "$MIGRATE" --tree . --annotate-driver-locks --jobs "$JOBS" \
		--format-patch "$w/fp-out" $files) >"$LOGS/patches-format-patch.log" 2>&1; then
		fail "bkl-migrate --format-patch: writes the driver patches of a git tree" \
			"$(tail -n 20 "$LOGS/patches-format-patch.log")"
		return
	fi
	for a in $(find "$w/fp-out" -name '0*.patch' ! -name '0000-*' | sort); do
		b=${1:-}
		shift || true
		i=$((i + 1))
		if [ -z "$b" ] || ! cmp -s <(sed -n '/^diff --git/,$p' "$a" | grep -v '^index ') \
			<(sed -n '/^diff --git/,$p' "$b" | grep -v '^index '); then
			bad+="patch $i: ${a##*/} is not ${b##*/}"$'\n'
		fi
	done
	[ $# = 0 ] || bad+="make patches has $# driver patch(es) more"$'\n'
	[ "$(git -C "$fp" rev-parse HEAD)" = "$head" ] || bad+="HEAD moved"$'\n'
	if [ -z "$bad" ] && [ "$i" -gt 0 ]; then
		pass "bkl-migrate --format-patch: the same $i driver patches as make patches, HEAD where it was"
	else
		fail "bkl-migrate --format-patch: the same driver patches as make patches, HEAD where it was" "$bad"
	fi
	# shellcheck disable=SC2086
	expect_exit "bkl-migrate --format-patch: refuses files with uncommitted changes (exit 2)" 2 \
		'uncommitted changes in .*nothing changed' \
		sh -c 'cd "$1" && shift && exec "$@"' sh "$fp" "$MIGRATE" --tree . --format-patch "$w/fp-out2" $files
	[ ! -e "$w/fp-out2" ] || fail "bkl-migrate --format-patch: a refusal writes nothing" "$(ls "$w/fp-out2")"
	git -C "$w/work/tree" worktree remove --force "$fp"
}

# bkl-migrate --format-patch on a git tree of the BKL era: a 2.6.34 Makefile,
# the historical BKL's <linux/smp_lock.h>, a driver with an old .ioctl and
# its Kconfig entry, and 6.12's MAINTAINERS, checkpatch and get_maintainer
# standing in for the rest of such a tree.  The series is two patches: the
# header's 2.6.x edition, which adds the BKL symbol and a MAINTAINERS entry
# in its alphabetical place, then the driver with its Kconfig entry; it
# applies with git am to the same files; each patch is checkpatch --strict
# clean.  check-legacy does the same on the real 2.6.34 tree, outside make
# check.  W: the tier's directory.
legacy_format_patch() {
	local w=$1/legacy t=$1/legacy/tree p=$BUILD/src/pristine-6.12 bad="" f out
	local -a series
	rm -rf "$w" && mkdir -p "$t"
	(cd "$t" && mkdir -p include/linux lib scripts drivers/char Documentation arch fs init ipc kernel &&
		touch COPYING CREDITS Kbuild README)
	printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 34\n' >"$t/Makefile"
	cp "$p/MAINTAINERS" "$t/"
	for f in checkpatch.pl get_maintainer.pl spelling.txt const_structs.checkpatch; do
		cp "$p/scripts/$f" "$t/scripts/"
	done
	printf '%s\n' '/* SPDX-License-Identifier: GPL-2.0 */' '#ifndef __LINUX_SMPLOCK_H' \
		'#define __LINUX_SMPLOCK_H' 'void lock_kernel(void);' 'void unlock_kernel(void);' \
		'#endif' >"$t/include/linux/smp_lock.h"
	printf '%s\n' 'config CRC32' '	tristate "CRC32 functions"' >"$t/lib/Kconfig"
	printf '%s\n' 'config COMMENT_IOCTL' '	tristate "An old-style ioctl driver"' >"$t/drivers/char/Kconfig"
	echo 'obj-$(CONFIG_COMMENT_IOCTL) += comment_ioctl.o' >"$t/drivers/char/Makefile"
	cp "$TESTING/fixtures/migrate/before/comment_ioctl.c" "$t/drivers/char/"
	git -C "$t" init -q && git -C "$t" add -A && git -C "$t" commit -q -m 'Linux 2.6.34' &&
		git -C "$t" worktree add -q --detach "$w/am" HEAD
	if ! (cd "$t" && "$MIGRATE" --tree . --format-patch "$w/out" drivers/char/comment_ioctl.c) \
		>"$LOGS/patches-legacy.log" 2>&1; then
		fail "bkl-migrate --format-patch, BKL era: writes the series" "$(cat "$LOGS/patches-legacy.log")"
		return
	fi
	mapfile -t series < <(find "$w/out" -name '0*.patch' ! -name '0000-*' | sort)
	out=$(git mailinfo /dev/null /dev/null <"${series[0]}" | sed -n 's/^Subject: //p'
		sed -n 's|^+++ b/||p' "${series[0]}")
	expect "bkl-migrate --format-patch, BKL era: patch 1 adds the header, the BKL symbol and a MAINTAINERS entry" \
		diff <(printf '%s\n' 'locking: add <linux/locked_ioctl.h> for the Big Kernel Lock' \
			MAINTAINERS include/linux/locked_ioctl.h lib/Kconfig) <(echo "$out")
	if git -C "$w/am" am -q "${series[@]}" >"$LOGS/patches-legacy-am.log" 2>&1; then
		for f in MAINTAINERS include/linux/locked_ioctl.h lib/Kconfig drivers/char/Kconfig \
			drivers/char/comment_ioctl.c; do
			cmp -s "$w/am/$f" "$t/$f" || bad+="$f differs from what bkl-migrate wrote"$'\n'
		done
	else
		bad=$(cat "$LOGS/patches-legacy-am.log")
	fi
	if [ -z "$bad" ]; then
		pass "bkl-migrate --format-patch, BKL era: the ${#series[@]} patches apply with git am, to the same files"
	else
		fail "bkl-migrate --format-patch, BKL era: the ${#series[@]} patches apply with git am, to the same files" "$bad"
	fi
	expect "bkl-migrate --format-patch, BKL era: the MAINTAINERS entry is in alphabetical order" python3 -c '
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
titles = [lines[i] for i in range(1, len(lines) - 1) if lines[i] and not lines[i - 1] and
          not lines[i][0].isspace() and re.match(r"[A-Z]:\t", lines[i + 1])]
at = titles.index("LOCKED IOCTL WRAPPERS AND BIG KERNEL LOCK")
print(titles[at - 1:at + 2])
sys.exit(not titles[at - 1].upper() < titles[at] < titles[at + 1].upper())' "$w/am/MAINTAINERS"
	expect "bkl-migrate --format-patch, BKL era: get_maintainer.pl names the entry for the header" \
		sh -c 'cd "$1" && perl scripts/get_maintainer.pl --no-git -f include/linux/locked_ioctl.h |
			grep "LOCKED IOCTL WRAPPERS AND BIG KERNEL LOCK"' sh "$t"
	bad=""
	for f in "${series[@]}"; do
		out=$(cd "$t" && perl scripts/checkpatch.pl --strict --show-types -q "$f" 2>&1 || true)
		[ -z "$out" ] || bad+="${f##*/}:"$'\n'"$out"$'\n'
	done
	if [ -z "$bad" ] && [ "${#series[@]}" = 2 ]; then
		pass "bkl-migrate --format-patch, BKL era: checkpatch --strict passes the header and driver patches"
	else
		fail "bkl-migrate --format-patch, BKL era: checkpatch --strict passes the header and driver patches" \
			"${#series[@]} patches"$'\n'"$bad"
	fi
}

tier_patches() {
	local w=$BUILD/test/patches k out p files want got bad="" n layers rc
	local -a series
	setup_tree 6.12 || return
	if ! pristine_612; then fail "make patches: Debian's 6.12 extracted"; return; fi
	rm -rf "$w" && mkdir -p "$w"
	k=$w/kdir
	cp -a "$BUILD/src/pristine-6.12" "$k" && rm -f "$k/.extracted"
	if ! { "$INSTALL/apply" -q "$k" && "$INSTALL/migrate" -q -j "$JOBS" "$k"; } >"$LOGS/patches-migrate.log" 2>&1; then
		fail "make patches: apply and migrate a copy of 6.12" "$(cat "$LOGS/patches-migrate.log")"
		return
	fi
	expect_exit "make patches: without a git identity it says so (exit 2)" 2 'git config user.name is not set' \
		env HOME="$w" GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 \
		"$FORMAT" --out "$w/none" --work "$w/work-none" "$k"
	expect_exit "make patches: a tree without the layer is refused (exit 2)" 2 'does not have the layer' \
		"$FORMAT" --out "$w/none" --work "$w/work-none" "$BUILD/src/pristine-6.12"
	if [ -e "$w/none" ] || [ -e "$w/work-none" ]; then
		fail "make patches: a refusal writes nothing" "$(ls -d "$w"/*none*)"
	fi
	printf '[user]\n\tname = Test Maintainer\n\temail = test.maintainer@example.org\n' >"$w/gitconfig"
	export GIT_CONFIG_GLOBAL=$w/gitconfig GIT_CONFIG_NOSYSTEM=1
	if ! "$FORMAT" --out "$w/out" --work "$w/work" "$k" >"$LOGS/patches.log" 2>&1; then
		fail "make patches: format-series writes the series of 6.12" "$(cat "$LOGS/patches.log")"
		unset GIT_CONFIG_GLOBAL GIT_CONFIG_NOSYSTEM
		return
	fi
	mapfile -t series < <(find "$w/out" -name '0*.patch' ! -name '0000-cover-letter.patch' | sort)
	pass "make patches: format-series writes the series of 6.12 ($(tail -n 1 "$LOGS/patches.log" | sed 's/^format-series: //'))"

	# in order onto the pristine tree, with git am: what apply + migrate made
	if git -C "$w/work/tree" checkout -q -b am series-base &&
	   git -C "$w/work/tree" am -q "${series[@]}" >"$LOGS/patches-am.log" 2>&1; then
		pass "make patches: the ${#series[@]} patches apply in order onto the unmodified tree (git am)"
	else
		fail "make patches: the ${#series[@]} patches apply in order onto the unmodified tree (git am)" \
			"$(cat "$LOGS/patches-am.log")"
		unset GIT_CONFIG_GLOBAL GIT_CONFIG_NOSYSTEM
		return
	fi
	out=$(diff -rq --exclude=.git --exclude=.locked-ioctl "$w/work/tree" "$k" 2>&1 || true)
	while read -r line; do
		[ -n "$line" ] || continue
		p=$(sed -n 's|^Files .* and '"$k"'/\(.*\) differ$|\1|p' <<<"$line")
		if [ -z "$p" ] || ! grep -qxF "$p" "$k/.locked-ioctl/hooks" ||
		   ! cmp -s "$w/work/tree/$p" <(grep -vx -e '# BEGIN locked-ioctl .*' -e '# END locked-ioctl' "$k/$p"); then
			bad+="$line"$'\n'
		fi
	done <<<"$out"
	if [ -z "$bad" ]; then
		pass "make patches: the series gives the tree make apply migrate gives, byte for byte (apply's BEGIN/END lines aside)"
	else
		fail "make patches: the series gives the tree make apply migrate gives, byte for byte (apply's BEGIN/END lines aside)" "$bad"
	fi

	# every migrated file in one driver patch, none twice
	want=$(cd "$k/.locked-ioctl/migrate/orig" && find . -type f | sed 's|^\./||' | sort)
	layers=$(sed -n 's/.*(\([0-9]*\) layer, .*/\1/p' "$LOGS/patches.log")
	got=$(for p in "${series[@]:${layers:-0}}"; do sed -n 's|^+++ b/||p' "$p"; done | sort)
	expect "make patches: each migrated file is in exactly one driver patch" \
		diff <(echo "$want") <(echo "$got")

	bad=""
	"$REPO/tools/locked-ioctl/release/checkpatch-series" "$BUILD/src/pristine-6.12" "${series[@]}" >"$LOGS/patches-checkpatch.log" 2>&1 ||
		bad=$(cat "$LOGS/patches-checkpatch.log")
	if [ -z "$bad" ]; then
		pass "make patches: checkpatch --strict passes every patch (CamelCase only where the driver spells its names so)"
	else
		fail "make patches: checkpatch --strict passes every patch (CamelCase only where the driver spells its names so)" "$bad"
	fi
	# the exception is the driver's own names only: the same patch with a
	# CamelCase name the file never had is flagged
	p=$(grep -l '^+mISDN_ioctl_locked(' "${series[@]}" | head -n 1)
	if [ -n "$p" ]; then
		sed 's/mISDN_ioctl_locked/FooBar_ioctl_locked/g' "$p" >"$w/camelcase.patch"
		rc=0
		out=$("$REPO/tools/locked-ioctl/release/checkpatch-series" "$BUILD/src/pristine-6.12" \
			"$w/camelcase.patch" 2>&1) || rc=$?
		if [ "$rc" = 1 ] && grep -q 'Avoid CamelCase: <FooBar_ioctl_locked>' <<<"$out"; then
			pass "checkpatch-series: CamelCase the driver never spelt is flagged"
		else
			fail "checkpatch-series: CamelCase the driver never spelt is flagged" "exit $rc: $out"
		fi
	else
		fail "checkpatch-series: CamelCase the driver never spelt is flagged" "no patch defines mISDN_ioctl_locked"
	fi

	bad=""
	for p in "${series[@]}"; do
		files=$(sed -n -e 's|^+++ b/||p' -e 's|^--- a/||p' "$p" | sort -u)
		# shellcheck disable=SC2086
		want=$(cd "$w/work/tree" && perl scripts/get_maintainer.pl --no-git --no-rolestats --no-tree -f $files |
			grep '@' | grep -v 'test.maintainer@example.org' | sort -u)
		got=$(sed -n 's/^Cc: //p' "$p" | sort -u)
		[ "$want" = "$got" ] || bad+="${p##*/}: get_maintainer.pl: $want; Cc: $got"$'\n'
		n=$(grep -c '^Signed-off-by: Test Maintainer <test.maintainer@example.org>$' "$p" || true)
		[ "$n" = 1 ] && grep -q '^From: Test Maintainer <test.maintainer@example.org>$' "$p" ||
			bad+="${p##*/}: no Signed-off-by/From of the git identity"$'\n'
	done
	if [ -z "$bad" ]; then
		pass "make patches: each patch is signed off by the git identity and Cc's what get_maintainer.pl --no-git names"
	else
		fail "make patches: each patch is signed off by the git identity and Cc's what get_maintainer.pl --no-git names" "$bad"
	fi
	bkl_migrate_format_patch "$w" "${series[@]:${layers:-0}}"
	legacy_format_patch "$w"
	if grep -q '\*\*\*' "$w/out/0000-cover-letter.patch" ||
	   ! grep -q '^Subject: \[PATCH 00/[0-9]*\] locked-ioctl: ' "$w/out/0000-cover-letter.patch"; then
		fail "make patches: the cover letter is written" "$(head -n 60 "$w/out/0000-cover-letter.patch")"
	else
		pass "make patches: the cover letter is written"
	fi
	unset GIT_CONFIG_GLOBAL GIT_CONFIG_NOSYSTEM
}
