# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tier apply: make apply/unapply and make migrate on a small tree.

# apply/unapply, on a small copy of the files of 6.12 that apply reads or
# edits, so that the real trees keep their timestamps for the builds.

readonly MINI_FILES="Makefile Kconfig include/linux/fs.h fs/ioctl.c lib/Kconfig lib/Makefile
	Documentation/locking/index.rst Documentation/dev-tools/index.rst
	include/asm-generic/vmlinux.lds.h include/linux/module.h
	kernel/module/main.c drivers/misc/Kconfig drivers/misc/Makefile MAINTAINERS
	drivers/char/ipmi/ipmi_watchdog.c drivers/scsi/megaraid/megaraid_mm.c"

# mini_tree KVER DST: those files, pristine, from Debian's tarball (the
# extracted tree may have the layer on it already).
mini_tree() {
	local kver=$1 dst=$2 cache=$BUILD/test/pristine-$1 f
	if [ "$(cat "$cache/.complete" 2>/dev/null)" != "$MINI_FILES" ]; then
		rm -rf "$cache" && mkdir -p "$cache"
		# shellcheck disable=SC2046
		tar -C "$cache" --strip-components=1 -xf "/usr/src/linux-source-$kver.tar.xz" \
			$(for f in $MINI_FILES; do echo "linux-source-$kver/$f"; done) || return 1
		echo "$MINI_FILES" >"$cache/.complete"
	fi
	rm -rf "$dst" && cp -a "$cache" "$dst" && rm -f "$dst/.complete"
}

# run_apply EXPECTED_RC ARGS...: apply exits with EXPECTED_RC.
run_apply() {
	local want=$1 rc=0
	shift
	"$INSTALL/apply" -q "$@" >"$LOGS/apply.out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, expected $want"; cat "$LOGS/apply.out"; return 1; }
}

# A newer version of the layer whose fs/ patch differs: apply takes the
# older patch (the copy it kept) back out and puts the newer in; the same
# newer version's unapply takes it out again.  TREE has this layer.
apply_upgrades_patch() {
	local tree=$1 repo=$2 before p name="apply: a changed patch of a newer layer replaces the one the tree has"
	rm -rf "$repo" && mkdir -p "$repo"
	(cd "$REPO" && git ls-files | tar -cf - -T -) | tar -C "$repo" -xf -
	p=$repo/kernel-patches/0001-fs-locked_ioctl-member-and-vfs-fallback.patch
	sed -i 's|old-style handler, called under the BKL|old-style handler, run under the BKL|' "$p"
	before=$(snapshot "$tree")
	if "$repo/tools/locked-ioctl/install/apply" -q "$tree" >"$LOGS/apply.out" 2>&1 &&
	   grep -q 'old-style handler, run under the BKL' "$tree/include/linux/fs.h" &&
	   "$repo/tools/locked-ioctl/install/apply" -q -u "$tree" >>"$LOGS/apply.out" 2>&1 &&
	   "$INSTALL/apply" -q "$tree" >>"$LOGS/apply.out" 2>&1 &&
	   [ "$(snapshot "$tree")" = "$before" ]; then
		pass "$name"
	else
		fail "$name" "$(cat "$LOGS/apply.out")"
	fi
}

