# SPDX-License-Identifier: GPL-2.0
#
# bench-report: turn what tools/testing/locked-ioctl/bench measured (the guests'
# logs, the kernels' text sizes, the tools' times) into a table, JSON and an
# SVG plot, and print the one-line summary last.

"""Report the figures of tools/testing/locked-ioctl/bench.

Reads LOGS/guest-K.log for each kernel K that ran (none, nobkl, bkl, stats,
uml, or smoke), TEXTS/text-K (the text size of K's vmlinux) and the tools' times;
writes OUT/results.txt, OUT/results.json and OUT/ns-per-ioctl.svg, prints the
table and, last, the summary line:

  bench: generic/hand=R bkl/mutex=R bkl_off/none=R users/grep=R migrate/spatch=R kvm|tcg

With --icount it also reads LOGS/icount-K.log, the boots of none, nobkl,
bkl (or smoke) under QEMU's -icount, whose figures are instructions.

Ratios are of medians over the repetitions; a ratio that this run could not
measure is n/a.  The in-kernel ratios of the summary come from the QEMU guest
under KVM, and from the UML kernel (the host's own CPU) when the guest ran
under TCG and the UML kernel ran too; bkl_off/none from the round trips'
instructions under -icount when the guests ran under TCG, whose times of two
boots differ by more than what it measures.  Exit codes: 0 done; 1 a guest's figures are missing or it
reported a failure; 2 usage error.
"""

import argparse
import json
import os
import platform
import statistics
import sys

# the variants each kernel must have
VARIANTS = ("bare", "hand", "generic", "bkl", "shim")
EXPECTED = {
    "none": ("bare", "hand"),
    "nobkl": ("bare", "hand", "generic"),
    "bkl": VARIANTS,
    "stats": VARIANTS,
    "smoke": VARIANTS,
    "uml": VARIANTS,
}
# kernels whose userspace round trip is no figure (UML: ptrace() system calls)
NO_USER_FIGURES = ("uml",)
KERNEL_TITLES = {
    "none": "Linux without the layer",
    "nobkl": "the layer, CONFIG_BKL=n",
    "bkl": "CONFIG_BKL=y, counters compiled out",
    "stats": "CONFIG_BKL=y, CONFIG_BKL_USER_STATS=y",
    "smoke": "smoke run (tiny sizes): no figures",
    "uml": "UML, CONFIG_BKL=y, counters compiled out: the host's CPU",
}
# the kernels booted once more under -icount
ICOUNT_KERNELS = ("none", "nobkl", "bkl", "smoke")
COLOURS = {"bare": "#777777", "hand": "#1f77b4", "generic": "#2ca02c",
           "bkl": "#d62728", "shim": "#ff7f0e"}


class Missing(Exception):
    """A guest did not deliver what it should have."""


def summary(values):
    """Median, min, max and spread (max - min over the median, in %)."""
    med = statistics.median(values)
    return {"median": med, "min": min(values), "max": max(values),
            "spread_pct": 100.0 * (max(values) - min(values)) / med if med else 0.0,
            "values": values}


def sections(path):
    """{name: [lines]} of a guest log."""
    result, cur = {}, None
    with open(path, errors="replace") as f:
        for line in f.read().replace("\r", "").splitlines():
            if line.startswith("=== "):
                cur = result.setdefault(line[4:].strip(), [])
            elif cur is not None:
                cur.append(line)
    return result


