# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tiers sparse, checkpatch, kernel-doc: the static checks of our files.

# sparse: zero warnings in our files, and the annotations catch a leak, in
# the QEMU tier's x86_64 kernel.

readonly OUR_OBJS="lib/kernel_lock.o lib/deprecated_ioctl.o lib/locked_ioctl.o lib/bkl_users.o
	lib/bkl_kunit.o lib/locked_ioctl_kunit.o lib/bkl_users_kunit.o fs/ioctl.o kernel/module/main.o"
# Our C files as the tree has them (tools/locked-ioctl/files, the list
# "make apply" installs), and the VFS file our patch changes: an ERE of
# their paths, to find their lines in a build log.
our_files_re() {
	sed -e 's/#.*//' "$REPO/tools/locked-ioctl/files" | awk 'NF { print $NF }' |
		grep -E '\.[ch]$' | sed 's/[.]/\\./g' | paste -sd'|' | sed 's/^/(/; s/$/|fs\/ioctl\\.c)/'
}
OUR_FILES_RE=$(our_files_re)
readonly OUR_FILES_RE

tier_sparse() {
	local k bdir log=$LOGS/sparse.log n
	qemu_kernel || return
	k=$(qemu_src) bdir=$(qemu_build)
	# shellcheck disable=SC2086
	if ! make -C "$k" ARCH=x86_64 O="$bdir" -j"$JOBS" C=2 CHECK=sparse $OUR_OBJS >"$log" 2>&1; then
		fail "sparse: our objects build" "$(tail -n 30 "$log")"
		return
	fi
	n=$(grep -cE "$OUR_FILES_RE:[0-9]+:[0-9]+: (warning|error)" "$log" || true)
	grep -q 'CHECK .*lib/kernel_lock.c' "$log" ||
		{ fail "sparse: our objects were checked" "$(tail -n 20 "$log")"; return; }
	if [ "$n" = 0 ]; then
		pass "sparse: 0 warnings in the layer's files"
	else
		fail "sparse: 0 warnings in the layer's files ($n found)" "$(grep -E "$OUR_FILES_RE:" "$log")"
	fi

	log=$LOGS/sparse-fixtures.log
	fixture_build "$k" "$bdir" x86_64 sparse "$log" C=2 CHECK=sparse ||
		{ fail "sparse fixtures build" "$(tail -n 30 "$log")"; return; }
	if grep -qE 'leaks_bkl\.c:[0-9]+:[0-9]+: warning: context imbalance in .fixture_leaks_bkl.' "$log"; then
		pass "sparse reports the BKL held on a return path"
	else
		fail "sparse reports the BKL held on a return path" "$(grep -E 'leaks_bkl|CHECK' "$log")"
	fi
	if grep -qE 'CHECK .*balanced\.c' "$log" && ! grep -qE 'balanced\.c:[0-9]+:[0-9]+: ' "$log"; then
		pass "sparse is silent on balanced BKL users (plain, interruptible, wait, wrappers)"
	else
		fail "sparse is silent on balanced BKL users (plain, interruptible, wait, wrappers)" \
			"$(grep -E 'balanced\.c' "$log")"
	fi
}

# checkpatch --strict and kernel-doc on our files, with 6.12's own scripts.

# The migration fixtures are left out: they are modelled on old drivers, down
# to a non-const struct file_operations and LINUX_VERSION_CODE tests that the
# migration must handle.  So
# is the top-level Kconfig: to checkpatch, each of its source lines names
# the file itself (the kernel's own top-level Kconfig gets the same).
our_sources() {
	{ (cd "$REPO" && git ls-files -- '*.c' '*.h' 'lib/Kconfig*' 'drivers/*Kconfig' 2>/dev/null) ||
		(cd "$REPO" && find include lib drivers samples tools scripts -name '*.[ch]' -o -name 'Kconfig*'); } |
		grep -v -e '^tools/testing/locked-ioctl/fixtures/migrate/' -e '^tools/testing/locked-ioctl/fixtures/'
}

tier_checkpatch() {
	local k f out
	setup_tree 6.12 || return
	k=$(tree 6.12)
	for f in $(our_sources); do
		out=$(cd "$REPO" && perl "$k/scripts/checkpatch.pl" --strict --no-tree --show-types -f "$f" 2>&1)
		if grep -q '^total: 0 errors, 0 warnings, 0 checks' <<<"$out"; then
			pass "checkpatch --strict: $f"
		else
			fail "checkpatch --strict: $f" "$out"
		fi
	done
}