tier_apply() {
	local t=$BUILD/test/apply pristine before after
	setup_tree 6.12 || return
	mkdir -p "$t"
	mini_tree 6.12 "$t/tree"
	pristine=$(snapshot "$t/tree")

	mkdir -p "$t/notatree" && echo "hello" >"$t/notatree/README"
	before=$(snapshot "$t/notatree")
	if run_apply 2 "$t/notatree" && grep -q 'not a kernel source tree' "$LOGS/apply.out" &&
	   [ "$(snapshot "$t/notatree")" = "$before" ]; then
		pass "apply refuses a directory that is not a kernel tree and changes nothing"
	else
		fail "apply refuses a directory that is not a kernel tree and changes nothing" "$(cat "$LOGS/apply.out")"
	fi

	rm -rf "$t/old" && cp -a "$t/tree" "$t/old"
	sed -i 's/^PATCHLEVEL = .*/PATCHLEVEL = 99/' "$t/old/Makefile"
	before=$(snapshot "$t/old")
	if run_apply 3 "$t/old" && grep -q 'supported: 6.1 6.12' "$LOGS/apply.out" &&
	   [ "$(snapshot "$t/old")" = "$before" ]; then
		pass "apply refuses an unsupported version and changes nothing"
	else
		fail "apply refuses an unsupported version and changes nothing" "$(cat "$LOGS/apply.out")"
	fi
	if run_apply 0 --force "$t/old" && run_apply 0 -u "$t/old" &&
	   [ "$(snapshot "$t/old")" = "$before" ]; then
		pass "apply --force onto an unsupported version, then unapply"
	else
		fail "apply --force onto an unsupported version, then unapply" "$(cat "$LOGS/apply.out")"
	fi

	rm -rf "$t/bad" && cp -a "$t/tree" "$t/bad"
	sed -i 's/^\terror = filp->f_op->unlocked_ioctl(filp, cmd, arg);$/\terror = other(filp, cmd, arg);/' \
		"$t/bad/fs/ioctl.c"
	before=$(snapshot "$t/bad")
	if run_apply 4 "$t/bad" && grep -q 'does not apply' "$LOGS/apply.out" &&
	   [ "$(snapshot "$t/bad")" = "$before" ]; then
		pass "apply onto a tree where the fs/ patch does not fit changes nothing"
	else
		fail "apply onto a tree where the fs/ patch does not fit changes nothing" "$(cat "$LOGS/apply.out")"
	fi

	rm -rf "$t/conflict" && cp -a "$t/tree" "$t/conflict"
	echo "/* somebody else's */" >"$t/conflict/include/linux/smp_lock.h"
	before=$(snapshot "$t/conflict")
	if run_apply 4 "$t/conflict" && [ "$(snapshot "$t/conflict")" = "$before" ]; then
		pass "apply refuses to overwrite a file that is not ours"
	else
		fail "apply refuses to overwrite a file that is not ours" "$(cat "$LOGS/apply.out")"
	fi

	expect "unapply of a tree without the layer is a no-op" run_apply 0 -u "$t/tree"
	if run_apply 0 "$t/tree" &&
	   grep -q 'int (\*locked_ioctl)' "$t/tree/include/linux/fs.h" &&
	   grep -q 'deprecated_ioctl(filp, cmd, arg)' "$t/tree/fs/ioctl.c" &&
	   grep -qx 'config BKL' "$t/tree/lib/Kconfig" &&
	   grep -qx 'source "drivers/misc/locked_ioctl_test/Kconfig"' "$t/tree/lib/Kconfig" &&
	   ! grep -q 'source "lib/Kconfig' "$t/tree/lib/Kconfig" &&
	   ! grep -q 'locked-ioctl' "$t/tree/drivers/misc/Kconfig" &&
	   grep -q 'kernel_lock.o' "$t/tree/lib/Makefile" &&
	   cmp -s "$REPO/lib/kernel_lock.c" "$t/tree/lib/kernel_lock.c"; then
		pass "apply installs the files, hooks and fs/ patch"
	else
		fail "apply installs the files, hooks and fs/ patch" "$(cat "$LOGS/apply.out")"
	fi
	before=$( (cd "$t/tree" && find . -type f -printf '%p %T@\n' | sort) ; snapshot "$t/tree")
	"$INSTALL/apply" "$t/tree" >"$LOGS/apply.out" 2>&1 || true
	after=$( (cd "$t/tree" && find . -type f -printf '%p %T@\n' | sort) ; snapshot "$t/tree")
	if [ "$before" = "$after" ] && grep -q 'nothing changed' "$LOGS/apply.out"; then
		pass "a second apply changes nothing, not even a timestamp"
	else
		fail "a second apply changes nothing, not even a timestamp" "$(cat "$LOGS/apply.out")"
	fi
	expect "apply --status reports the layer" run_apply 0 --status "$t/tree"
	apply_drops_old_hooks "$t/tree"
	apply_upgrades_patch "$t/tree" "$t/newer"
	apply_migrate "$t/tree" "$t/old"
	if run_apply 0 -u "$t/tree" && [ "$(snapshot "$t/tree")" = "$pristine" ]; then
		pass "unapply restores the tree byte for byte"
	else
		fail "unapply restores the tree byte for byte" "$(cat "$LOGS/apply.out")"
	fi
	expect "apply --status reports a tree without the layer" run_apply 10 --status "$t/tree"
}

