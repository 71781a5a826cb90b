# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The BKL users of the QEMU guest: what the registry of the running kernel
# lists (/sys/kernel/debug/bkl/, the guest's sections), against the users'
# sources and the records of the built objects (scripts/bkl-users), as
# modules come and go.  Sourced by boot, not run; needs its MIGRATED_SRC,
# KBUILD, LOGS, TESTING and REPO, section(), lib/tap.sh and lib/targets.sh.

readonly RECORDS=$TESTING/records BKL_USERS=$REPO/scripts/bkl-users
readonly ANNOTATED_KINDS=bkl-ioctl,bkl-shim,bkl-direct,replacement
# The layer's KUnit suites, built into the guest's kernel: each file is a
# user prefix of its own in the registry ("bkl_kunit:...").
readonly KUNIT_SOURCES="lib/bkl_kunit.c lib/locked_ioctl_kunit.c lib/bkl_users_kunit.c"

# The source files of the guest's BKL users: the test drivers and the
# migrated targets the guest drives.
user_sources() {
	local f
	# the test drivers, not the benchmark driver, which this guest never loads
	for f in "$MIGRATED_SRC"/drivers/misc/locked_ioctl_test/*.[ch]; do
		[ "${f##*/}" = bench.c ] || echo "$f"
	done
	for f in $(migrated_runnable_files); do echo "$MIGRATED_SRC/$f"; done
}

# module_users: the users of the guest's modules, from their sources, as
# $KBUILD/bkl-users/source.json; prints the module names, which must all have
# users.
module_users() {
	local out=$KBUILD/bkl-users m mods="locked_ioctl_test" f srcs
	mkdir -p "$out"
	mapfile -t srcs < <(user_sources)
	"$BKL_USERS" --json --tree "$MIGRATED_SRC" "${srcs[@]}" >"$out/source.json" 2>&1 || true
	for f in $(migrated_runnable_files); do
		f=$(module_of "$f") || return 1
		mods+=" ${f##*/}"
	done
	for m in $mods; do
		grep -q "\"$m:" "$out/source.json" || { echo "no BKL user of module $m in its source" >&2; return 1; }
	done
	echo "$mods"
}

# The registry of the running kernel lists every user of the guest's modules
# with the calls the tests made, and nobody holds the BKL.
check_registry() {
	local v=$1 users rec recs missing=""
	users=$(section "$v" bkl-users)
	if ! module_users >/dev/null 2>"$LOGS/qemu-$v-users.err"; then
		fail "qemu $v: the registry lists the users the tests ran, with their calls" \
			"$(cat "$LOGS/qemu-$v-users.err" "$KBUILD/bkl-users/source.json")"
		return
	fi
	recs=$("$RECORDS" select "$KBUILD/bkl-users/source.json" || true)
	for rec in $recs; do
		awk -F'\t' -v r="$rec" '$1 == r && $4 > 0 { found = 1 } END { exit !found }' <<<"$users" ||
			missing+="$rec"$'\n'
	done
	if [ -z "$missing" ]; then
		pass "qemu $v: the registry lists the users the tests ran, with their calls ($(wc -l <<<"$recs"))"
	else
		fail "qemu $v: the registry lists the users the tests ran, with their calls" \
			"no record with hits > 0 for:"$'\n'"$missing$users"
	fi
	if [ "$(section "$v" bkl-holder)" = none ]; then
		pass "qemu $v: nobody holds the BKL after the tests"
	else
		fail "qemu $v: nobody holds the BKL after the tests" "$(section "$v" bkl-holder)"
	fi
}

