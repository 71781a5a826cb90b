# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The kernel trees under $BUILD/src, the x86_64 kernel the tiers compile
# against, and the fixtures built as external modules.  Sourced, not run;
# needs BUILD, LOGS, INSTALL, TESTING, JOBS (and BOOT_ARGS, boot's options,
# for qemu_kernel), lib/tap.sh and tools/locked-ioctl/lib/kernel.sh.

tree() { echo "$BUILD/src/linux-source-$1"; }

setup_tree() {
	"$INSTALL/setup" "$1" >/dev/null || { fail "set up linux-source-$1"; return 1; }
}

# Everything that identifies a tree's state: paths, sizes, contents.
snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

# fixture_dir O FIXTURE: where fixture_build copies FIXTURE to build it
# against the kernel build O.
fixture_dir() {
	local o=${1#"$BUILD"/}
	echo "$BUILD/test/${o//\//-}-$2"
}

# fixture_build SRC O ARCH FIXTURE LOG [MAKE ARG...]: a copy of the fixture
# directory built as an external module against the build O of the tree SRC
# for ARCH (-k: every file's errors), its output in LOG.
fixture_build() {
	local src=$1 o=$2 arch=$3 fixture=$4 log=$5 copy
	shift 5
	copy=$(fixture_dir "$o" "$fixture")
	rm -rf "$copy" && mkdir -p "$copy"
	cp "$TESTING/fixtures/$fixture"/* "$copy/"
	module_build "$src" "$o" "$arch" "$copy" -k "$@" modules >"$log" 2>&1
}

# The x86_64 Linux 6.12 kernel of the QEMU tier (boot), which the tiers
# compile against: built from QEMU_TREE (check --tree: make run's KDIR) or
# from $BUILD/src/migrated-6.12, the layer applied and the targets migrated.
qemu_src() { echo "${QEMU_TREE:-$BUILD/src/migrated-6.12}"; }
qemu_build() { echo "$BUILD/qemu${QEMU_TREE:+-tree}/migrated"; }

# qemu_kernel: that kernel is up to date (boot --build-only, once per run of
# check, unless the qemu tier built it), else a failed check and non-zero.
QEMU_KERNEL_READY=''
qemu_kernel() {
	local log=$LOGS/qemu-kernel.log
	[ -z "$QEMU_KERNEL_READY" ] || return 0
	if "$TESTING/boot" -j "$JOBS" "${BOOT_ARGS[@]}" --build-only >"$log" 2>&1; then
		QEMU_KERNEL_READY=1
		return 0
	fi
	fail "the QEMU tier's x86_64 kernel builds" "$(tail -n 20 "$log")"
	return 1
}
