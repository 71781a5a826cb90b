# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The target drivers compiled alone, as external modules (M=), against the
# QEMU tier's kernel: the pristine guest's modules, sparse on the migrated
# targets against the same files unmodified, and the migrated targets
# against the kernel configured with CONFIG_BKL=n.  Sourced by boot, not
# run; needs its MIGRATED_SRC, PRISTINE_SRC, KBUILD, QEMU_DIR, LOGS and
# JOBS, lib/tap.sh and tools/locked-ioctl/lib/{kernel,manifest}.sh.

# A Makefile with its continued lines joined.
makefile_lines() { sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ta}' "$1"; }

# module_of FILE: the module that FILE (a target's path) is built into, as
# its path without .ko: its own, or the composite module whose -objs or -y
# list in the directory's Makefile names it (timerdev.c is in mISDN_core).
module_of() {
	local f=$1 dir=${1%/*} base mk mod
	base=${f##*/}
	base=${base%.c}
	mk=$PRISTINE_SRC/$dir/Makefile
	# grep reads to the end (no -q): under pipefail an early exit would kill
	# the writer with SIGPIPE and fail the pipeline at random
	if makefile_lines "$mk" |
	   grep -E '^obj-\$\(CONFIG_[A-Z0-9_]+\)[[:space:]]*\+=[[:space:]]*'"$base"'\.o\b' >/dev/null; then
		echo "$dir/$base"
		return 0
	fi
	mod=$(makefile_lines "$mk" |
		sed -nE 's/^([A-Za-z0-9_-]+)-(objs|y)[[:space:]]*[:+]?=(.*[[:space:]])?'"$base"'\.o([[:space:]].*)?$/\1/p' |
		sed -n 1p)
	[ -n "$mod" ] || { echo "$f: in no module of its directory's Makefile" >&2; return 1; }
	echo "$dir/$mod"
}

# The converted targets the guest drives: migration "converted" and a runtime
# name in the manifest.  Each is a module, or part of one (module_of).
migrated_runnable_files() {
	target_field '$4 == "converted" && $5 !~ /^-/' '$2'
}

