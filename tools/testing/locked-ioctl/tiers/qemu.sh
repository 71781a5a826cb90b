# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tiers qemu and bench: the QEMU x86_64 boots and the benchmarks' smoke run.

# QEMU x86_64: tools/testing/locked-ioctl/boot builds the kernel (the layer,
# the migrated targets, the KUnit suites), boots it and checks the guests;
# its checks count as ours.  The kernel is the one the later tiers compile
# against (lib/trees.sh): a run of boot that built it says so in a stamp.

tier_qemu() {
	local f rc
	setup_tree 6.12 || return
	# the log scanner on console logs we wrote: one clean, one per report
	for f in "$TESTING"/fixtures/guest-logs/*.log; do
		rc=0
		"$TESTING/boot" --scan "$f" >"$LOGS/qemu-scan.out" 2>&1 || rc=$?
		case ${f##*/}:$rc in
		clean.log:0) pass "qemu log scan: a clean log passes" ;;
		clean.log:*) fail "qemu log scan: a clean log passes" "$(cat "$LOGS/qemu-scan.out")" ;;
		*:1) pass "qemu log scan: ${f##*/} is reported" ;;
		*) fail "qemu log scan: ${f##*/} is reported (exit $rc)" "$(cat "$LOGS/qemu-scan.out")" ;;
		esac
	done
	rm -f "$(qemu_build)/.locked-ioctl-built"
	# make run's tree: its migrated guest only, as before
	count_boot -j "$JOBS" "${BOOT_ARGS[@]}" ${QEMU_TREE:+migrated}
	# shellcheck disable=SC2034 # lib/trees.sh's qemu_kernel reads it
	[ ! -f "$(qemu_build)/.locked-ioctl-built" ] || QEMU_KERNEL_READY=1
}

# The benchmark chain, with tiny sizes on the qemu tier's kernel, so that it
# cannot rot: make bench is not part of make check.
tier_bench() {
	local o out=$LOGS/bench-smoke rc=0 last log num='[0-9]+\.[0-9]{2}'
	local uml=$BUILD/kunit-6.1
	qemu_kernel || return
	o=$(qemu_build)
	if [ ! -x "$uml/linux" ]; then
		fail "bench smoke: the kunit-6.1 tier's UML kernel is built" \
			"no $uml/linux: run that tier first (check kunit-6.1 bench)"
		return
	fi
	rm -rf "$out"
	"$TESTING/bench" --smoke --kernel "$o" --uml-kernel "$uml" --out "$out" \
		-j "$JOBS" >"$LOGS/bench-smoke.log" 2>&1 || rc=$?
	if [ "$rc" = 0 ]; then
		pass "bench smoke: builds, boots and reports (exit 0)"
	else
		fail "bench smoke: builds, boots and reports (exit 0)" "exit $rc: $(tail -n 20 "$LOGS/bench-smoke.log")"
		return
	fi
	last=$(tail -n 1 "$LOGS/bench-smoke.log")
	if grep -Eqx "bench: generic/hand=$num bkl/mutex=$num bkl_off/none=n/a users/grep=$num migrate/spatch=$num (kvm|tcg)" <<<"$last"; then
		pass "bench smoke: the last line is the summary"
	else
		fail "bench smoke: the last line is the summary" "$last"
	fi
	expect "bench smoke: JSON and plot hold every variant, thread count and device mode" \
		python3 "$TESTING/bench_results.py" "$out"
	log=$BUILD/bench/logs/module-smoke.log
	if grep -q 'CHECK .*/bench\.c' "$log" && ! grep -qE 'bench\.c:[0-9]+:[0-9]+: (warning|error)' "$log"; then
		pass "sparse: 0 warnings in the benchmark driver"
	else
		fail "sparse: 0 warnings in the benchmark driver" "$(grep -E 'bench\.c' "$log")"
	fi
	bench_report_refuses
	bench_kernel_subset
}

# --kernels: a run of some kernels reports what they measured and n/a for the
# ratios that need another; a kernel that does not exist is a usage error.
bench_kernel_subset() {
	local t=$LOGS/bench-subset rc=0 last num='[0-9]+\.[0-9]{2}'
	local name="bench --kernels bkl: its ratios measured, those of other kernels n/a"
	rm -rf "$t" && mkdir -p "$t/logs"
	cp "$BUILD/bench/logs/guest-smoke.log" "$t/logs/guest-bkl.log"
	"$TESTING/bench-report" --kernels bkl --accel tcg --logs "$t/logs" --out "$t/out" \
		>"$t/out.txt" 2>&1 || rc=$?
	last=$(tail -n 1 "$t/out.txt")
	if [ "$rc" = 0 ] &&
	   [[ $last =~ ^bench:\ generic/hand=$num\ bkl/mutex=$num\ bkl_off/none=n/a\  ]]; then
		pass "$name"
	else
		fail "$name" "exit $rc: $(tail -n 5 "$t/out.txt")"
	fi
	rc=0
	"$TESTING/bench" --kernels bkl,foo --no-tools >"$t/usage.txt" 2>&1 || rc=$?
	if [ "$rc" = 2 ] && grep -q 'no kernel foo' "$t/usage.txt"; then
		pass "bench --kernels: an unknown kernel is a usage error (exit 2)"
	else
		fail "bench --kernels: an unknown kernel is a usage error (exit 2)" \
			"exit $rc: $(cat "$t/usage.txt")"
	fi
}

# A guest log without the figures of one variant is refused, not reported.
bench_report_refuses() {
	local t=$LOGS/bench-refuse rc=0
	rm -rf "$t" && mkdir -p "$t/logs"
	grep -v '^kernel shim ' "$BUILD/bench/logs/guest-smoke.log" >"$t/logs/guest-smoke.log" || true
	"$TESTING/bench-report" --smoke --accel tcg --logs "$t/logs" --out "$t/out" >"$t/out.txt" 2>&1 || rc=$?
	if [ "$rc" = 1 ] && grep -q 'no in-kernel figures for shim' "$t/out.txt" &&
	   [ ! -e "$t/out/results.json" ]; then
		pass "bench-report: a guest log without one variant's figures is refused (exit 1)"
	else
		fail "bench-report: a guest log without one variant's figures is refused (exit 1)" \
			"exit $rc: $(cat "$t/out.txt")"
	fi
}
