# SPDX-License-Identifier: GPL-2.0
"""The records of a source tree: the files grep lets through, each scanned
for the layer's generators, unannotated BKL calls and candidates."""
import multiprocessing
import os
import shutil
import subprocess

from . import UsageError
from .api import (
    DEFINE_MUTEX_RE, ENTRY_RE, GENERATORS, GENERATOR_RE, LAYER_FILES, LOCKED_IOCTL_RE,
    PREFILTER, UNANNOTATED_CALLS, UNANNOTATED_RE, UNLOCKED_IOCTL_RE, USES_RE)
from .candidates import candidates, pushdown_locks
from .csource import (
    COMMENT_RE, blank, blank_match, enclosing, functions, split_args, stringify, word_at)
from .kbuild import Kbuild, find_root


def grep_dir(d, pattern, globs):
    """The files under d, named like one of globs, that match the extended
    regular expression pattern.  git grep --no-index searches with a thread
    per CPU (and needs no repository); grep -r, with one, is the fallback."""
    if shutil.which("git"):
        proc = subprocess.run(
            ["git", "grep", "--no-index", "-l", "-z", "-E", "-e", pattern, "--"]
            + list(globs), cwd=d, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, check=False)
        if proc.returncode in (0, 1):
            return [os.path.join(d, f) for f in
                    proc.stdout.decode(errors="surrogateescape").split("\0") if f]
    proc = subprocess.run(
        ["grep", "-rlZE"] + ["--include=" + g for g in globs] + [pattern, d],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    if proc.returncode not in (0, 1):
        raise UsageError("grep failed on " + d)
    return [f for f in proc.stdout.decode(errors="surrogateescape").split("\0") if f]


def candidate_files(paths, pattern=PREFILTER, globs=("*.c", "*.h")):
    """The files given, and those under the directories given that match
    the extended regular expression pattern: grep is much faster than
    Python at ruling the others out.  scripts/bkl-migrate uses it too."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += [os.path.normpath(f) for f in grep_dir(p, pattern, globs)]
        else:
            files.append(p)
    return sorted(set(files))


def scan_file(path, rel, kbuild, records):
    with open(path, errors="replace") as f:
        text = f.read()
    # a file-scope mutex is worth a look only beside the operations
    if not USES_RE.search(text) and not (DEFINE_MUTEX_RE.search(text) and
                                         ENTRY_RE.search(text)):
        return
    code = blank(text)
    # Macro arguments as the preprocessor sees them: comments gone, strings
    # kept; made for the first generator, as most files have none.
    args_text = None
    config, module = ("", "-") if rel.endswith(".h") else kbuild.lookup(rel)
    # as KBUILD_MODNAME spells it, so that the registry's names are the same
    module = module if module == "-" else module.replace("-", "_")

    def line_of(offset):
        return text.count("\n", 0, offset) + 1

    def add(kind, name, offset, handler, lock):
        records.append({
            "kind": kind, "name": "%s:%s" % (module, name), "file": rel,
            "line": line_of(offset), "handler": handler, "lock": lock,
            "config": config, "module": module,
        })

    shims = set()
    for m in GENERATOR_RE.finditer(code):
        if not word_at(code, m):
            continue
        if args_text is None:
            args_text = COMMENT_RE.sub(blank_match, text)
        args, _ = split_args(args_text, m.end() - 1)
        if not args:
            continue
        kind, hidx, lockspec = GENERATORS[m.group(1)]
        args = [stringify(a) for a in args]
        if len(args) <= max(hidx, lockspec if isinstance(lockspec, int) else 0):
            continue
        if lockspec is None:
            lock = "BKL"
        elif lockspec == "guard":
            lock = "%s(%s)" % (args[2], args[3]) if len(args) > 3 else "?"
        else:
            lock = args[lockspec]
        handler = args[hidx]
        if m.group(1) == "DEFINE_BKL_SHIM_USER":
            shims.add(handler)
        add(kind, args[0], m.start(), handler, lock)

    if rel in LAYER_FILES:
        return
    funcs = None
    unannotated = UNANNOTATED_RE.finditer(code) if any(
        w in code for w in UNANNOTATED_CALLS) else ()
    for m in unannotated:
        funcs = funcs if funcs is not None else functions(code)
        fn = enclosing(funcs, m.start())
        add("unannotated", fn, m.start(), fn, "BKL")
    for m in LOCKED_IOCTL_RE.finditer(code):
        if m.group(1) not in shims:
            add("unannotated", m.group(1), m.start(), m.group(1), "BKL")

    # one parse of the functions for both kinds of candidate
    if funcs is None and "mutex" in code and (
            UNLOCKED_IOCTL_RE.search(code) or DEFINE_MUTEX_RE.search(code)):
        funcs = functions(code)
    whole = set()
    for name, at, lock in candidates(code, funcs):
        add("candidate", name, at, name, lock)
        whole.add(name)
    for name, at, lock in pushdown_locks(code, funcs):
        if name not in whole:
            add("candidate", name, at, name, lock)


# The tree's Makefiles, shared with the worker processes, which fork.
_KBUILD = None


# Files below which one process scans them all.
PARALLEL_MIN = 64


def scan_one(job):
    """The records of one (path, path relative to the tree) pair."""
    records = []
    scan_file(job[0], job[1], _KBUILD, records)
    return records


def from_source(paths, tree):
    for p in paths:
        if not os.path.exists(p):
            raise UsageError("%s: no such file or directory" % p)
    root = tree or find_root(paths[0])
    if root is None:
        p = paths[0] if os.path.isdir(paths[0]) else os.path.dirname(paths[0]) or "."
        if not any(os.path.isfile(os.path.join(p, f)) for f in ("Kbuild", "Makefile")):
            raise UsageError("%s: not in a kernel tree and not a module directory "
                             "(no Kconfig/Makefile/include/linux above it, no Kbuild "
                             "or Makefile in it); use --tree DIR" % paths[0])
        root = os.path.abspath(p)
    if not os.path.isdir(root):
        raise UsageError("%s: not a directory" % root)
    global _KBUILD
    _KBUILD = Kbuild(root)
    jobs = [(path, os.path.relpath(os.path.abspath(path), root))
            for path in candidate_files(paths)]
    if len(jobs) < PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        return [r for job in jobs for r in scan_one(job)]
    # a process per CPU: the scan is Python, one core each
    with multiprocessing.get_context("fork").Pool() as pool:
        return [r for recs in pool.imap(scan_one, jobs, chunksize=8) for r in recs]
