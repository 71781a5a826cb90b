# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Kernel trees and builds, for the scripts that install, release and test
# the layer: a Debian source tarball extracted once, a configuration made of
# fragments, an external-module build, a long build's progress.  Sourced,
# not run; every function returns non-zero on failure and exits nothing.

# extract_kernel TARBALL DST: the sources of TARBALL (Debian's
# /usr/src/linux-source-X.tar.xz) in DST, without the tarball's top
# directory, extracted once.  The stamp that says DST is complete lies beside
# it, not in it: a tree may become the base of a patch series.
extract_kernel() {
	local tarball=$1 dst=$2 stamp
	stamp=$(dirname "$dst")/.$(basename "$dst").extracted
	[ -f "$stamp" ] && [ -d "$dst" ] && return 0
	if [ ! -f "$tarball" ]; then
		echo "no $tarball: run tools/locked-ioctl/install/setup first" >&2
		return 1
	fi
	rm -rf "$dst" "$stamp" && mkdir -p "$dst" &&
	tar -C "$dst" --strip-components=1 -xf "$tarball" &&
	: >"$stamp"
}

# last_settings FRAGMENT...: the settings of the fragments, the last one of
# each symbol only (a later fragment overrides an earlier one, as
# merge_config.sh does), in the order each symbol first appears.
last_settings() {
	cat "$@" | awk '
		/^CONFIG_/ { sym = $0; sub(/=.*/, "", sym) }
		/^# CONFIG_.* is not set$/ { sym = $2 }
		/^(CONFIG_|# CONFIG_.* is not set$)/ { if (!(sym in line)) order[n++] = sym; line[sym] = $0 }
		END { for (i = 0; i < n; i++) print line[order[i]] }'
}

# configure_kernel SRC O ARCH BASE FRAGMENT...: the build directory O of the
# tree SRC configured for ARCH: BASE (tinyconfig, or "fragments" for the
# fragments alone, as kunit.py starts UML) with the fragments merged in,
# then olddefconfig.  Every setting of the fragments must land: the ones
# that did not are printed and it fails.  Done again only when the
# fragments change.
configure_kernel() {
	local src=$1 o=$2 arch=$3 base=$4 sum line sym missing=""
	shift 4
	sum=$(cat "$@" | sha256sum | cut -d' ' -f1)
	[ -f "$o/.config" ] && [ "$(cat "$o/.fragments" 2>/dev/null)" = "$sum" ] && return 0
	mkdir -p "$o"
	rm -f "$o/.fragments"
	if [ "$base" = fragments ]; then
		cat "$@" >"$o/.config"
	else
		make -s -C "$src" O="$o" ARCH="$arch" "$base" >/dev/null &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$o" "$o/.config" "$@" >/dev/null
	fi &&
	make -s -C "$src" O="$o" ARCH="$arch" olddefconfig >/dev/null || return 1
	while read -r line; do
		case $line in
		"# CONFIG_"*) sym=${line#\# }; sym=${sym%% *}
			! grep -q "^$sym=" "$o/.config" || missing+="$line"$'\n' ;;
		CONFIG_*) grep -qxF "$line" "$o/.config" || missing+="$line"$'\n' ;;
		esac
	done < <(last_settings "$@")
	if [ -n "$missing" ]; then
		echo "lines of the fragments that did not land in $o/.config:"
		printf '%s' "$missing"
		return 1
	fi
	echo "$sum" >"$o/.fragments"
}

# module_build SRC O ARCH DIR [MAKE ARG...]: the directory DIR built as an
# external module (M=) against the build O of the tree SRC, with $JOBS jobs;
# the make arguments default to "modules".
module_build() {
	local src=$1 o=$2 arch=$3 dir=$4
	shift 4
	make -C "$src" O="$o" ARCH="$arch" M="$dir" -j"${JOBS:-$(nproc)}" "${@:-modules}"
}

# progress [--objects-in DIR] LABEL LOG CMD...: CMD with its output in LOG,
# and on stderr, once a minute while it runs, how far it got: the objects
# compiled (kbuild's "CC" lines in LOG, or with --objects-in the .o files
# below DIR, for a build whose output LOG does not get) and the minutes.
# Its exit status is CMD's.
progress() {
	local dir="" label log pid rc=0 start=$SECONDS n
	if [ "$1" = --objects-in ]; then
		dir=$2
		shift 2
	fi
	label=$1 log=$2
	shift 2
	"$@" >"$log" 2>&1 &
	pid=$!
	while ! wait_for "$pid" 60; do
		if [ -n "$dir" ]; then
			n=$(find "$dir" -name '*.o' 2>/dev/null | wc -l)
		else
			n=$(grep -c '^  CC ' "$log" || true)
		fi
		echo "# $label: $n objects compiled, $(((SECONDS - start) / 60)) min" >&2
	done
	wait "$pid" || rc=$?
	return "$rc"
}

# wait_for PID SECS: has PID ended within SECS seconds?
wait_for() {
	local i
	for ((i = 0; i < $2; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 1
	done
	! kill -0 "$1" 2>/dev/null
}

# file_module TREE FILE OUT KBUILD: OUT made a directory to build FILE of the
# kernel tree TREE alone as an external module: the C sources and headers of
# FILE's directory, and a Kbuild file of the text KBUILD.
file_module() {
	local tree=$1 f=$2 out=$3 kbuild=$4
	rm -rf "$out" && mkdir -p "$out" &&
	find "$tree/${f%/*}" -maxdepth 1 -type f -name '*.[ch]' -exec cp -p -t "$out/" {} + &&
	printf '%s\n' "$kbuild" >"$out/Kbuild"
}

# warning_count LOG BASE: the warnings and errors of gcc or sparse in the
# build log LOG about BASE.c.
warning_count() { grep -cE "(^|/)$2\.c:[0-9]+:[0-9]+: (warning|error)" "$1" || true; }

# use_ccache REPO: every gcc call of this process and its children through
# ccache, in its default cache directory.  Paths below REPO are hashed as
# relative ones, so a clone elsewhere (CI's) hits what this one cached.
# Depend mode: a miss costs one compile, not a preprocessing run besides
# (a cold kernel build took 197 s, against 280 s in ccache's default mode
# and 182 s without ccache, on the same tree and machine), and a hit is as
# fast as ever; kbuild writes the dependency files it needs.
use_ccache() {
	export PATH=/usr/lib/ccache:$PATH
	export CCACHE_BASEDIR=$1 CCACHE_NOHASHDIR=true CCACHE_DEPEND=true
}
