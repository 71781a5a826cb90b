# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The kernel trees under $BUILD/src, and external-module builds against
# them.  Sourced, not run; needs BUILD, INSTALL, TESTING, JOBS,
# lib/tap.sh and tools/locked-ioctl/lib/kernel.sh.

tree() { echo "$BUILD/src/linux-source-$1"; }

setup_tree() {
	"$INSTALL/setup" "$1" >/dev/null || { fail "set up linux-source-$1"; return 1; }
}

# Everything that identifies a tree's state: paths, sizes, contents.
snapshot() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }

# fixture_build KVER BUILD_DIR FIXTURE LOG [MAKE ARG...]: a copy of the fixture
# directory built as an external module against the UML build BUILD_DIR
# (-k: every file's errors), its output in LOG.
fixture_build() {
	local kver=$1 bdir=$2 fixture=$3 log=$4 copy
	shift 4
	copy=$BUILD/test/$(basename "$bdir")-$fixture
	rm -rf "$copy" && mkdir -p "$copy"
	cp "$TESTING/fixtures/$fixture"/* "$copy/"
	module_build "$(tree "$kver")" "$bdir" um "$copy" -k "$@" modules >"$log" 2>&1
}
