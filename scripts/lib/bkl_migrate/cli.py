# SPDX-License-Identifier: GPL-2.0
"""Move drivers onto the locked-ioctl layer.

Runs the semantic patches of scripts/coccinelle/locked-ioctl/ over each C
file on its own (in parallel), so that what Coccinelle learns in one file
never leaks into another, and rewrites the files in place:

  - .ioctl = fn of a struct file_operations: DEFINE_BKL_IOCTL(), or, when
    fn does not use its inode argument, fn without it (callers too, and its
    prototypes in the driver's own headers) and DEFINE_BKL_UNLOCKED_IOCTL();
    with --shim, the deprecated_ioctl shim and DEFINE_BKL_SHIM_USER();
  - a handler that another file defines (a subsystem's generic ioctl):
    wrapped once where it is defined, DEFINE_BKL_IOCTL_EXPORT() where it is
    exported, its wrapper declared beside it in the headers that declare it;
    that file, those headers and the files of the operations are a group,
    converted together or not at all;
  - an ioctl that takes the BKL first and drops it before every return:
    the body without the lock calls, under DEFINE_BKL_UNLOCKED_IOCTL();
  - any other function that calls lock_kernel() itself (an ioctl that locks
    some commands only, an open()): lock_kernel_user() with DEFINE_BKL_USER();
  - with --annotate-driver-locks, an ioctl that takes a file-scope mutex
    that no wrapper can take (some commands only, after other work): its
    calls through DEFINE_DRIVER_LOCK_USER(), the locking as it was;
  - an ioctl wrapper that holds one driver mutex around one call:
    DEFINE_LOCKED_IOCTL() or DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(), keeping
    the driver's lock;
  - a .compat_ioctl that calls an old handler the native entry point now
    runs under the BKL: the BKL for it too (DEFINE_BKL_COMPAT_IOCTL() and
    the like where it only passes its arguments on);
  - a driver written for many kernel versions: each old .ioctl is judged by
    what its #if tests give each kernel version.  One that only kernels
    with .ioctl build (before 2.6.36, or #if 0) is left as it is; one that
    today's kernels build only because Linux 5.9 dropped
    HAVE_UNLOCKED_IOCTL and HAVE_COMPAT_IOCTL gets those macros defined
    again after the includes, so that the driver keeps the entry points it
    had on 2.6.11 to 5.8; one that today's kernels build is converted;
  - each changed file gets #include <linux/locked_ioctl.h> (unless the
    macros were all it needed), and the Kconfig entry of a file that now
    needs the BKL gets "depends on BKL".

With --format-patch DIR, a --tree that is a git repository (the files to
convert committed) also gets what changed written as a git format-patch
series against its HEAD, one patch per driver or per subsystem, with a
cover letter, as make patches writes its driver patches; no branch moves.

A file is rewritten only when every step for it succeeded (with --build, also
when it compiles in that configured build directory), once, with every
change the run made to it (each path given, however spelt, is one file);
a second run changes nothing.  After writing, the run checks that each
function it put into operations, declared in a header or exported is
defined exactly once; if not, it names it and puts every file it wrote
back as it was.  The summary lists each file that was converted (how),
failed (why) or has something left, then the totals.

Exit codes: 0 success (also when nothing needed converting); 1 a file could
not be converted and was left as it was, or the self-check failed and the
run was undone; 2 usage error, a path that holds
no C source, or a spatch that cannot run the semantic patches (Debian's
coccinelle needs libpython3-dev for their Python rules).
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile

from bkl_users import UsageError as UsersUsageError
from bkl_users.sources import candidate_files

from . import UsageError, cocci, series
from .build import build_check, check_build, layer_dir
from .cocci import annotate, check_spatch
from .convert import conversion
from .entrypoints import kernel_version
from .files import TreeWrites, canonical, diff, read, tree_version
from .groups import resolve_dropped, resolve_groups, resolve_restores
from .kconfig import add_depends_on_bkl, find_kconfig, kconfig_symbol, needs_bkl
from .selfcheck import check as self_check


ME = "bkl-migrate"
# the target manifest, when the tool runs from the locked-ioctl repository:
# its rows name each target driver's lock in the --format-patch messages
MANIFEST = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                         "..", "tools", "locked-ioctl", "targets"))


def c_files(paths):
    """The C files under paths that may need converting: every one given by
    name, and those of the directories that set an ioctl method (grep is
    much faster than Python at ruling the others out)."""
    files, dirs = [], []
    for p in paths:
        if not os.path.exists(p):
            raise UsageError("%s: no such file or directory" % p)
        if os.path.isfile(p):
            # a driver's headers hold the prototypes of its handlers
            if not p.endswith((".c", ".h")):
                raise UsageError("%s: not a C source file or header" % p)
            files.append(p)
            continue
        has_c = subprocess.run(["find", p, "-name", "*.c", "-print", "-quit"],
                               stdout=subprocess.PIPE, text=True, check=False).stdout
        if not has_c:
            raise UsageError("%s: holds no C source (is it a kernel or driver tree?)" % p)
        dirs.append(p)
    if dirs:
        try:
            files += candidate_files(
                dirs, r"_?ioctl[[:space:]]*[=:]|lock_kernel[[:space:]]*\(", ("*.c",))
        except UsersUsageError as e:
            raise UsageError(str(e))
    return sorted(set(canonical(f) for f in files))


def format_patch_check(tree, files, dry_run):
    """--format-patch: TREE is the top of a git work tree whose FILES have
    no uncommitted change, and git has an identity to sign with."""
    if dry_run:
        raise UsageError("--format-patch writes the files it converts: not with --dry-run")
    top = subprocess.run(["git", "-C", tree, "rev-parse", "--show-toplevel"],
                         capture_output=True, text=True)
    if top.returncode != 0 or os.path.realpath(top.stdout.strip()) != os.path.realpath(tree):
        raise UsageError("--format-patch: %s is not the top of a git repository; nothing changed"
                         % tree)
    dirty = subprocess.run(["git", "-C", tree, "status", "--porcelain", "--untracked-files=no",
                            "--"] + [os.path.relpath(f, tree) for f in files],
                           capture_output=True, text=True).stdout.split("\n")
    dirty = [line[3:] for line in dirty if line.strip()]
    if dirty:
        raise UsageError("--format-patch: uncommitted changes in %s: commit or stash them "
                         "first; nothing changed" % ", ".join(dirty[:5]))
    try:
        series.identity(tree)
    except series.Refusal as e:
        raise UsageError("--format-patch: %s; nothing changed" % e)


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=ME, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", metavar="PATH",
                    help="files or directories to migrate (default: the whole --tree); a "
                    "relative PATH is taken from the current directory if it is there, "
                    "else from --tree")
    ap.add_argument("--tree", metavar="DIR",
                    help="the kernel tree or driver directory (default: the current directory)")
    ap.add_argument("--dry-run", action="store_true",
                    help="print the unified diff, change nothing")
    ap.add_argument("--shim", action="store_true",
                    help="put .ioctl users on the deprecated_ioctl shim, not DEFINE_BKL_IOCTL()")
    ap.add_argument("--build", metavar="DIR",
                    help="a configured kernel build directory (O=): compile each converted "
                    "file there and keep it only if it compiles (ARCH from the environment, "
                    "or um for a UML build)")
    ap.add_argument("--check-build", metavar="KDIR",
                    help="after the run (with --dry-run: instead of writing), compile each C "
                    "file of the paths that has an ioctl method or a BKL call, as it is on "
                    "disk, as an external module object against KDIR, a kernel build or a "
                    "distribution's headers (/lib/modules/$(uname -r)/build), with the layer "
                    "(--layer); report per file the errors that name an ioctl member, the BKL "
                    "or the layer apart from the others, and exit 1 if any of those remain "
                    "(KCFLAGS from the environment: the driver's own include directories)")
    ap.add_argument("--layer", metavar="DIR", default=os.environ.get("LOCKED_IOCTL"),
                    help="with --check-build, for a kernel without the layer: the directory "
                    "of its out-of-tree build, which 'make modules KDIR=...' prints "
                    "(default: $LOCKED_IOCTL)")
    ap.add_argument("--annotate-driver-locks", action="store_true",
                    help="declare the file-scope mutexes that ioctls take but no wrapper can "
                    "(some commands only, after other work) with DEFINE_DRIVER_LOCK_USER(): "
                    "for drivers whose mutex replaced the BKL (make migrate's targets)")
    ap.add_argument("--backup", metavar="DIR",
                    help="before a file of the tree is first written, keep its original in "
                    "DIR, at its path relative to --tree (an original already there is kept)")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, metavar="N",
                    help="files converted in parallel (default: the number of CPUs)")
    ap.add_argument("--timeout", type=float, default=cocci.TIMEOUT, metavar="SECS",
                    help="seconds one spatch run may take; a file that runs past it is "
                    "reported and left as it was (default: %(default)s)")
    ap.add_argument("--progress", action="store_true",
                    help="say on stderr how many files are done, as each one is "
                    "(the default when stderr is a terminal)")
    ap.add_argument("--format-patch", metavar="DIR",
                    help="--tree is a git repository: after writing the files, also write "
                    "what changed as a git format-patch series against its HEAD into DIR, "
                    "one patch per driver or subsystem, with a cover letter, as make "
                    "patches writes its driver patches (no branch or HEAD changes)")
    ap.add_argument("--check-spatch", action="store_true",
                    help="only check that spatch runs the semantic patches' Python rules: "
                    "exit 0 if it does, 2 with what to install if not")
    return ap.parse_args(argv)


def given_paths(args, tree):
    """The paths to migrate, each in its one spelling (see canonical())."""
    paths = []
    for p in args.paths:
        if not os.path.isabs(p) and not os.path.exists(p):
            p = os.path.join(tree, p)
        if not os.path.exists(p):
            raise UsageError("%s: no such file or directory" % p)
        paths.append(canonical(p))
    return sorted(set(paths)) or [tree]


def advance(steps, error):
    """Run a conversion() on to its next request: (request, None), or (None,
    the Converted or the exception that stopped it)."""
    try:
        return (steps.throw(error) if error else steps.send(None)), None
    except StopIteration as stop:
        return None, stop.value
    except (RuntimeError, OSError, ValueError) as e:
        return None, e


def tree_kernel(tree):
    """KERNEL_VERSION() of the kernel tree at tree, or None for a driver's
    own directory."""
    version = tree_version(tree)
    return kernel_version(*version) if version else None


def convert_all(files, args, tree):
    """{file: Converted or the exception that stopped it}, files converted
    in parallel: each conversion runs to where it asks for ANNOTATE, the
    requests of all are run together (one spatch run for many files, see
    annotate()), then each runs to its end."""
    progress = args.progress or sys.stderr.isatty()
    jobs = max(1, args.jobs)
    results = {}
    kernel = tree_kernel(tree)
    steps = {f: conversion(f, args.shim, args.annotate_driver_locks, kernel) for f in files}
    # the files to run on, each with the error of its request or None
    pending = dict.fromkeys(files)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        while pending:
            futures = {pool.submit(advance, steps[f], e): f for f, e in pending.items()}
            requests = {}
            for fut in concurrent.futures.as_completed(futures):
                f = futures[fut]
                request, result = fut.result()
                if request is not None:
                    requests[f] = request
                    continue
                results[f] = result
                if progress:
                    print("%s: [%d/%d] %s" % (ME, len(results), len(files),
                                              os.path.relpath(f, tree)),
                          file=sys.stderr, flush=True)
            pending = dict(zip(requests, annotate(list(requests.values()), jobs)))
    return {f: results[f] for f in files}


def kconfig_note(f, how, tree, kconfigs):
    """For a converted file f that now needs the BKL: "depends on BKL" in
    its Kconfig entry (kconfigs: {Kconfig file: [its texts]}), and what
    the summary says of it."""
    if not needs_bkl(how):
        return ""
    sym = kconfig_symbol(f)
    kc = find_kconfig(os.path.dirname(f), sym, tree) if sym else None
    if not sym:
        return "; no Kconfig symbol found, add \"depends on BKL\" by hand"
    if not kc:
        return "; no Kconfig entry for %s, add \"depends on BKL\" by hand" % sym
    kconfigs.setdefault(kc, [read(kc)])
    new = add_depends_on_bkl(kconfigs[kc][-1], sym)
    if new is None:
        return "; no Kconfig entry for %s, add \"depends on BKL\" by hand" % sym
    kconfigs[kc].append(new)
    return "; %s depends on BKL" % sym


def report(results, tree, dry_run, original):
    """Print what became of each file; returns the plan, {path: (its text
    before the run, from original(path), and its new text)} of every file
    to write (Kconfig files too), and the counts (converted, failed, with
    something skipped or left)."""
    plan, kconfigs = {}, {}
    converted = failed = skipped = 0
    for f in sorted(results):
        r = results[f]
        rel = os.path.relpath(f, tree)
        if isinstance(r, Exception):
            failed += 1
            print("%s: failed, left as it was: %s" % (rel, r))
            continue
        skipped += any(n.startswith(("left:", "skipped:")) for n in r.notes)
        if r.how:
            converted += 1
            note = kconfig_note(f, r.how, tree, kconfigs)
            print("%s: converted: %s%s" % (rel, ", ".join(r.how), note))
            plan[f] = (original(f), r.text)
        for n in r.notes:
            print("%s: %s" % (rel, n))
        if r.how and dry_run:
            sys.stdout.buffer.write(diff(rel, plan[f][0], r.text).encode(errors="surrogateescape"))
            sys.stdout.flush()
    for kc, versions in kconfigs.items():
        if versions[-1] != versions[0]:
            plan[kc] = (versions[0], versions[-1])
            if dry_run:
                sys.stdout.write(diff(os.path.relpath(kc, tree), versions[0], versions[-1]))
    return plan, (converted, failed, skipped)


def write_series(tree, written, out):
    """--format-patch: the series of the files written; exit code or None."""
    with tempfile.TemporaryDirectory(prefix="bkl-migrate-series.") as scratch:
        try:
            n = series.driver_series(tree, written, out, scratch,
                                     series.manifest_rows(MANIFEST))
        except (series.Failure, series.Refusal) as e:
            print("%s: --format-patch: %s" % (ME, e), file=sys.stderr)
            return 2
    print("%s: %d patch(es) and a cover letter in %s, against HEAD of %s" % (ME, n, out, tree))
    return None


def main(argv):
    args = parse_args(argv)
    if args.check_spatch:
        try:
            check_spatch()
        except UsageError as e:
            print("%s: %s" % (ME, e), file=sys.stderr)
            return 2
        return 0

    try:
        if not os.path.isdir(args.tree or "."):
            raise UsageError("%s: not a directory" % args.tree)
        tree = canonical(args.tree or ".")
        paths = given_paths(args, tree)
        files = c_files(paths)
        check_spatch()
        if args.build and not os.path.isfile(os.path.join(args.build, ".config")):
            raise UsageError("%s: not a configured kernel build directory (no .config)"
                             % args.build)
        layer = None
        if args.check_build:
            if not os.path.isfile(os.path.join(args.check_build, "Makefile")):
                raise UsageError("%s: not a kernel build or headers directory (no Makefile)"
                                 % args.check_build)
            layer = layer_dir(args.check_build, args.layer)
        if args.format_patch:
            format_patch_check(tree, files, args.dry_run)
    except UsageError as e:
        print("%s: %s" % (ME, e), file=sys.stderr)
        return 2

    cocci.TIMEOUT = args.timeout
    results = convert_all(files, args, tree)
    groups = resolve_groups(results, tree, paths, args.shim)
    groups.update(resolve_dropped(results, files))
    groups.update(resolve_restores(results, paths))
    writes = None if args.dry_run else TreeWrites(tree, args.backup)
    if writes and args.build:
        build_check(args.build, results, groups, writes, tree)
    plan, (converted, failed, skipped) = report(
        results, tree, args.dry_run,
        lambda p: writes.originals[p] if writes and p in writes.originals else read(p))
    if writes:
        for path, (_, text) in sorted(plan.items()):
            writes.write(path, text)
    problems = self_check(tree, plan, lambda p: plan[p][1] if p in plan else read(p))
    for p in problems:
        print("%s: self-check: %s" % (ME, p.replace(tree + os.sep, "")))
    if problems:
        if writes:
            writes.rollback()
        print("%s: %d file(s) scanned: the self-check failed, so every file of the run is as "
              "it was" % (ME, len(results)))
        return 1
    written = sorted(os.path.relpath(p, tree) for p in plan)
    if args.format_patch:
        if not written:
            print("%s: nothing converted, no patch written" % ME)
        elif write_series(tree, written, args.format_patch) is not None:
            return 2
    print("%s: %d file(s) scanned, %d converted, %d failed, %d with something skipped or left%s" %
          (ME, len(results), converted, failed, skipped,
           " (dry run: nothing written)" if args.dry_run else ""))
    if args.check_build and report_build(args.check_build, layer, files, tree):
        return 1
    return 1 if failed else 0


def report_build(kdir, layer, files, tree):
    """--check-build: compile files as they are on disk; print per file the
    errors of this tool's kind apart from the rest; True if any remain."""
    results = check_build(kdir, layer, files, tree)
    mine = others = 0
    for f, (ours, rest) in sorted(results.items()):
        rel = os.path.relpath(f, tree)
        print("%s: check-build: %d error(s) about ioctl members, the BKL or the layer, %d "
              "other(s)" % (rel, len(ours), len(rest)))
        for e in ours:
            print("%s:%s" % (rel, e))
        # the others too, the first few: a missing header stops the
        # compiler before it finds any of this tool's kind
        for e in rest[:3]:
            print("%s:%s (other)" % (rel, e))
        mine += bool(ours)
        others += bool(rest) and not ours
    print("%s: check-build against %s: %d file(s) compiled, %d with errors about ioctl "
          "members, the BKL or the layer, %d with other errors only" %
          (ME, kdir, len(results), mine, others))
    return mine > 0