# tools/locked-ioctl/install/migrate on the mini tree, which has two of the
# targets that bkl-migrate converts on 6.12 (ipmi_watchdog, megaraid_mm):
# refused without the layer, idempotent, undone by unapply (the caller
# checks the tree byte for byte), which refuses while a migrated file has
# been changed since.
apply_migrate() {
	local k=$1 bare=$2 before out rc=0 f
	local files="drivers/char/ipmi/ipmi_watchdog.c drivers/scsi/megaraid/megaraid_mm.c"

	before=$(snapshot "$bare")
	expect_exit "migrate: a tree without the layer is refused, nothing changed" 2 \
		'does not have the layer' "$INSTALL/migrate" "$bare"
	[ "$(snapshot "$bare")" = "$before" ] || fail "migrate: a refused run changed $bare"
	out=$("$INSTALL/migrate" -j "$JOBS" "$k" 2>&1) || rc=$?
	for f in $files; do
		grep -q '^DEFINE_LOCKED_IOCTL' "$k/$f" || rc="$rc; $f not converted"
	done
	if [ "$rc" = 0 ] && grep -q '2 file(s) of .* changed' <<<"$out"; then
		pass "migrate converts the targets of the tree (ipmi_watchdog, megaraid_mm)"
	else
		fail "migrate converts the targets of the tree (ipmi_watchdog, megaraid_mm)" "$rc: $out"
	fi
	expect "migrate --status reports a migrated tree" "$INSTALL/migrate" --status "$k"
	before=$(snapshot "$k")
	if "$INSTALL/migrate" -q "$k" >"$LOGS/migrate.out" 2>&1 && [ "$(snapshot "$k")" = "$before" ]; then
		pass "a second migrate changes nothing"
	else
		fail "a second migrate changes nothing" "$(cat "$LOGS/migrate.out")"
	fi
	cp -p "$k/drivers/char/ipmi/ipmi_watchdog.c" "$LOGS/ipmi_watchdog.c"
	echo "/* a local change */" >>"$k/drivers/char/ipmi/ipmi_watchdog.c"
	before=$(snapshot "$k")
	if run_apply 4 -u "$k" && grep -q 'changed since the migration' "$LOGS/apply.out" &&
	   [ "$(snapshot "$k")" = "$before" ]; then
		pass "unapply refuses while a migrated file was changed since, and changes nothing"
	else
		fail "unapply refuses while a migrated file was changed since, and changes nothing" \
			"$(cat "$LOGS/apply.out")"
	fi
	cp -p "$LOGS/ipmi_watchdog.c" "$k/drivers/char/ipmi/ipmi_watchdog.c"
}

# A tree applied by an older version, whose hooks were elsewhere (before the
# tree recorded them): apply takes the old block out, unapply too.
apply_drops_old_hooks() {
	local k=$1 name="apply removes a hook block of an older version from a file it no longer hooks"
	local mark='# BEGIN locked-ioctl (added by tools/locked-ioctl/install/apply; "make unapply" removes it)'
	printf '%s\nsource "drivers/misc/locked_ioctl_test/Kconfig"\n# END locked-ioctl\n' "$mark" \
		>>"$k/drivers/misc/Kconfig"
	rm -f "$k/.locked-ioctl/hooks"
	if run_apply 0 "$k" && ! grep -q 'locked-ioctl' "$k/drivers/misc/Kconfig" &&
	   grep -qxF 'lib/Kconfig' "$k/.locked-ioctl/hooks"; then
		pass "$name"
	else
		fail "$name" "$(cat "$LOGS/apply.out"; tail -n 5 "$k/drivers/misc/Kconfig")"
	fi
}
