# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tier oot: the layer as modules on Debian's kernel.

# Out of tree, on Debian's own kernel: the layer's modules against its
# headers (tools/locked-ioctl/install/modules), through DKMS too, the shim refused
# with the layer's message, and the boot of that kernel with the modules and
# the ported sample legacy driver (tools/testing/locked-ioctl/boot distro).

# count_boot ARGS...: tools/testing/locked-ioctl/boot ARGS, its checks counted as ours.
count_boot() { count_tap "$TESTING/boot" "$@"; }

tier_oot() {
	local krel
	setup_tree 6.12 || return
	"$INSTALL/setup" --packages-only --package linux-headers-amd64 --package dkms >/dev/null ||
		{ fail "set up linux-headers-amd64 and dkms"; return; }
	oot_shim_refused
	oot_multiversion
	# the guest loads what DKMS installed: the layer's package and the
	# sample's, a vendor's driver built against it
	krel=$("$INSTALL/modules" --release 2>/dev/null) || { fail "dkms: the headers' release"; return; }
	if oot_dkms_install "$krel"; then
		count_boot -j "$JOBS" --dkms distro
	fi
	oot_dkms_remove "$krel"
}

# Drivers written for many kernel versions (the multiversion fixtures of
# tools/testing/locked-ioctl) against Debian 12's own kernel, 6.1, with the
# layer's modules and sparse: as bkl-migrate left them, each builds without
# an error or a warning; as they were, each one it changed stops at an error
# (its old .ioctl, a handler today's kernels name but do not define) or,
# where its header says "Entry point: NAME", builds without that entry
# point, which the migrated one has; each one it left as it is builds.
oot_multiversion() {
	local fx=$REPO/tools/testing/locked-ioctl/fixtures/multiversion w=$BUILD/test/oot-multiversion
	local oot kdir mode f b o n=0 changed=0 built=0 vanished=0 bad="" entry
	oot=$("$INSTALL/modules" 2>"$LOGS/oot-multiversion.log") ||
		{ fail "make modules against Debian's headers" "$(tail -n 20 "$LOGS/oot-multiversion.log")"; return; }
	kdir=$(cat "$oot/.kdir")
	for mode in before after; do
		rm -rf "${w:?}/$mode" && mkdir -p "$w" && cp -r "$fx/$mode" "$w/$mode"
		make -C "$kdir" M="$w/$mode" LOCKED_IOCTL="$oot" -k -j"$JOBS" C=2 CHECK=sparse \
			modules >"$LOGS/oot-multiversion-$mode.log" 2>&1 || true
	done
	for f in "$fx"/after/*.c; do
		b=${f##*/}
		o=${b%.c}.o
		n=$((n + 1))
		entry=$(sed -n 's/^ \* Entry point: \([a-z0-9_]*\)$/\1/p' "$f")
		if grep -qE "/$b:[0-9]+:[0-9]+: (error|warning):" "$LOGS/oot-multiversion-after.log" ||
		   [ ! -f "$w/after/$o" ]; then
			bad+="after/$b: $(grep -m1 -E "/$b:[0-9]+:[0-9]+: (error|warning):" "$LOGS/oot-multiversion-after.log")"$'\n'
		fi
		if cmp -s "$fx/before/$b" "$f"; then
			[ -f "$w/before/$o" ] && built=$((built + 1)) || bad+="before/$b (left as it is) does not build"$'\n'
		elif [ -n "$entry" ]; then
			changed=$((changed + 1))
			if [ -f "$w/before/$o" ] && ! nm "$w/before/$o" | grep -qw "$entry" &&
			   nm "$w/after/$o" | grep -qw "$entry"; then
				vanished=$((vanished + 1))
			else
				bad+="before/$b (changed) has its entry point $entry, or after/$b has not"$'\n'
			fi
		else
			changed=$((changed + 1))
			grep -q "/$b:[0-9]*:[0-9]*: error:" "$LOGS/oot-multiversion-before.log" ||
				bad+="before/$b (changed) builds"$'\n'
		fi
	done
	if [ -z "$bad" ] && [ "$n" -ge 10 ] && [ "$changed" -ge 5 ] && [ "$vanished" -ge 2 ]; then
		pass "out of tree on 6.1: the $n multi-version fixtures build as bkl-migrate left them, no gcc or sparse warning; as they were, $built of $n build, $((changed - vanished)) of the $changed it changed stop at an error and $vanished build without their entry point"
	else
		fail "out of tree on 6.1: the multi-version fixtures build as bkl-migrate left them" "$bad"
	fi
	oot_check_build "$kdir" "$oot"
}

