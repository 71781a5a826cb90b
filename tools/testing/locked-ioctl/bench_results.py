#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Check the results directory of tools/testing/locked-ioctl/bench --smoke: the
# JSON has, for every variant, in-kernel and userspace figures for each
# thread count and device mode that were asked for, all positive, and ratios
# that agree with them; the SVG is well-formed and plots every variant.  With
# a UML kernel in the run (bench --uml-kernel), it has the in-kernel figures
# of every variant too, and under TCG the summary's ratios are its own.
# The boot under -icount (bench's default) gives the instruction counts of
# every variant, in-kernel and round trip, and their ratios.

"""Usage: bench_results.py RESULTS_DIR

Exit codes: 0 the results are complete; 1 something is missing or wrong
(printed); 2 usage error."""

import json
import os
import sys
import xml.etree.ElementTree as ET

VARIANTS = ("bare", "hand", "generic", "bkl", "shim")
MODES = {"same": ("1", "2", "4"), "diff": ("2", "4")}


def check(out):
    errors = []
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    k = res["kernels"].get("smoke")
    if not k:
        return ["no kernel 'smoke' in results.json"]
    reps = None
    for v in VARIANTS:
        kn = k["kernel_ns"].get(v)
        if not kn or not all(x > 0 for x in kn["values"]):
            errors.append("in-kernel figures of %s: %s" % (v, kn))
            continue
        reps = reps or len(kn["values"])
        if len(kn["values"]) != reps:
            errors.append("%s: %d repetitions, not %d" % (v, len(kn["values"]), reps))
        if not kn["min"] <= kn["median"] <= kn["max"]:
            errors.append("%s: median outside min..max" % v)
        for mode, threads in MODES.items():
            for t in threads:
                u = k["user_ns"].get(v, {}).get(mode, {}).get(t)
                if not u or len(u["values"]) != reps or not all(x > 0 for x in u["values"]):
                    errors.append("userspace figures of %s %s %s threads: %s" % (v, mode, t, u))
    uml = res["kernels"].get("uml")
    for v in VARIANTS if uml else ():
        kn = uml["kernel_ns"].get(v)
        if not kn or len(kn["values"]) != reps or not all(x > 0 for x in kn["values"]):
            errors.append("UML in-kernel figures of %s: %s" % (v, kn))
    ic = res.get("icount", {}).get("smoke")
    if not ic:
        errors.append("no -icount figures of the smoke kernel")
    for v in VARIANTS if ic else ():
        kn = ic["kernel_ns"].get(v)
        u = ic["user_ns"].get(v, {}).get("same", {}).get("1")
        if not kn or not all(x > 0 for x in kn["values"]) or \
                not u or not all(x > 0 for x in u["values"]):
            errors.append("-icount figures of %s: %s, %s" % (v, kn, u))
    r = res["ratios"]
    if not errors and ic:
        for name, num in (("icount generic/hand", "generic"), ("icount bkl/mutex", "bkl")):
            want = ic["kernel_ns"][num]["median"] / ic["kernel_ns"]["hand"]["median"]
            if abs(r[name] - want) > 1e-3:
                errors.append("%s %s is not %s" % (name, r[name], want))
    if not errors:
        cpu = uml if uml and res["accel"] != "kvm" else k
        for name, src, num in (("generic/hand", cpu, "generic"), ("bkl/mutex", cpu, "bkl"),
                               ("guest generic/hand", k, "generic"),
                               ("guest bkl/mutex", k, "bkl")):
            want = src["kernel_ns"][num]["median"] / src["kernel_ns"]["hand"]["median"]
            if abs(r[name] - want) > 1e-3:
                errors.append("%s %s is not %s" % (name, r[name], want))
    if r.get("bkl_off/none") is not None:
        errors.append("a smoke run has no second kernel, yet bkl_off/none = %s" % r["bkl_off/none"])
    for name in ("users/grep", "migrate/spatch"):
        if not r.get(name) or r[name] <= 0:
            errors.append("no tool ratio %s" % name)
    svg = ET.parse(os.path.join(out, "ns-per-ioctl.svg")).getroot()
    lines = [e for e in svg.iter() if e.tag.endswith("polyline")]
    colours = {e.get("stroke") for e in lines}
    if len(lines) != 2 * len(VARIANTS) or len(colours) != len(VARIANTS):
        errors.append("the plot has %d lines in %d colours, not %d in %d"
                      % (len(lines), len(colours), 2 * len(VARIANTS), len(VARIANTS)))
    if not open(os.path.join(out, "results.txt")).read().rstrip().endswith(res["summary"]):
        errors.append("results.txt does not end with the summary line")
    return errors


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(__doc__, file=sys.stderr if argv[:1] != ["-h"] and argv[:1] != ["--help"] else sys.stdout)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    try:
        errors = check(argv[0])
    except (OSError, ValueError, KeyError, ET.ParseError) as e:
        errors = ["cannot read the results: %s" % e]
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