def parse_guest(path, kernel):
    if not os.path.exists(path):
        raise Missing("%s: no guest log" % path)
    sec = sections(path)
    for name in ("guest", "kernel", "user", "end"):
        if name not in sec:
            raise Missing("%s: no section %s (the guest did not finish)" % (path, name))
    insmod = [l for l in sec["guest"] if l.startswith("insmod:")]
    if not insmod or not insmod[0].startswith("insmod: 0"):
        raise Missing("%s: the benchmark driver did not load: %s" % (path, insmod))
    if "exit: 0" not in sec["user"]:
        raise Missing("%s: the userspace benchmark failed:\n  %s"
                      % (path, "\n  ".join(sec["user"][-5:])))
    cpus = next((l.split()[1] for l in sec["guest"] if l.startswith("cpus:")), "?")
    kern, user = {}, {}
    for line in sec["kernel"]:
        f = line.split()
        # kernel <variant> rep <r> iters <n> ns <total>
        if len(f) == 8 and f[0] == "kernel":
            kern.setdefault(f[1], []).append(int(f[7]) / int(f[5]))
    for line in sec["user"]:
        f = line.split()
        # user <variant> <same|diff> <threads> <rep> <ns>
        if len(f) == 6 and f[0] == "user":
            user.setdefault(f[1], {}).setdefault(f[2], {}).setdefault(
                int(f[3]), []).append(float(f[5]))
    for v in EXPECTED[kernel]:
        if v not in kern:
            raise Missing("%s: no in-kernel figures for %s" % (path, v))
        if v not in user and kernel not in NO_USER_FIGURES:
            raise Missing("%s: no userspace figures for %s" % (path, v))
    return {
        "title": KERNEL_TITLES[kernel], "cpus": cpus,
        "kernel_ns": {v: summary(x) for v, x in kern.items()},
        "user_ns": {v: {m: {str(t): summary(x) for t, x in sorted(ts.items())}
                        for m, ts in modes.items()}
                    for v, modes in user.items()},
    }


def ratio(a, b):
    return round(a / b, 4) if a is not None and b else None


def kmed(res, k, v):
    try:
        return res[k]["kernel_ns"][v]["median"]
    except KeyError:
        return None


def umed(res, k, v, mode="same", threads=1):
    try:
        return res[k]["user_ns"][v][mode][str(threads)]["median"]
    except KeyError:
        return None


def fmt(r):
    return "n/a" if r is None else "%.2f" % r


def table(res, ratios, texts, tools, accel, smoke, ioctl_path, icount):
    out = []
    out.append("locked-ioctl benchmark (%s%s; host %s, %d CPUs)"
               % (accel, ", smoke run: the sizes are too small for figures" if smoke else "",
                  platform.machine(), os.cpu_count()))
    if accel == "tcg":
        out.append("TCG: ratios between variants of one guest mean something; "
                   "absolute ns do not.")
    for k, r in res.items():
        out.append("")
        out.append("kernel %s: %s (%s %s CPUs)"
                   % (k, r["title"], r["cpus"], "UML" if k == "uml" else "guest"))
        out.append("  in-kernel loop, ns per call: median (min-max, spread)")
        for v in VARIANTS:
            s = r["kernel_ns"].get(v)
            if s:
                out.append("    %-8s %9.1f  (%.1f-%.1f, %.1f%%)"
                           % (v, s["median"], s["min"], s["max"], s["spread_pct"]))
        if k in NO_USER_FIGURES:
            out.append("  userspace round trip: none (UML's system calls are ptrace())")
            continue
        out.append("  userspace round trip, ns per ioctl (median): "
                   "threads on one device | on a device each")
        out.append("    %-8s %9s %9s %9s | %9s %9s" % ("", "1", "2", "4", "2", "4"))
        for v in VARIANTS:
            u = r["user_ns"].get(v)
            if not u:
                continue
            row = [u.get("same", {}).get(t, {}).get("median") for t in ("1", "2", "4")]
            row += [u.get("diff", {}).get(t, {}).get("median") for t in ("2", "4")]
            out.append("    %-8s " % v + " ".join(
                "%9s" % ("-" if x is None else "%.0f" % x) for x in row[:3]) + " | " +
                " ".join("%9s" % ("-" if x is None else "%.0f" % x) for x in row[3:]))
    for k, r in icount.items():
        out.append("")
        out.append("kernel %s under -icount (1 CPU): instructions, median (min-max) "
                   "of the repetitions" % k)
        out.append("    %-8s %21s %21s" % ("", "in-kernel, per call", "round trip, per ioctl"))
        for v in VARIANTS:
            kn = r["kernel_ns"].get(v)
            un = r["user_ns"].get(v, {}).get("same", {}).get("1")
            if kn:
                out.append("    %-8s %9.1f (%.1f-%.1f) %9s" % (
                    v, kn["median"], kn["min"], kn["max"],
                    "-" if not un else "%.0f (%.0f-%.0f)" % (un["median"], un["min"], un["max"])))
    if texts:
        out.append("")
        out.append("vmlinux, bytes: text (size(1), padded by the linker) | "
                   "functions (nm -S), difference to kernel none")
        for k, t in texts.items():
            out.append("    %-8s %9d | %9d %+7d" % (
                k, t["text"], t["functions"],
                t["functions"] - texts["none"]["functions"] if "none" in texts else 0))
    if ioctl_path:
        out.append("the ioctl path (fs/ioctl.o), CONFIG_BKL=n against no layer: "
                   "%s machine code" % ioctl_path)
    if tools:
        out.append("")
        out.append("tools, seconds (median): " + ", ".join(
            "%s %.2f" % (k, t) for k, t in tools.items()))
    out.append("")
    out.append("ratios (of medians):")
    for name, (value, what) in ratios.items():
        out.append("  %-22s %6s  %s" % (name, fmt(value), what))
    return "\n".join(out)


