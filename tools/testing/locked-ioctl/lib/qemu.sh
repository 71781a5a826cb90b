# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Booting an x86_64 kernel with an initramfs in QEMU, for the QEMU tier
# (boot) and the benchmarks (bench).  Sourced, not run; needs ME and ACCEL
# (auto, kvm, tcg or icount).

# qemu_x86 ACCEL SECS LOG KERNEL INITRD APPEND [QEMU ARG...]: boot KERNEL
# with INITRD, the serial console into LOG, the kernel's command line
# APPEND after console=ttyS0 panic=-1 tsc=reliable; killed after SECS.
# ACCEL kvm, tcg, or icount: TCG with the guest's clock counting
# instructions.  The QEMU arguments give the CPUs, the memory and the
# devices.  What QEMU itself says (a crash of the emulator, a timeout)
# goes into LOG.qemu with its exit status; the file is left only when QEMU
# said something or failed, so that a guest that vanishes without a word
# on its console can be told from a QEMU that died.  Returns QEMU's exit
# status (124: killed after SECS).
#
# tsc=reliable: under TCG, with more guest CPUs than the host has free,
# the clocksource watchdog finds the TSC skewed and marks sched_clock
# unstable, a static key whose text patch can kill the guest there and
# then, without a word (TCG runs code that another CPU is patching).  Four
# of six boots of the benchmark guest died so, none of eight with it.
qemu_x86() {
	local accel=$1 secs=$2 log=$3 kernel=$4 initrd=$5 append=$6 cpu=qemu64 opts rc=0
	shift 6
	opts=(-accel "$accel")
	case $accel in
	kvm) cpu=host,-arch-capabilities ;;
	icount) opts=(-accel tcg -icount "shift=0,align=off,sleep=off") ;;
	esac
	timeout --foreground -k 5 "$secs" qemu-system-x86_64 "${opts[@]}" -cpu "$cpu" "$@" \
		-nographic -no-reboot -monitor none -serial "file:$log" \
		-kernel "$kernel" -initrd "$initrd" -append "console=ttyS0 panic=-1 tsc=reliable $append" \
		>/dev/null 2>"$log.qemu" </dev/null || rc=$?
	if [ "$rc" != 0 ]; then
		echo "qemu-system-x86_64 exit status $rc" >>"$log.qemu"
	elif [ ! -s "$log.qemu" ]; then
		rm -f "$log.qemu"
	fi
	return "$rc"
}

# pick_accel LOG MARKER BOOT...: $ACCEL, or for auto kvm if /dev/kvm is
# usable and "BOOT... kvm $KVM_PROBE_SECS LOG" puts a line starting with
# MARKER on the console within that time, else tcg: KVM exists on some
# machines but hangs right after the BIOS.  Where it works, the guest's
# first line comes within two seconds; every run where it hangs waits the
# whole time.
readonly KVM_PROBE_SECS=15
pick_accel() {
	local log=$1 marker=$2
	shift 2
	[ "$ACCEL" = auto ] || { echo "$ACCEL"; return; }
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		rm -f "$log"
		"$@" kvm "$KVM_PROBE_SECS" "$log" || true
		if tr -d '\r' <"$log" 2>/dev/null | grep "^$marker" >/dev/null; then
			echo kvm
			return
		fi
		echo "$ME: KVM did not boot the guest in $KVM_PROBE_SECS s (see $log): using TCG" >&2
	else
		echo "$ME: no usable /dev/kvm: using TCG" >&2
	fi
	echo tcg
}