# bkl-migrate --check-build, the vendor's last step, on the same fixtures
# against the same headers: as they were (--dry-run), errors of its kind,
# exit 1; as it leaves them, none, exit 0.
oot_check_build() {
	local kdir=$1 oot=$2 w=$BUILD/test/oot-check-build
	local fx=$REPO/tools/testing/locked-ioctl/fixtures/multiversion
	rm -rf "$w" && mkdir -p "$w" && cp -r "$fx/before" "$w/tree"
	expect_exit "bkl-migrate --check-build: the unmigrated fixtures have errors about ioctl members, exit 1" \
		1 "check-build against .*: [0-9]+ file\(s\) compiled, [1-9][0-9]* with errors about ioctl members" \
		"$REPO/scripts/bkl-migrate" --dry-run --check-build "$kdir" --layer "$oot" --tree "$w/tree"
	expect_exit "bkl-migrate --check-build: once migrated, none, exit 0" \
		0 "check-build against .*: [0-9]+ file\(s\) compiled, 0 with errors about ioctl members, the BKL or the layer, 0 with other errors only" \
		"$REPO/scripts/bkl-migrate" --check-build "$kdir" --layer "$oot" --tree "$w/tree"
	expect_exit "bkl-migrate --check-build: a kernel without the layer and no --layer is refused, exit 2" \
		2 "has no locked-ioctl layer" env -u LOCKED_IOCTL \
		"$REPO/scripts/bkl-migrate" --check-build "$kdir" --tree "$w/tree"
}