# target_build SRC FILE OUT [TARGET...]: FILE of the tree SRC, alone, as an
# module (M=OUT) against the kernel build $M_KBUILD (default: the one the
# guests boot), with sparse; the other files of its directory come along,
# and a composite module's list of objects.  TARGET defaults to the module.
target_build() {
	local src=$1 f=$2 out=$3 base mod
	shift 3
	base=${f##*/}
	base=${base%.c}
	mod=$(module_of "$f") || return 1
	mod=${mod##*/}
	file_module "$src" "$f" "$out" "obj-m := $mod.o" || return 1
	[ "$mod" = "$base" ] ||
		makefile_lines "$src/${f%/*}/Makefile" | grep -E "^$mod-(objs|y)[[:space:]]*[:+]?=" >>"$out/Kbuild"
	module_build "$MIGRATED_SRC" "${M_KBUILD:-$KBUILD}" x86_64 "$out" C=2 CHECK=sparse \
		"${@:-modules}"
}

# in_parallel LOG CMD...: CMD in the background, its output in LOG and its
# exit status in LOG.rc, with at most $JOBS of them running at once (the
# caller waits for the last ones).  Each target is one object, so two
# builds keep two CPUs busy where one would leave one idle.
in_parallel() {
	local log=$1
	shift
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
	{
		local rc=0
		"$@" >"$log" 2>&1 || rc=$?
		echo "$rc" >"$log.rc"
	} &
}

# sparse on the test drivers (no warning at all) and on the converted targets
# that x86_64 builds (no warning more than in the unmodified file).  Each
# target is checked alone (M=), unmodified and migrated, so that both get
# the same flags: capi.c too, which Kconfig cannot enable on 6.12 (BT_CMTP
# depends on a DEPRECATED that does not exist).
readonly SPARSE_OURS="core bkl shim mutex"
# the targets the manifest says x86_64 builds
SPARSE_TARGETS=$(target_field '$8 == "x86_64"' '$2')
readonly SPARSE_TARGETS

check_sparse() {
	local log=$LOGS/qemu-sparse.log objs=() f n m v src base bad=""
	for f in $SPARSE_OURS; do objs+=("drivers/misc/locked_ioctl_test/$f.o"); done
	if ! make -C "$MIGRATED_SRC" O="$KBUILD" ARCH=x86_64 -j"$JOBS" C=2 CHECK=sparse \
		"${objs[@]}" >"$log" 2>&1; then
		fail "qemu sparse: the test drivers build" "$(tail -n 20 "$log")"
		return
	fi
	if grep -q 'CHECK .*locked_ioctl_test/core.c' "$log" &&
	   ! grep -qE 'locked_ioctl_test/[a-z_]+\.[ch]:[0-9]+:[0-9]+: ' "$log"; then
		pass "qemu sparse: 0 warnings in the test drivers (x86_64)"
	else
		fail "qemu sparse: 0 warnings in the test drivers (x86_64)" "$(grep -E 'locked_ioctl_test' "$log")"
	fi
	for f in $SPARSE_TARGETS; do
		base=${f##*/}
		base=${base%.c}
		for v in migrated pristine; do
			src=$MIGRATED_SRC
			[ "$v" = migrated ] || src=$PRISTINE_SRC
			in_parallel "$LOGS/qemu-sparse-$v-$base.log" \
				target_build "$src" "$f" "$QEMU_DIR/ext/sparse-$v/$base" "$base.o"
		done
	done
	wait
	for f in $SPARSE_TARGETS; do
		base=${f##*/}
		base=${base%.c}
		for v in migrated pristine; do
			log=$LOGS/qemu-sparse-$v-$base.log
			if [ "$(cat "$log.rc")" != 0 ] || ! grep -q "CHECK .*/$base\.c" "$log"; then
				bad+="$f ($v): does not build: $(grep -m1 'error' "$log" || true)"$'\n'
			fi
		done
		n=$(warning_count "$LOGS/qemu-sparse-migrated-$base.log" "$base")
		m=$(warning_count "$LOGS/qemu-sparse-pristine-$base.log" "$base")
		echo "# sparse $f: $n warnings migrated, $m unmodified"
		[ "$n" -le "$m" ] || bad+="$f: $n warnings, $m before the migration"$'\n'
	done
	if [ -z "$bad" ]; then
		pass "qemu sparse: the migrated targets have no warning the originals did not have"
	else
		fail "qemu sparse: the migrated targets have no warning the originals did not have" "$bad"
	fi
}

# The guests' configuration without the BKL and its registry, as a kernel
# that says N to both is, prepared for external modules.
readonly NOBKL_KBUILD=$QEMU_DIR/nobkl
prepare_nobkl() {
	local o=$NOBKL_KBUILD
	mkdir -p "$o"
	cmp -s "$KBUILD/.config" "$o/.config.bkl" ||
		cp "$KBUILD/.config" "$o/.config"
	"$MIGRATED_SRC/scripts/config" --file "$o/.config" --disable BKL \
		--disable BKL_REGISTRY --disable BKL_USER_STATS --disable BKL_WARN_UNANNOTATED &&
	make -s -C "$MIGRATED_SRC" O="$o" ARCH=x86_64 olddefconfig &&
	grep -qx '# CONFIG_BKL is not set' "$o/.config" &&
	! grep '^CONFIG_BKL' "$o/.config" &&
	make -s -C "$MIGRATED_SRC" O="$o" ARCH=x86_64 -j"$JOBS" modules_prepare &&
	cp "$KBUILD/.config" "$o/.config.bkl"
}

# Every migrated target that x86_64 builds compiles against a kernel
# without the BKL: none of them needs it any more (check-cross does the
# same for the other architectures, whose defconfigs leave CONFIG_BKL off).
check_nobkl_targets() {
	local log=$LOGS/qemu-nobkl-prepare.log f base bad="" n=0
	local name="CONFIG_BKL=n: every migrated x86_64 target compiles without the BKL"
	if ! prepare_nobkl >"$log" 2>&1; then
		fail "$name" "the CONFIG_BKL=n build could not be prepared: $(tail -n 20 "$log")"
		return
	fi
	for f in $SPARSE_TARGETS; do
		base=${f##*/}
		base=${base%.c}
		M_KBUILD=$NOBKL_KBUILD in_parallel "$LOGS/qemu-nobkl-$base.log" \
			target_build "$MIGRATED_SRC" "$f" "$QEMU_DIR/ext/nobkl/$base" "$base.o"
	done
	wait
	for f in $SPARSE_TARGETS; do
		base=${f##*/}
		base=${base%.c}
		log=$LOGS/qemu-nobkl-$base.log
		if cmp -s "$PRISTINE_SRC/$f" "$MIGRATED_SRC/$f"; then
			bad+="$f: not migrated"$'\n'
		elif [ "$(cat "$log.rc")" = 0 ] && [ -f "$QEMU_DIR/ext/nobkl/$base/$base.o" ]; then
			n=$((n + 1))
		else
			bad+="$f: $(grep -m1 'error' "$log" || tail -n 1 "$log")"$'\n'
		fi
	done
	if [ -z "$bad" ]; then
		pass "$name ($n files)"
	else
		fail "$name" "$bad"
	fi
}