def svg(res, kernel):
    """ns/ioctl against threads per variant: one device, a device each."""
    r = res[kernel]
    w, h, pad, panel_w = 760, 360, 60, 300
    series = {}
    for v in VARIANTS:
        u = r["user_ns"].get(v)
        if not u:
            continue
        one = u.get("same", {})
        series[v] = {
            "same": [(int(t), one[t]["median"]) for t in sorted(one, key=int)],
            "diff": [(1, one["1"]["median"])] if "1" in one else [],
        }
        series[v]["diff"] += [(int(t), s["median"]) for t, s in
                              sorted(u.get("diff", {}).items(), key=lambda x: int(x[0]))]
    ymax = max((y for s in series.values() for pts in s.values() for _, y in pts),
               default=1.0) * 1.1
    xs = [1, 2, 4]
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="sans-serif" font-size="12">' % (w, h),
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="%d" y="20" font-size="14">ns per ioctl against threads '
             '(kernel %s, median)</text>' % (pad, kernel)]
    for i, (mode, title) in enumerate((("same", "threads on one device"),
                                       ("diff", "a device per thread"))):
        x0, y0 = pad + i * (panel_w + pad), h - 50
        parts.append('<text x="%d" y="45">%s</text>' % (x0, title))
        parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                     % (x0, y0, x0 + panel_w, y0))
        parts.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
                     % (x0, y0, x0, 60))

        def px(t):
            return x0 + 20 + xs.index(t) * (panel_w - 40) / (len(xs) - 1)

        def py(y):
            return y0 - y / ymax * (y0 - 60)
        for t in xs:
            parts.append('<text x="%.0f" y="%d" text-anchor="middle">%d</text>'
                         % (px(t), y0 + 16, t))
        for frac in (0, 0.5, 1):
            parts.append('<text x="%d" y="%.0f" text-anchor="end">%.0f</text>'
                         % (x0 - 4, py(ymax * frac) + 4, ymax * frac))
        for v, s in series.items():
            pts = [(t, y) for t, y in s[mode] if t in xs]
            if not pts:
                continue
            parts.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                         % (COLOURS[v], " ".join("%.1f,%.1f" % (px(t), py(y))
                                                 for t, y in pts)))
            for t, y in pts:
                parts.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'
                             % (px(t), py(y), COLOURS[v]))
    for j, v in enumerate(series):
        parts.append('<text x="%d" y="%d" fill="%s">%s</text>'
                     % (pad + j * 90, h - 12, COLOURS[v], v))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="results directory")
    ap.add_argument("--logs", required=True, help="directory of the guest logs")
    ap.add_argument("--texts", help="directory of the text-K size files")
    ap.add_argument("--tools", help="the tools' times: NAME SECONDS per line")
    ap.add_argument("--accel", required=True, choices=("kvm", "tcg", "none"),
                    help="how QEMU ran the guests; none: no QEMU guest ran")
    ap.add_argument("--ioctl-path", choices=("identical", "differs"),
                    help="fs/ioctl.o's code: kernel nobkl against none")
    ap.add_argument("--smoke", action="store_true", help="one kernel, 'smoke'")
    ap.add_argument("--icount", action="store_true",
                    help="the kernels none, nobkl, bkl (or smoke) also ran under -icount")
    ap.add_argument("--kernels", help="the kernels that ran, comma-separated "
                    "(default: none,nobkl,bkl,stats,uml)")
    args = ap.parse_args(argv)

    kernels = ["smoke", "uml"] if args.smoke else ["none", "nobkl", "bkl", "stats", "uml"]
    if args.kernels:
        kernels = [k for k in kernels if k in args.kernels.split(",")]
    elif args.smoke:
        kernels = ["smoke"]
    res, texts, tools, icount = {}, {}, {}, {}
    try:
        for k in kernels:
            res[k] = parse_guest(os.path.join(args.logs, "guest-%s.log" % k), k)
        for k in kernels if args.icount else ():
            if k in ICOUNT_KERNELS:
                icount[k] = parse_guest(os.path.join(args.logs, "icount-%s.log" % k), k)
    except Missing as e:
        print("bench-report: %s" % e, file=sys.stderr)
        return 1
    for k in kernels:
        p = os.path.join(args.texts or "", "text-%s" % k)
        if args.texts and os.path.exists(p):
            text, code = open(p).read().split()[:2]
            texts[k] = {"text": int(text), "functions": int(code)}
    if args.tools:
        with open(args.tools) as f:
            for line in f:
                name, secs = line.split()
                tools[name] = float(secs)

    main_k = "smoke" if args.smoke else "bkl"
    # Under TCG the guest's in-kernel figures are an emulation's; the UML
    # kernel runs the same loop on the host's CPU.
    cpu_k = "uml" if args.accel != "kvm" and "uml" in res else main_k
    where = "in-kernel (UML, the host's CPU)" if cpu_k == "uml" else "in-kernel"
    ratios = {
        "generic/hand": (ratio(kmed(res, cpu_k, "generic"), kmed(res, cpu_k, "hand")),
                         where + ": DEFINE_LOCKED_IOCTL() / hand-written mutex wrapper"),
        "bkl/mutex": (ratio(kmed(res, cpu_k, "bkl"), kmed(res, cpu_k, "hand")),
                      where + ": DEFINE_BKL_IOCTL() / hand-written mutex wrapper"),
        "shim/mutex": (ratio(kmed(res, cpu_k, "shim"), kmed(res, cpu_k, "hand")),
                       where + ": deprecated_ioctl shim / hand-written mutex wrapper"),
        "guest generic/hand": (ratio(kmed(res, main_k, "generic"), kmed(res, main_k, "hand")),
                               "in-kernel, QEMU guest: DEFINE_LOCKED_IOCTL() / hand"),
        "guest bkl/mutex": (ratio(kmed(res, main_k, "bkl"), kmed(res, main_k, "hand")),
                            "in-kernel, QEMU guest: DEFINE_BKL_IOCTL() / hand"),
        "user generic/hand": (ratio(umed(res, main_k, "generic"), umed(res, main_k, "hand")),
                              "round trip, 1 thread"),
        "user bkl/mutex": (ratio(umed(res, main_k, "bkl"), umed(res, main_k, "hand")),
                           "round trip, 1 thread"),
        "bkl diff4/hand diff4": (ratio(umed(res, main_k, "bkl", "diff", 4),
                                       umed(res, main_k, "hand", "diff", 4)),
                                 "round trip, 4 threads on 4 devices: the BKL serialises them"),
        "bkl_off/none": (ratio(umed(res, "nobkl", "bare"), umed(res, "none", "bare")),
                         "round trip of a bare ioctl, CONFIG_BKL=n / no layer"),
        "icount generic/hand": (ratio(kmed(icount, main_k, "generic"),
                                      kmed(icount, main_k, "hand")),
                                "in-kernel, instructions per call (-icount)"),
        "icount bkl/mutex": (ratio(kmed(icount, main_k, "bkl"), kmed(icount, main_k, "hand")),
                             "in-kernel, instructions per call (-icount)"),
        "icount bkl_off/none": (ratio(umed(icount, "nobkl", "bare"), umed(icount, "none", "bare")),
                                "round trip of a bare ioctl, instructions (-icount): "
                                "CONFIG_BKL=n / no layer"),
        "bare nobkl/none kernel": (ratio(kmed(res, "nobkl", "bare"), kmed(res, "none", "bare")),
                                   "in-kernel, the same code in two boots: the noise floor"),
        "stats generic": (ratio(kmed(res, "stats", "generic"), kmed(res, "bkl", "generic")),
                          "in-kernel: counters on / compiled out"),
        "stats bkl": (ratio(kmed(res, "stats", "bkl"), kmed(res, "bkl", "bkl")),
                      "in-kernel: counters on / compiled out"),
        "users/grep": (ratio(tools.get("users"), tools.get("grep")),
                       "scripts/bkl-users / git grep of its patterns"),
        "migrate/spatch": (ratio(tools.get("migrate"), tools.get("spatch")),
                           "scripts/bkl-migrate --dry-run / plain spatch, same rules"),
    }
    # Two TCG boots of the same code differ by more than 1 %: under TCG the
    # summary's bkl_off/none is the round trips' instructions.
    if args.accel != "kvm" and ratios["icount bkl_off/none"][0] is not None:
        ratios["guest bkl_off/none"] = ratios["bkl_off/none"]
        ratios["bkl_off/none"] = ratios.pop("icount bkl_off/none")
    text_delta = {}
    if "none" in texts:
        text_delta = {k: {n: t[n] - texts["none"][n] for n in t}
                      for k, t in texts.items() if k != "none"}

    report = table(res, ratios, texts, tools, args.accel, args.smoke, args.ioctl_path, icount)
    line = "bench: " + " ".join(
        "%s=%s" % (n, fmt(ratios[n][0])) for n in
        ("generic/hand", "bkl/mutex", "bkl_off/none", "users/grep", "migrate/spatch")
    ) + " " + args.accel

    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.txt"), "w") as f:
        f.write(report + "\n\n" + line + "\n")
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump({
            "accel": args.accel, "smoke": args.smoke,
            "host": {"machine": platform.machine(), "cpus": os.cpu_count(),
                     "processor": platform.processor()},
            "kernels": res, "icount": icount, "vmlinux_text": texts, "vmlinux_text_vs_none": text_delta,
            "ioctl_path_nobkl_vs_none": args.ioctl_path,
            "tools_seconds": tools,
            "ratios": {n: v for n, (v, _) in ratios.items()},
            "summary": line,
        }, f, indent=1, sort_keys=True)
        f.write("\n")
    if main_k in res:
        with open(os.path.join(args.out, "ns-per-ioctl.svg"), "w") as f:
            f.write(svg(res, main_k))
    print(report)
    print()
    print("results: %s/{results.txt,results.json,ns-per-ioctl.svg}" % args.out)
    print(line)
    return 0

