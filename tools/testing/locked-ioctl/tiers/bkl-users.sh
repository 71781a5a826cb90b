# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tier bkl-users: scripts/bkl-users on fixtures, on objects built against
# the QEMU tier's x86_64 kernel, and on the whole tree.  What it lists from
# that kernel's vmlinux and from its running registry, as a module comes and
# goes, the QEMU tier checks in its guest (lib/registry.sh).

tier_bkl_users() {
	local log=$LOGS/bkl-users-bkl.log
	qemu_kernel || return
	if fixture_build "$(qemu_src)" "$(qemu_build)" x86_64 bkl-users "$log"; then
		pass "CONFIG_BKL=y: the same BKL users build (M= out of tree)"
	else
		fail "CONFIG_BKL=y: the same BKL users build (M= out of tree)" "$(cat "$log")"
	fi
	bkl_users_script
	bkl_users_objects
	bkl_users_whole_tree
}

BKL_USERS=$REPO/scripts/bkl-users
RECORDS=$TESTING/records
readonly ANNOTATED_KINDS=bkl-ioctl,bkl-shim,bkl-direct,replacement

# scripts/bkl-users over the fixture: exactly what its "expect:" comments say.
bkl_users_script() {
	local fx=$TESTING/fixtures/scan out=$BUILD/test/bkl-users
	mkdir -p "$out"
	"$RECORDS" expected "$fx" >"$out/expected.json"
	if "$BKL_USERS" --json "$fx" >"$out/source.json" 2>"$out/source.err"; then
		expect "bkl-users: the fixture's listing is what its expect: comments say" \
			"$RECORDS" compare "$out/expected.json" "$out/source.json" \
			kind,name,file,line,handler,lock,config
	else
		fail "bkl-users: the fixture's listing is what its expect: comments say" "$(cat "$out/source.err")"
	fi
	expect_exit "bkl-users --check: exit 1 while BKL users remain" 1 'BKL user\(s\) remain' \
		"$BKL_USERS" --check "$fx"
	expect_exit "bkl-users --check: exit 0 on look-alikes, none listed" 0 '^KIND +NAME +LOCATION +HANDLER +LOCK +CONFIG$' \
		"$BKL_USERS" --check "$fx/lookalike.c"
	expect_exit "bkl-users: a directory outside any kernel tree is refused" 2 'not in a kernel tree' \
		"$BKL_USERS" "$TESTING/kunit"
	expect_exit "bkl-users: a missing path is refused" 2 'no such file' \
		"$BKL_USERS" "$fx/does-not-exist"
	expect_exit "bkl-users --objects: a file that is not ELF is refused" 2 'not an ELF object' \
		"$BKL_USERS" --objects "$fx/Kbuild"
	expect_exit "bkl-users --objects: an object without the section is refused" 2 'no __bkl_users_info section' \
		"$BKL_USERS" --objects /bin/true
	expect_exit "bkl-users --runtime: a missing registry file is refused" 2 'CONFIG_BKL_REGISTRY' \
		"$BKL_USERS" --runtime "$out/no-such-debugfs-file"
	expect_exit "bkl-users --runtime: a file in another format is refused" 2 'not a /sys/kernel/debug/bkl/users listing' \
		"$BKL_USERS" --runtime "$fx/Kbuild"
	expect_exit "bkl-users --help" 0 'Exit codes' "$BKL_USERS" --help
}

# The fixture's annotated users, built as a module: the ELF records agree with
# the source, and the module is sparse-clean.
bkl_users_objects() {
	local log=$LOGS/bkl-users-objects.log out=$BUILD/test/bkl-users ko
	ko=$(fixture_dir "$(qemu_build)" scan)/annotated.ko
	if ! fixture_build "$(qemu_src)" "$(qemu_build)" x86_64 scan "$log" CONFIG_SCAN_ANNOTATED=m \
		C=2 CHECK=sparse ||
	   [ ! -f "$ko" ]; then
		fail "bkl-users fixture: annotated.ko builds" "$(tail -n 30 "$log")"
		return
	fi
	if grep -qE 'annotated\.c:[0-9]+:[0-9]+: (warning|error)' "$log"; then
		fail "sparse: every generator is clean in a driver" "$(grep -E 'annotated\.c:' "$log")"
	else
		pass "sparse: every generator is clean in a driver"
	fi
	"$BKL_USERS" --objects --json "$ko" >"$out/module.json" 2>&1 || true
	expect "bkl-users --objects: a module's records agree with its source" \
		"$RECORDS" compare "$out/expected.json" "$out/module.json" \
		kind,name,line,handler,lock --basename --kinds "$ANNOTATED_KINDS"
}

# The whole 6.12 tree with the layer: megaraid_mm's ioctl, which holds
# mraid_mm_mutex around one call, is a candidate, and the only unannotated
# users are the layer's own tests (mainline has no lock_kernel() left).  The
# time is a figure for the notes, not a pass condition.
bkl_users_whole_tree() {
	local k s json=$BUILD/test/bkl-users/linux-6.12.json
	local name="bkl-users over the whole 6.12 tree"
	k=$(tree 6.12)
	setup_tree 6.12 || return
	# the layer's own users are in it (make apply is idempotent)
	if ! "$INSTALL/apply" -q "$k" >"$json.err" 2>&1; then
		fail "$name: apply onto linux-source-6.12" "$(cat "$json.err")"
		return
	fi
	s=$SECONDS
	if ! "$BKL_USERS" --json "$k" >"$json" 2>"$json.err"; then
		fail "$name" "$(cat "$json.err")"
		return
	fi
	echo "# bkl-users over linux-source-6.12: $((SECONDS - s)) s," \
		"$(grep -c '"kind"' "$json") records"
	# after "make migrate" on this tree, the replacement bkl-migrate made
	if "$INSTALL/migrate" --status "$k" >/dev/null 2>&1; then
		set -- replacement mraid_mm_ioctl "megaraid_mm is a replacement (the tree is migrated)"
	else
		set -- candidate mraid_mm_unlocked_ioctl "megaraid_mm is a candidate"
	fi
	expect "$name: $3" "$RECORDS" select "$json" kind="$1" handler="$2" \
		lock='&mraid_mm_mutex' config=MEGARAID_MM
	expect "$name: unannotated users only in the layer's tests" only_kunit_unannotated "$json"
}

# The files of a listing's unannotated users: one at least, each a KUnit
# suite's (exit 1 and the others printed if not).
only_kunit_unannotated() {
	local files
	files=$("$RECORDS" select "$1" kind=unannotated --print file) || return 1
	! grep -v '_kunit\.c$' <<<"$files"
}