# The pristine guest ran the unmodified target modules: its registry lists
# the test drivers' users, and none of a migrated target.
check_pristine_registry() {
	local users f base bad=""
	users=$(section pristine bkl-users)
	grep -q '^locked_ioctl_test:' <<<"$users" || bad+="no locked_ioctl_test user: no registry?"$'\n'
	for f in $(migrated_runnable_files); do
		base=$(module_of "$f") || { bad+="$f: no module"$'\n'; continue; }
		base=${base##*/}
		! grep -q "^$base:" <<<"$users" || bad+="$base: a user of the migrated module"$'\n'
	done
	if [ -z "$bad" ]; then
		pass "qemu pristine: the migrated targets ran unmodified (none in the registry)"
	else
		fail "qemu pristine: the migrated targets ran unmodified (none in the registry)" "$bad$users"
	fi
}

# agree NAME PREFIX... : the records of each PREFIX are the same in
# source.json, objects.json and runtime.json of $KBUILD/bkl-users (kind,
# name, line, handler and lock; the layer's kinds); a check named NAME.
agree() {
	local name=$1 out=$KBUILD/bkl-users p bad="" keys=kind,name,line,handler,lock
	shift
	: >"$out/compare.txt"
	for p in "$@"; do
		"$RECORDS" compare "$out/source.json" "$out/objects.json" $keys --basename \
			--kinds "$ANNOTATED_KINDS" --prefix "$p:" >>"$out/compare.txt" 2>&1 &&
		"$RECORDS" compare "$out/objects.json" "$out/runtime.json" $keys --basename \
			--kinds "$ANNOTATED_KINDS" --prefix "$p:" >>"$out/compare.txt" 2>&1 ||
			bad+="$p"$'\n'
	done
	if [ -z "$bad" ]; then
		pass "$name ($*)"
	else
		fail "$name" "$bad$(cat "$out/compare.txt")"
	fi
}

# The users of the guest's modules, and those of the KUnit suites built into
# its kernel, are the same from their sources, from the .ko files and
# vmlinux, and from the registry of the running kernel.
check_agreement() {
	local v=$1 o=$KBUILD out=$KBUILD/bkl-users m mods kos=() srcs=() f
	mods=$(module_users 2>&1) || { fail "qemu $v: the modules' BKL users agree" "$mods"; return; }
	kos=("$o/drivers/misc/locked_ioctl_test/locked_ioctl_test.ko")
	for m in $(migrated_runnable_files); do
		m=$(module_of "$m") || { fail "qemu $v: the modules' BKL users agree" "$m"; return; }
		kos+=("$o/$m.ko")
	done
	section "$v" bkl-users >"$out/runtime.txt"
	"$BKL_USERS" --runtime "$out/runtime.txt" --json >"$out/runtime.json" 2>&1 || true
	"$BKL_USERS" --objects --json "${kos[@]}" >"$out/objects.json" 2>&1 || true
	# module_users left the modules' source.json
	agree "qemu $v: the modules' BKL users agree from source, .ko and the running kernel" $mods
	for f in $KUNIT_SOURCES; do srcs+=("$MIGRATED_SRC/$f"); done
	"$BKL_USERS" --json --tree "$MIGRATED_SRC" "${srcs[@]}" >"$out/source.json" 2>&1 || true
	"$BKL_USERS" --objects --json "$o/vmlinux" >"$out/objects.json" 2>&1 || true
	mods=""
	for f in $KUNIT_SOURCES; do
		f=${f##*/}
		mods+=" ${f%.c}"
	done
	# shellcheck disable=SC2086
	agree "qemu $v: the built-in KUnit suites' BKL users agree from source, vmlinux and the running kernel" $mods
}

# The registry as a module comes and goes (the guest's registry-* sections):
# the fixture module of scripts/bkl-users (fixtures/scan/annotated.c), loaded
# and unloaded before any other module.
check_registry_boot() {
	local v=$1 out=$KBUILD/bkl-users step name
	name="qemu $v: registry"
	mkdir -p "$out"
	"$RECORDS" expected "$TESTING/fixtures/scan" >"$out/scan-expected.json"
	"$BKL_USERS" --objects --json "$KBUILD/vmlinux" >"$out/vmlinux.json" 2>&1 || true
	for step in before loaded unloaded; do
		section "$v" "registry-$step" >"$out/registry-$step.txt"
		"$BKL_USERS" --runtime "$out/registry-$step.txt" --json >"$out/registry-$step.json" 2>&1 || true
	done
	expect "$name: a loaded module's users are listed, as its source says" \
		"$RECORDS" compare "$out/scan-expected.json" "$out/registry-loaded.json" \
		kind,name,line,handler,lock --basename --kinds "$ANNOTATED_KINDS" --prefix annotated:
	expect "$name: the built-in users are listed as vmlinux has them" \
		"$RECORDS" compare "$out/vmlinux.json" "$out/registry-before.json" \
		kind,name,line,handler,lock --basename
	if section "$v" registry-insmod | grep -q '^insmod ok' &&
	   section "$v" registry-rmmod | grep -q '^rmmod ok' &&
	   ! grep -q '"name": "annotated:' "$out/registry-unloaded.json" &&
	   cmp -s "$out/registry-before.json" "$out/registry-unloaded.json"; then
		pass "$name: the module's users are gone after rmmod"
	else
		fail "$name: the module's users are gone after rmmod" \
			"$(section "$v" registry-insmod; section "$v" registry-rmmod; cat "$out/registry-unloaded.txt")"
	fi
	if [ "$(section "$v" registry-holder)" = none ]; then
		pass "$name: holder says none when nobody holds the BKL"
	else
		fail "$name: holder says none when nobody holds the BKL" "$(section "$v" registry-holder)"
	fi
}

