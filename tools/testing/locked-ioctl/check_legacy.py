# SPDX-License-Identifier: GPL-2.0
"""Run scripts/bkl-migrate on a stock Linux 2.6.34 tree, the BKL-era kernel
the seeds were written against, and check what it made.

On copies of TREE (hard links: the tools replace files, never write into
them) it runs the migration on the paths that seeds 002-006 touch, and on
the whole tree unless --no-whole, as a user runs it (from inside the tree,
--tree absolute, the paths relative), then checks, for the seed paths:

  - every struct file_operations of the target files that had an old .ioctl
    has none left, and its .unlocked_ioctl is a wrapper that a DEFINE_BKL_*
    generator defines (in the file, or once for a group of files) or the
    deprecated_ioctl shim;
  - each changed C file compiles for x86_64 (allyesconfig, "make prepare"
    with gcc, our headers first on the path and legacy/compat.h standing in
    for the few interfaces 2.6.34 lacks; lockdep off, as our headers need a
    newer lockdep API); a file that does not compile for x86_64 unchanged
    either (another architecture's driver) must parse with spatch --parse-c
    no worse than before;
  - the links between them (legacy/links.py): every symbol a converted
    object needs and the stock one did not is defined by exactly one other
    converted object, or exported by the layer, and exported where the two
    go into different modules;
  - with --seeds DIR (the patches 002-006), the same for Arnd Bergmann's
    pushdown applied to another copy, per file beside ours.
  - the series of the seed paths (bkl-migrate --format-patch on a git copy:
    the 2.6.x edition of <linux/locked_ioctl.h> first, then the drivers)
    applies with git am onto another copy, to the same files, and each
    changed file that compiles unchanged compiles with the tree's own
    headers and that header only, no stand-in; and the tree's own
    checkpatch.pl --strict passes each patch (CamelCase only in the
    driver's own names).

The last line is the summary.  Not part of make check: CI cannot fetch the
tree (fetch github:MetalheadKen/Linux-Kernel-2.6.34).

Exit codes: 0 every check passed; 1 a check failed; 2 usage error (TREE is
not a stock 2.6.34 tree, a tool is missing).
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import time

# the tools load each other as modules: no __pycache__ in the tree
sys.dont_write_bytecode = True

ME = "check-legacy"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
LEGACY = os.path.join(HERE, "legacy")
MIGRATE = os.path.join(REPO, "scripts", "bkl-migrate")
sys.path.insert(0, os.path.join(REPO, "scripts", "lib"))
from bkl_migrate.csource import closing_brace, fops_bodies  # noqa: E402
from bkl_migrate.files import read, tree_version  # noqa: E402
from bkl_users.csource import blank, functions  # noqa: E402
from bkl_users.kbuild import Kbuild  # noqa: E402
sys.path.insert(0, LEGACY)
import links  # noqa: E402
sys.path.insert(0, os.path.join(REPO, "tools", "locked-ioctl", "release"))
import checkpatch_series as series_checkpatch  # noqa: E402
from cross_compilers import cross_compilers  # noqa: E402
GENERATED = re.compile(r"^DEFINE_BKL_(?:IOCTL|UNLOCKED_IOCTL|IOCTL_GLOBAL|IOCTL_EXPORT|"
                       r"IOCTL_EXPORT_GPL)\((\w+),", re.M)


class UsageError(Exception):
    pass




def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          errors="replace", check=False, **kw)


def link_copy(src, dst):
    """A copy of src whose files are hard links (cheap and safe: bkl-migrate,
    patch and make replace files, never write into them)."""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    r = run(["cp", "-al", src, dst])
    if r.returncode:
        raise UsageError("cannot copy %s: %s" % (src, r.stdout.strip()))


def old_fops(text):
    """The file_operations initialisers of text that have an old .ioctl."""
    code = blank(text)
    out = []
    for start, end in fops_bodies(text):
        if re.search(r"(?:\.\s*ioctl\s*=|^\s*ioctl\s*:)", code[start:end], re.M):
            name = re.search(r"(\w+)(?:\s*\[[^]]*\])?\s*=\s*\{$", code[:start].rstrip())
            out.append(name.group(1) if name else "?")
    return out


def fops_ok(text, fops, defined):
    """Why fops of text is not converted, or None: no .ioctl left, and an
    .unlocked_ioctl that a generator defines, or the shim."""
    code = blank(text)
    m = re.search(r"\b%s(?:\s*\[[^]]*\])?\s*=\s*\{" % re.escape(fops), code)
    if not m:
        return "gone"
    end = closing_brace(code, m.end() - 1)
    body = code[m.end():end]
    if re.search(r"(?:\.\s*ioctl\s*=|^\s*ioctl\s*:)", body, re.M):
        return "old .ioctl left"
    u = re.search(r"\.\s*unlocked_ioctl\s*=\s*(\w+)", body)
    if not u:
        return "no .unlocked_ioctl"
    if u.group(1) == "deprecated_ioctl":
        return None if re.search(r"\.\s*locked_ioctl\s*=", body) else "shim without .locked_ioctl"
    if u.group(1) in defined:
        return None
    return ".unlocked_ioctl = %s, which no BKL generator defines" % u.group(1)


WRAPPED = re.compile(r"^DEFINE_BKL_(?:IOCTL|COMPAT_IOCTL|UNLOCKED_IOCTL|IOCTL_GLOBAL|IOCTL_EXPORT|"
                     r"IOCTL_EXPORT_GPL)\(\s*\w+\s*,\s*(\w+)\s*\)|"
                     r"^DEFINE_BKL_SHIM_USER\(\s*(\w+)\s*\)", re.M)


def bkl_coverage(text, known):
    """The functions of text, among known (those of the unconverted file),
    that run under the BKL from their start: those that take it themselves
    and the handlers a BKL generator wraps (fn_locked counted as fn).  A new
    function (Arnd Bergmann's fn_unlocked_ioctl wrappers) counts through
    the known functions it calls."""
    code = blank(text)
    funcs = {name: code[start:end] for name, _, start, end in
             functions(code)}
    covered = {name for name, body in funcs.items()
               if re.search(r"\block_kernel(?:_user|_interruptible)?\s*\(", body)}
    covered = {re.sub(r"_locked$", "", name) for name in
               covered | {a or b for a, b in WRAPPED.findall(text)}}
    new = set()
    for name in covered - known:
        new |= set(re.findall(r"\b(\w+)\s*\(", funcs.get(name, "")))
    return (covered | new) & known


def copy_compiler_h(build, major):
    """2.6.34 knows gcc 4 at most; gcc 12 is the same to it."""
    for h in ("compiler-gcc12.h", "compiler-gcc%s.h" % major):
        dst = os.path.join(build, "include", "linux", h)
        if not os.path.exists(dst):
            shutil.copyfile(os.path.join(build, "include", "linux", "compiler-gcc4.h"), dst)


def prepare(stock, build, jobs):
    """A configured, prepared x86_64 allyesconfig build copy of stock."""
    stamp = os.path.join(build, ".check-legacy-prepared")
    if os.path.exists(stamp) and read(stamp) == os.path.realpath(stock):
        return
    link_copy(stock, build)
    copy_compiler_h(build, gcc_major())
    make = make_cmd(build, jobs)
    # scripts too: the host tools that each object's make would otherwise
    # build, racing with the others
    for step in (["allyesconfig"], None, ["silentoldconfig"], ["prepare"], ["scripts"]):
        if step is None:
            cfg = os.path.join(build, ".config")
            text = read(cfg)
            # no stack protector (the probe fails with today's gcc); lockdep
            # off (our headers use a newer lockdep API than 2.6.34's)
            for opt in ("CC_STACKPROTECTOR", "DEBUG_LOCK_ALLOC", "PROVE_LOCKING", "LOCK_STAT"):
                text = re.sub(r"^CONFIG_%s=y$" % opt, "# CONFIG_%s is not set" % opt, text,
                              flags=re.M)
            os.remove(cfg)
            with open(cfg, "w") as f:
                f.write(text)
            continue
        r = run(make + step)
        if r.returncode:
            raise UsageError("make %s in %s failed: %s" % (step[0], build, r.stdout[-800:]))
    with open(stamp, "w") as f:
        f.write(os.path.realpath(stock))


def gcc_major():
    return run(["gcc", "-dumpversion"]).stdout.strip().split(".")[0]


def nostdinc_flags(gcc_include):
    """NOSTDINC_FLAGS that put our headers and the stand-ins for what 2.6.34
    lacks first, the layer as CONFIG_BKL=y builds it; gcc_include: the
    compiler's own include directory."""
    flags = ["-nostdinc", "-isystem", gcc_include, "-I" + os.path.join(REPO, "include"),
             "-I" + os.path.join(LEGACY, "include"), "-include",
             os.path.join(LEGACY, "compat.h"), "-DCONFIG_BKL", "-DCONFIG_BKL_REGISTRY"]
    return "NOSTDINC_FLAGS=" + " ".join(flags)


def make_cmd(build, jobs, own_headers=False):
    """make in the prepared build copy; own_headers: with the tree's headers
    only, no stand-in and none of the layer's."""
    gi = run(["gcc", "-print-file-name=include"]).stdout.strip()
    flags = ("NOSTDINC_FLAGS=-nostdinc -isystem " + gi if own_headers else
             nostdinc_flags(gi))
    return ["make", "-C", build, "-j%d" % jobs, "ARCH=x86_64", "CC=gcc -fno-pie", flags]


def compile_files(build, src, files, jobs, own_headers=False):
    """{file: error or None}: each C file of files, as it is in src, compiled
    in the prepared build copy (the files of src put in place first)."""
    for f in files:
        dst = os.path.join(build, f)
        if os.path.exists(dst):
            os.remove(dst)
        if os.path.exists(os.path.join(src, f)):
            shutil.copyfile(os.path.join(src, f), dst)
    make = make_cmd(build, 1, own_headers)

    def one(f):
        obj = f[:-2] + ".o"
        if os.path.exists(os.path.join(build, obj)):
            os.remove(os.path.join(build, obj))
        r = run(make + [obj])
        if r.returncode == 0:
            return f, None
        err = [line for line in r.stdout.splitlines() if "error" in line]
        return f, (err[0] if err else r.stdout.strip()[-200:])
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        results = dict(pool.map(one, [f for f in files if f.endswith(".c")]))
    # 2.6.34's top-level make regenerates a header or two on each call, and
    # two calls at once can trip over each other: a failure counts only if
    # the file fails alone too
    results.update(one(f) for f, err in sorted(results.items()) if err)
    return results


# Where a target driver of another architecture builds: ARCH, the compiler
# prefix (tools/testing/locked-ioctl/cross-compilers), a defconfig of 2.6.34
# that has the driver, and options to turn on beside it.
CROSS_CONFIGS = [
    # ds1620, nwflash, pcmcia_ioctl
    ("arm", "netwinder_defconfig", ["PCCARD", "PCMCIA", "PCMCIA_IOCTL"]),
    ("powerpc", "pmac32_defconfig", ["NVRAM"]),  # via-pmu, nvram
    ("sparc64", "sparc64_defconfig", ["SUN_OPENPROMIO"]),
    ("parisc", "712_defconfig", ["SERIO", "HP_SDC", "HP_SDC_RTC"]),
]
PREFIXES = cross_compilers()
CROSS = [(arch, PREFIXES[arch], defconfig, extra) for arch, defconfig, extra in CROSS_CONFIGS]
CROSS_ROOT = os.path.join(HERE, "cross-root")


def cross_runner(prefix, work):
    """The command prefix that runs the prefix-gcc cross compiler: none on a
    host that has it, tools/testing/locked-ioctl/cross-root's root else; None
    when neither has it."""
    if shutil.which(prefix + "gcc"):
        return []
    if run([CROSS_ROOT, "path"]).returncode == 0:
        runner = [CROSS_ROOT, "--bind", work, "run"]
        if run(runner + ["sh", "-c", "command -v %sgcc" % prefix]).returncode == 0:
            return runner
    return None


class Cross:
    """A configured, prepared 2.6.34 build of stock for one other
    architecture, and the compile of single files in it."""

    def __init__(self, stock, work, arch, prefix, defconfig, extra):
        self.arch, self.prefix = arch, prefix
        self.build = os.path.join(work, "build-" + arch)
        self.runner = cross_runner(prefix, work)
        self.defconfig, self.extra, self.stock = defconfig, extra, stock
        self.gcc_include = None

    def make(self, jobs):
        # asked once: each question is a run in the cross root
        if self.gcc_include is None:
            self.gcc_include = run(self.runner + [self.prefix + "gcc",
                                                  "-print-file-name=include"]).stdout.strip()
        return self.runner + ["make", "-C", self.build, "-j%d" % jobs, "ARCH=" + self.arch,
                              "CROSS_COMPILE=" + self.prefix, nostdinc_flags(self.gcc_include)]

    def prepare(self, jobs):
        stamp = os.path.join(self.build, ".check-legacy-prepared")
        if os.path.exists(stamp) and read(stamp) == os.path.realpath(self.stock):
            return
        link_copy(self.stock, self.build)
        copy_compiler_h(self.build, "12")
        make = self.make(jobs)
        for step in ([self.defconfig], None, ["oldconfig"], ["prepare"], ["scripts"]):
            if step is None:
                cfg = os.path.join(self.build, ".config")
                text = read(cfg)
                for opt in self.extra:
                    text = re.sub(r"^# CONFIG_%s is not set$\n?" % opt, "", text, flags=re.M)
                    if not re.search(r"^CONFIG_%s=" % opt, text, re.M):
                        text += "CONFIG_%s=y\n" % opt
                for opt in ("DEBUG_LOCK_ALLOC", "PROVE_LOCKING", "LOCK_STAT"):
                    text = re.sub(r"^CONFIG_%s=y$" % opt, "# CONFIG_%s is not set" % opt, text,
                                  flags=re.M)
                os.remove(cfg)
                with open(cfg, "w") as f:
                    f.write(text)
                continue
            # oldconfig asks about what the options above bring in: defaults
            r = run(make + step, input="\n" * 2000) if step == ["oldconfig"] else run(make + step)
            if r.returncode:
                raise UsageError("make ARCH=%s %s in %s failed: %s"
                                 % (self.arch, step[0], self.build, r.stdout[-800:]))
        with open(stamp, "w") as f:
            f.write(os.path.realpath(self.stock))

    def compile(self, src, f):
        """None when f, as it is in src, compiles here, else the error."""
        dst = os.path.join(self.build, f)
        if os.path.exists(dst):
            os.remove(dst)
        shutil.copyfile(os.path.join(src, f), dst)
        obj = os.path.join(self.build, f[:-2] + ".o")
        if os.path.exists(obj):
            os.remove(obj)
        r = run(self.make(1) + [f[:-2] + ".o"])
        os.remove(dst)
        shutil.copyfile(os.path.join(self.stock, f), dst)
        if r.returncode == 0:
            return None
        err = [line for line in r.stdout.splitlines() if "error" in line]
        return err[0] if err else r.stdout.strip()[-200:]


def cross_compile(stock, work, sources, files, jobs):
    """For each file of files (C files that do not build for x86_64): the
    architecture whose build compiles the stock file, and what each tree of
    sources ({label: tree}) gives there: {file: (arch, {label: error or
    None})}; arch None when no architecture of CROSS compiles it; and the
    architectures that could not be tried, with the reason."""
    results, skipped = {}, []
    todo = list(files)
    for arch, prefix, defconfig, extra in CROSS:
        if not todo:
            break
        cross = Cross(stock, work, arch, prefix, defconfig, extra)
        if cross.runner is None:
            skipped.append("%s (no %sgcc: tools/testing/locked-ioctl/cross-root setup)"
                           % (arch, prefix))
            continue
        try:
            cross.prepare(jobs)
        except UsageError as e:
            skipped.append("%s (%s)" % (arch, e))
            continue
        for f in list(todo):
            if cross.compile(stock, f) is None:
                results[f] = (arch, {k: cross.compile(t, f) for k, t in sources.items()})
                todo.remove(f)
    for f in todo:
        results[f] = (None, {})
    return results, skipped


def parse_bad(path):
    """Lines spatch --parse-c could not parse in path."""
    r = run(["spatch", "--parse-c", path])
    m = re.search(r"nb bad\D*(\d+)", r.stdout, re.I)
    if not m:
        m = re.search(r"bad = (\d+)", r.stdout)
    return int(m.group(1)) if m else None


def migrate(tree, paths, jobs, log):
    """bkl-migrate as a user runs it after "cd linux": from inside the
    tree, --tree absolute, the paths relative."""
    t0 = time.time()
    r = run([MIGRATE, "--tree", tree, "--jobs", str(jobs)] + paths, cwd=tree)
    with open(log, "w") as f:
        f.write(r.stdout)
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    return r.returncode, summary, time.time() - t0


def changed(stock, copy, files):
    return [f for f in files if not os.path.exists(os.path.join(copy, f)) or
            read(os.path.join(stock, f)) != read(os.path.join(copy, f))]


def seed_files(seeds):
    """The patches 002-006 in seeds and the files they touch."""
    patches = sorted(glob.glob(os.path.join(seeds, "00[2-6]-*.patch")))
    files = set()
    for p in patches:
        files |= set(re.findall(r"^\+\+\+ b/(\S+)", read(p), re.M))
    return patches, sorted(files)


def main(argv):
    ap = argparse.ArgumentParser(prog=ME, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tree", metavar="TREE", help="a stock Linux 2.6.34 source tree")
    ap.add_argument("--work", metavar="DIR",
                    default=os.path.join(os.environ.get("BUILD", os.path.join(REPO, "build")),
                                         "legacy"),
                    help="where the copies go (default: build/legacy)")
    ap.add_argument("--seeds", metavar="DIR",
                    help="the seed patches 002-006, to compare with Arnd Bergmann's pushdown")
    ap.add_argument("--no-whole", action="store_true", help="skip the whole-tree migration")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, metavar="N")
    args = ap.parse_args(argv)
    try:
        version = tree_version(args.tree)
        if os.path.isfile(os.path.join(args.tree, "Makefile")) and version != (2, 6, 34):
            raise UsageError("%s: not a Linux 2.6.34 tree (Makefile says %s)"
                             % (args.tree, "%d.%d.%d" % version if version else None))
        if args.seeds and len(seed_files(os.path.abspath(args.seeds))[0]) != 5:
            raise UsageError("--seeds %s: the patches 002-006 (00[2-6]-*.patch) are not all "
                             "there" % args.seeds)
        if not os.path.isfile(os.path.join(args.tree, "Makefile")):
            raise UsageError("%s: not a kernel tree (no Makefile)" % args.tree)
        for tool in ("spatch", "gcc", "make", "cp", "patch"):
            if not shutil.which(tool):
                raise UsageError("%s not found" % tool)
        with open(os.path.join(LEGACY, "seed-paths")) as f:
            paths = [line.strip() for line in f if line.strip() and not line.startswith("#")]
        stock = os.path.realpath(args.tree)
        work = os.path.realpath(args.work)
        os.makedirs(work, exist_ok=True)
        ours = os.path.join(work, "ours")
        link_copy(stock, ours)
    except (UsageError, OSError) as e:
        print("%s: %s" % (ME, e), file=sys.stderr)
        return 2
    failures = []

    rc, summary, secs = migrate(ours, paths, args.jobs, os.path.join(work, "seed-paths.log"))
    print("seed paths: bkl-migrate exit %d in %.0f s: %s" % (rc, secs, summary))
    if rc:
        failures.append("bkl-migrate on the seed paths exited %d" % rc)
    seed_secs = secs

    # Every old .ioctl of the target files converted.
    targets = {f: old_fops(read(os.path.join(stock, f))) for f in paths if f.endswith(".c")}
    targets = {f: v for f, v in targets.items() if v}
    defined = set()
    for f in changed(stock, ours, paths):
        defined |= set(GENERATED.findall(read(os.path.join(ours, f))))
    nfops = sum(len(v) for v in targets.values())
    fops_bad = []
    for f, names in sorted(targets.items()):
        for name in names:
            why = fops_ok(read(os.path.join(ours, f)), name, defined)
            if why:
                fops_bad.append("%s: %s: %s" % (f, name, why))
    for b in fops_bad:
        print("not converted: " + b)
    failures += fops_bad
    print("targets: %d files with %d file_operations that had .ioctl; %d converted"
          % (len(targets), nfops, nfops - len(fops_bad)))

    # Compile what changed, against the stock build of each file.
    build = os.path.join(work, "build")
    try:
        prepare(stock, build, args.jobs)
    except UsageError as e:
        print("%s: %s" % (ME, e), file=sys.stderr)
        return 2
    ch = changed(stock, ours, paths)
    before = compile_files(build, stock, ch, args.jobs)
    stock_objects = links.objects(build, ch)
    after = compile_files(build, ours, ch, args.jobs)
    our_objects = links.objects(build, ch)
    kbuild = Kbuild(stock)
    bad_links = links.problems(stock_objects, our_objects, lambda f: kbuild.lookup(f)[1],
                               links.layer_exports(REPO) | links.kernel_exports(stock))
    for b in bad_links:
        print("link: " + b)
    failures += ["link: " + b for b in bad_links]
    print("link (x86_64): %d converted objects; what each needs of another is defined once, "
          "and exported between modules: %s" % (len(our_objects),
                                                "yes" if not bad_links else "no"))
    arnd = {}
    if args.seeds:
        patches, sfiles = seed_files(os.path.abspath(args.seeds))
        theirs = os.path.join(work, "arnd")
        link_copy(stock, theirs)
        for f in sfiles:
            p = os.path.join(theirs, f)
            shutil.copyfile(p, p + ".tmp")
            os.replace(p + ".tmp", p)
        for p in patches:
            r = run(["patch", "-s", "-p1", "-d", theirs, "-i", p])
            if r.returncode:
                print("seed %s does not apply: %s" % (os.path.basename(p), r.stdout.strip()))
                failures.append("seed %s does not apply" % os.path.basename(p))
        arnd = compile_files(build, theirs, sfiles, args.jobs)
    compile_files(build, stock, sorted(set(ch) | set(arnd)), args.jobs)
    x86 = [f for f in after if before[f] is None]
    other = [f for f in after if before[f] is not None]
    broken = [f for f in x86 if after[f]]
    for f in broken:
        print("does not compile: %s: %s" % (f, after[f]))
    failures += ["%s does not compile" % f for f in broken]
    worse = []
    for f in other:
        b, a = parse_bad(os.path.join(stock, f)), parse_bad(os.path.join(ours, f))
        if b is None or a is None or a > b:
            worse.append(f)
            print("parses worse: %s: spatch --parse-c bad lines %s -> %s" % (f, b, a))
    failures += ["%s parses worse" % f for f in worse]
    print("compile (x86_64, allyesconfig): %d of %d changed C files compile; %d are another "
          "architecture's (not on x86_64 before either), %d of them parse no worse"
          % (len(x86) - len(broken), len(x86), len(other), len(other) - len(worse)))

    # The other architectures' files, with a cross compiler.
    sources = {"ours": ours}
    if arnd:
        sources["seeds"] = theirs
    xfiles = sorted(set(other) | {f for f in arnd if before.get(f) is not None})
    cross, skipped = cross_compile(stock, work, sources, xfiles, args.jobs)
    for s in skipped:
        print("cross: not tried: " + s)
    xok = 0
    for f, (arch, res) in sorted(cross.items()):
        if arch is None:
            print("cross: %s: the stock file compiles on none of %s: not compiled"
                  % (f, ", ".join(a for a, _, _, _ in CROSS)))
            continue
        print("cross: %-40s %-8s %s" % (f, arch, "; ".join(
            "%s %s" % (k, "ok" if v is None else "FAILS: " + v) for k, v in sorted(res.items()))))
        if f in other and res["ours"] is not None:
            failures.append("%s does not compile for %s" % (f, arch))
        elif f in other:
            xok += 1
    xtried = sum(1 for f in other if cross[f][0])
    # not compiled: on no architecture tried, unchanged either, or where
    # an architecture could not be tried
    why = "not tried on %s" % ", ".join(s.split()[0] for s in skipped) if skipped else \
        "compile nowhere, unchanged either"
    print("compile (other architectures, cross): %d of %d changed C files compile; %d %s"
          % (xok, xtried, len(other) - xtried, why))
    if arnd:
        print("per file, compile (x86_64, or the architecture named): ours / seeds 002-006 "
              "applied:")
        for f in sorted(set(after) | set(arnd)):
            if before.get(f, "x") is not None and f not in after:
                continue
            o = "-" if f not in after else ("ok" if after[f] is None else "FAILS")
            t = "-" if f not in arnd else ("ok" if arnd[f] is None else "FAILS")
            if before.get(f) is not None:
                arch, res = cross.get(f, (None, {}))
                if arch:
                    o = "-" if "ours" not in res or f not in after else \
                        ("ok" if res["ours"] is None else "FAILS")
                    t = "-" if "seeds" not in res or f not in arnd else \
                        ("ok" if res["seeds"] is None else "FAILS")
                    o, t = o + " (%s)" % arch, t + " (%s)" % arch
                else:
                    o, t = o + " (other arch)", t + " (other arch)"
            print("  %-50s %-18s %s" % (f, o, t))
        same, diffs = 0, []
        for f in sorted(set(sfiles) & set(paths)):
            if not f.endswith(".c"):
                continue
            known = {name for name, _, _, _ in functions(
                blank(read(os.path.join(stock, f))))}
            o = bkl_coverage(read(os.path.join(ours, f)), known)
            t = bkl_coverage(read(os.path.join(theirs, f)), known)
            if o == t:
                same += 1
            else:
                diffs.append("  %s: only ours: %s; only seeds: %s" % (
                    f, ", ".join(sorted(o - t)) or "-", ", ".join(sorted(t - o)) or "-"))
        print("BKL coverage (functions that run under it), ours / seeds 002-006: the same in "
              "%d files, different in %d%s" % (same, len(diffs), ":" if diffs else ""))
        for d in diffs:
            print(d)
        xseeds = [res.get("seeds") for f, (arch, res) in cross.items() if arch and f in arnd]
        print("seeds 002-006: %d of %d x86_64 files compile; other architectures: %d of %d" % (
            sum(1 for f in arnd if arnd[f] is None and before.get(f) is None),
            sum(1 for f in arnd if before.get(f) is None),
            sum(1 for e in xseeds if e is None), len(xseeds)))

    series = check_series(stock, work, paths, build, before, args.jobs, failures)

    whole = ""
    if not args.no_whole:
        wtree = os.path.join(work, "whole")
        link_copy(stock, wtree)
        rc, summary, secs = migrate(wtree, [], args.jobs, os.path.join(work, "whole.log"))
        m = re.search(r"(\d+) file\(s\) scanned, (\d+) converted, (\d+) failed", summary)
        whole = "; whole tree: %s converted, %s failed, %.0f s" % (
            m.group(2) if m else "?", m.group(3) if m else "?", secs)
        print("whole tree: bkl-migrate exit %d in %.0f s: %s (log: %s)"
              % (rc, secs, summary, os.path.join(work, "whole.log")))

    m = re.search(r"(\d+) converted, (\d+) failed", seed_summary(work))
    print("%s: seed paths: %s files converted, %d/%d fops converted, %d/%d compile-clean "
          "(x86_64), %d/%d (cross; %d %s), %s failed, %.0f s%s; %s; %s"
          % (ME, m.group(1) if m else "?", nfops - len(fops_bad), nfops,
              len(x86) - len(broken), len(x86), xok, xtried, len(other) - xtried, why,
              m.group(2) if m else "?", seed_secs, whole, series,
              "ok" if not failures else "%d problem(s)" % len(failures)))
    return 1 if failures else 0


def git_tree(src, dst):
    """A real copy of src as a git repository with one commit."""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    r = run(["cp", "-a", src, dst])
    if r.returncode:
        raise UsageError("cp -a %s %s: %s" % (src, dst, r.stdout[-300:]))
    if os.path.lexists(os.path.join(dst, ".git")):
        run(["rm", "-rf", os.path.join(dst, ".git")])
    for cmd in (["git", "-C", dst, "init", "-q"],
                ["git", "-C", dst, "add", "-f", "-A", "."],
                ["git", "-C", dst, "commit", "-q", "--no-verify", "-m", "Linux 2.6.34"]):
        r = run(cmd)
        if r.returncode:
            raise UsageError("%s: %s" % (" ".join(cmd[:4]), r.stdout[-300:]))


def series_overlaps(patches, am):
    """Why a prefix of the series might not build when the whole does: a
    file that two patches change, or a header that one driver patch changes
    and a file of another patch includes.  With neither, each file of a
    prefix is as stock 2.6.34 has it or as the series leaves it."""
    owner, problems = {}, []
    for i, p in enumerate(patches, 1):
        for f in re.findall(r"^diff --git a/(\S+) b/", read(p), re.M):
            if f in owner:
                problems.append("%s is in patches %d and %d" % (f, owner[f], i))
            owner[f] = i
    for h, i in owner.items():
        if h.endswith(".c") or i == 1:
            continue
        inc = re.compile(r'^\s*#\s*include\s*[<"](?:\S*/)?%s[>"]' % re.escape(os.path.basename(h)),
                         re.M)
        for f, j in owner.items():
            if j != i and f.endswith(".c") and inc.search(read(os.path.join(am, f))):
                problems.append("%s (patch %d) includes %s (patch %d)" % (f, j, h, i))
    return problems


def check_series(stock, work, paths, build, before, jobs, failures):
    """bkl-migrate --format-patch on a git copy of the tree: the series
    begins with the header's 2.6.x edition, applies with git am onto another
    copy to the same files, and each converted file that compiles unchanged
    compiles with the tree's own headers and that header, no stand-in."""
    tree, am, out = (os.path.join(work, d) for d in ("series-tree", "series-am", "series"))
    git_tree(stock, tree)
    t0 = time.time()
    r = run([MIGRATE, "--tree", tree, "--jobs", str(jobs), "--format-patch", out] + paths)
    secs = time.time() - t0
    patches = sorted(glob.glob(os.path.join(out, "0*.patch")))[1:]
    header = "include/linux/locked_ioctl.h"
    adds = bool(patches) and "+++ b/" + header in read(patches[0])
    if r.returncode or not adds:
        failures.append("series")
        print("series: bkl-migrate --format-patch exit %d, %d patches, the first %s %s:\n%s"
              % (r.returncode, len(patches), "adds" if adds else "does not add", header,
                 r.stdout[-500:]))
        return "series failed"
    git_tree(stock, am)
    a = run(["git", "-C", am, "am", "-q"] + patches)
    changed_files = run(["git", "-C", am, "diff", "--name-only", "HEAD~%d" % len(patches)]
                        ).stdout.split() if a.returncode == 0 else []
    differ = [f for f in changed_files
              if read(os.path.join(am, f)) != read(os.path.join(tree, f))]
    if a.returncode or differ:
        failures.append("series git am")
        print("series: git am exit %d; files that differ from bkl-migrate's: %s\n%s"
              % (a.returncode, ", ".join(differ) or "-", a.stdout[-500:]))
    overlaps = series_overlaps(patches, am) if a.returncode == 0 else []
    if overlaps:
        failures.append("series bisect")
        print("series: a prefix of it may not build:\n  " + "\n  ".join(overlaps))
    cfiles = [f for f in changed_files if f.endswith(".c") and f in before and before[f] is None]
    # the header and the others the series changes go into the build copy too
    headers = [f for f in changed_files if not f.endswith(".c")]
    res = compile_files(build, tree, headers + cfiles, jobs, own_headers=True)
    bad = sorted(f for f, e in res.items() if e)
    if bad:
        failures.append("series compile")
        for f in bad:
            print("series: %s does not compile with the tree's headers: %s" % (f, res[f]))
    dirty = checkpatch_series(stock, patches)
    if dirty:
        failures.append("series checkpatch")
        for name, out in dirty:
            print("series: checkpatch --strict, %s:\n%s" % (name, out))
    text = ("series: %d patches (the header, then %d) in %.0f s, git am %s, %d/%d x86_64 "
            "files compile with the tree's own headers, %s, %d/%d checkpatch --strict clean "
            "(the tree's own; CamelCase only the driver's)"
            % (len(patches), len(patches) - 1, secs, "ok" if not a.returncode and not differ
               else "FAILED", len(cfiles) - len(bad), len(cfiles),
               "prefixes: %d overlaps" % len(overlaps) if overlaps else
               "every prefix builds (each file in one patch, stock or final)",
               len(patches) - len(dirty), len(patches)))
    print(text + " (patches: %s)" % out)
    return text


def checkpatch_series(stock, patches):
    """[(patch, what checkpatch said)] for each patch of the series the
    tree's own checkpatch.pl --strict flags, but for CamelCase names the
    driver spells so (tools/locked-ioctl/release/checkpatch-series, as make check
    judges 6.12's series)."""
    return [(os.path.basename(p), out)
            for p, out in series_checkpatch.flagged(stock, patches)]


def seed_summary(work):
    lines = read(os.path.join(work, "seed-paths.log")).strip().splitlines()
    return lines[-1] if lines else ""