tier_kernel_doc() {
	local k f out
	setup_tree 6.12 || return
	k=$(tree 6.12)
	for f in include/linux/smp_lock.h include/linux/locked_ioctl.h include/linux/bkl_user.h \
		 include/linux/locked_ioctl_hooks.h \
		 lib/kernel_lock.c lib/deprecated_ioctl.c lib/locked_ioctl.c lib/bkl_users.c \
		 drivers/misc/locked_ioctl_test/locked_ioctl_test.h \
		 drivers/misc/locked_ioctl_test/lit.h drivers/misc/locked_ioctl_test/core.c \
		 drivers/misc/locked_ioctl_test/bkl.c; do
		out=$(cd "$REPO" && perl "$k/scripts/kernel-doc" -none -Wall "$f" 2>&1)
		if [ -z "$out" ] && [ -n "$(perl "$k/scripts/kernel-doc" -rst "$REPO/$f" 2>/dev/null)" ]; then
			pass "kernel-doc -Wall: $f"
		else
			fail "kernel-doc -Wall: $f" "$out"
		fi
	done
	htmldocs
}

# Our pages in the tree's own "make htmldocs" (Debian's Sphinx), with the
# API pulled from our headers: they build, without a warning of their own.
readonly OUR_DOCS_RE='(locking/locked-ioctl|dev-tools/bkl-users|dev-tools/bkl-migrate)\.rst|include/linux/(smp_lock|locked_ioctl|locked_ioctl_hooks|bkl_user)\.h|lib/(kernel_lock|deprecated_ioctl|locked_ioctl|bkl_users)\.c'

htmldocs() {
	local k log=$LOGS/htmldocs.log out=$BUILD/htmldocs/Documentation/output f bad
	k=$(tree 6.12)
	# the tree's Documentation/Makefile also runs tools/net/ynl (python3-yaml)
	if ! "$INSTALL/setup" --packages-only --package python3-sphinx \
		--package python3-sphinx-rtd-theme --package python3-yaml >"$log" 2>&1 ||
	   ! "$INSTALL/apply" -q "$k" >>"$log" 2>&1; then
		fail "make htmldocs: set up Sphinx and apply the layer" "$(tail -n 20 "$log")"
		return
	fi
	rm -rf "$out"
	if ! make -C "$k" O="$BUILD/htmldocs" SPHINXDIRS="locking dev-tools" htmldocs >"$log" 2>&1; then
		fail "make htmldocs SPHINXDIRS=\"locking dev-tools\" builds" "$(tail -n 20 "$log")"
		return
	fi
	bad=$(grep -E "$OUR_DOCS_RE" "$log" | grep -iE 'warning|error' || true)
	for f in locking/locked-ioctl dev-tools/bkl-users dev-tools/bkl-migrate; do
		[ -s "$out/$f.html" ] || bad+="no $f.html"$'\n'
	done
	grep -q 'DEFINE_BKL_IOCTL' "$out/locking/locked-ioctl.html" 2>/dev/null ||
		bad+="locked-ioctl.html has no API from the headers"$'\n'
	if [ -z "$bad" ]; then
		pass "make htmldocs: our pages build without a warning, with the API from the headers"
	else
		fail "make htmldocs: our pages build without a warning, with the API from the headers" "$bad"
	fi
}

# lint: shellcheck -S warning on our shell scripts, pyflakes on our Python.

# our_scripts LANG: the repository's files in LANG (sh or python), by
# extension or by #! line; the migration fixtures are C, and none is here.
our_scripts() {
	local lang=$1 f
	(cd "$REPO" && git ls-files) | while read -r f; do
		[ -f "$REPO/$f" ] || continue
		case $lang:${f##*/} in
		sh:*.sh | python:*.py) echo "$f" ;;
		*:*.*) ;;
		sh:*) head -n 1 "$REPO/$f" | grep -qE '^#!.*[/ ](ba|busybox )?sh$' && echo "$f" ;;
		python:*) head -n 1 "$REPO/$f" | grep -qE '^#!.*python3?$' && echo "$f" ;;
		esac
	done
}

tier_lint() {
	local log=$LOGS/lint.log f out n=0
	if ! "$INSTALL/setup" --packages-only --package shellcheck --package pyflakes3 >"$log" 2>&1; then
		fail "lint: install shellcheck and pyflakes3" "$(tail -n 20 "$log")"
		return
	fi
	for f in $(our_scripts sh); do
		n=$((n + 1))
		if out=$(cd "$REPO" && shellcheck -x -S warning "$f" 2>&1); then
			pass "shellcheck -S warning: $f"
		else
			fail "shellcheck -S warning: $f" "$out"
		fi
	done
	for f in $(our_scripts python); do
		n=$((n + 1))
		if out=$(cd "$REPO" && pyflakes3 "$f" 2>&1); then
			pass "pyflakes: $f"
		else
			fail "pyflakes: $f" "$out"
		fi
	done
	[ "$n" -gt 40 ] || fail "lint: the scripts were found ($n of them)"
}