# The deprecated_ioctl shim needs the core change: out of tree each way onto
# it fails to compile, with the layer's message as the file's first error.
oot_shim_refused() {
	local oot kdir copy=$BUILD/test/oot-shim log=$LOGS/oot-shim.log f first
	local msg='error: .*the deprecated_ioctl shim needs file_operations.locked_ioctl, which only a kernel with the layer applied has'
	oot=$("$INSTALL/modules" 2>"$log") || { fail "make modules against Debian's headers" "$(tail -n 20 "$log")"; return; }
	kdir=$(cat "$oot/.kdir")
	rm -rf "$copy" && mkdir -p "$copy"
	cp "$TESTING/fixtures/oot-shim"/* "$TESTING/fixtures/bkl-users/uses_deprecated_ioctl.c" "$copy/"
	if make -C "$kdir" M="$copy" LOCKED_IOCTL="$oot" -k -j1 modules >"$log" 2>&1; then
		fail "out of tree: the shim's users fail to build" "$(cat "$log")"
		return
	fi
	for f in uses_deprecated_ioctl uses_shim_user; do
		first=$(awk -v o="/$f.o" '/ CC \[M\] / { on = index($0, o) > 0; next } on' "$log" |
			grep -m1 'error:' || true)
		if grep -qE "$msg" <<<"$first"; then
			pass "out of tree: $f.c fails with the layer's message"
		else
			fail "out of tree: $f.c fails with the layer's message" "first error: $first"
		fi
	done
}

# DKMS, as a distribution's user runs it: add, build and install for the
# kernel of Debian's headers, then remove.

# The two packages: the layer's (as "make dkms-source" stages it) and the
# ported sample's, a vendor's.
readonly LAYER_DKMS_CONF=$REPO/dkms.conf
readonly SAMPLE_DKMS_CONF=$REPO/samples/locked_ioctl/legacy_ioctl/dkms.conf

# dkms_id CONF: NAME/VERSION, as the dkms.conf CONF names its package.
dkms_id() {
	sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p; s/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$1" | paste -sd/
}

# dkms_package KREL SRC LOG: SRC (its dkms.conf and sources) added, built
# and installed for KREL as the package its dkms.conf names; the modules it
# names must be in /lib/modules/KREL/updates/dkms, made for KREL.
dkms_package() {
	local krel=$1 src=$2 log=$3 id m
	id=$(dkms_id "$src/dkms.conf")
	dkms remove "$id" --all >/dev/null 2>&1 || true
	rm -rf "/usr/src/${id/\//-}" && cp -r "$src" "/usr/src/${id/\//-}"
	dkms add "$id" >>"$log" 2>&1 &&
	dkms build "$id" -k "$krel" >>"$log" 2>&1 &&
	dkms install "$id" -k "$krel" >>"$log" 2>&1 || return 1
	for m in $(sed -n 's/^BUILT_MODULE_NAME\[[0-9]*\]="\(.*\)"$/\1/p' "$src/dkms.conf"); do
		[ "$(modinfo -F vermagic "/lib/modules/$krel/updates/dkms/$m.ko" 2>/dev/null |
			cut -d' ' -f1)" = "$krel" ] || { echo "$m.ko is not installed for $krel" >>"$log"; return 1; }
	done
}

# The layer as a DKMS package, and the sample legacy driver, ported by
# bkl-migrate, as a vendor's package of its own that DKMS builds against
# it (BUILD_DEPENDS, the layer's headers and its Module.symvers), both
# installed for Debian's kernel KREL; the distro guest loads them.
oot_dkms_install() {
	local krel=$1 layer log=$LOGS/oot-dkms.log stage=$BUILD/test/oot-dkms symvers
	layer=$(dkms_id "$LAYER_DKMS_CONF")
	: >"$log"
	rm -rf "$stage" && "$INSTALL/modules" --dkms-source "$stage/layer" >/dev/null
	symvers=/var/lib/dkms/$layer/$krel/$(uname -m)/Module.symvers
	if dkms_package "$krel" "$stage/layer" "$log" && [ -s "$symvers" ]; then
		pass "dkms add, build and install $layer for $krel (its Module.symvers kept)"
	else
		fail "dkms add, build and install $layer for $krel (its Module.symvers kept)" \
			"$(tail -n 30 "$log"; ls -l "/lib/modules/$krel/updates/dkms" "$symvers" 2>&1)"
		return 1
	fi
	cp -r "$REPO/samples/locked_ioctl/legacy_ioctl" "$stage/legacy"
	rm -f "$stage/legacy/legacy_ioctl_test.c"
	if ! "$REPO/scripts/bkl-migrate" --tree "$stage/legacy" >>"$log" 2>&1; then
		fail "dkms: bkl-migrate ports the sample legacy driver" "$(tail -n 20 "$log")"
		return 1
	fi
	if dkms_package "$krel" "$stage/legacy" "$log"; then
		pass "dkms: the ported sample, a package of its own (BUILD_DEPENDS locked-ioctl), builds and installs for $krel"
	else
		fail "dkms: the ported sample, a package of its own (BUILD_DEPENDS locked-ioctl), builds and installs for $krel" \
			"$(tail -n 30 "$log")"
		return 1
	fi
}

# Both packages removed for KREL, their modules and the layer's
# Module.symvers gone.
oot_dkms_remove() {
	local krel=$1 log=$LOGS/oot-dkms.log dst=/lib/modules/$1/updates/dkms layer sample
	layer=$(dkms_id "$LAYER_DKMS_CONF") sample=$(dkms_id "$SAMPLE_DKMS_CONF")
	if dkms remove "$sample" --all >>"$log" 2>&1 &&
	   dkms remove "$layer" --all >>"$log" 2>&1 &&
	   [ ! -e "$dst/bkl.ko" ] && [ ! -e "$dst/legacy_ioctl.ko" ] &&
	   [ ! -e "/var/lib/dkms/$layer/$krel" ]; then
		pass "dkms remove takes both packages' modules away again"
	else
		fail "dkms remove takes both packages' modules away again" "$(tail -n 10 "$log"; ls -l "$dst" 2>&1)"
	fi
	rm -rf "/usr/src/${sample/\//-}" "/usr/src/${layer/\//-}"
}
