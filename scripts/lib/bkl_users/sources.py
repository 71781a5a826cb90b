# SPDX-License-Identifier: GPL-2.0
"""The records of a source tree: the files grep lets through, each scanned
for the layer's generators, unannotated BKL calls and candidates."""
import itertools
import multiprocessing
import os
import shutil
import subprocess

from . import UsageError
from .api import (
    DEFINE_MUTEX_RE, ENTRY_RE, GENERATORS, GENERATOR_RE, LAYER_FILES, LOCKED_IOCTL_RE,
    PREFILTER_WORDS, UNANNOTATED_CALLS, UNANNOTATED_RE, UNLOCKED_IOCTL_RE, USES_WORDS)
from .candidates import STRUCT_MUTEX_RE, candidates, pushdown_locks
from .csource import (
    COMMENT_RE, blank, blank_match, enclosing, functions, split_args, stringify, word_at)
from .kbuild import Kbuild, find_root


def grep_command(d, pattern, globs, use_git=True):
    """The command that lists, NUL-terminated, the files under d named like
    one of globs that match pattern: an extended regular expression, or a
    tuple of fixed strings.  git grep --no-index searches with a thread per
    CPU (and needs no repository); grep -r, with one, is the fallback."""
    fixed = not isinstance(pattern, str)
    patterns = [a for p in pattern for a in ("-e", p)] if fixed else ["-e", pattern]
    if use_git and shutil.which("git"):
        return ["git", "grep", "--no-index", "-l", "-z", "-F" if fixed else "-E"] + \
            patterns + ["--"] + list(globs), d
    return ["grep", "-rlZ", "-F" if fixed else "-E"] + ["--include=" + g for g in globs] + \
        patterns + [d], None


def run_grep(cmd, cwd, d):
    """Each file the grep command cmd lists, as it finds them; the exit code
    last."""
    with subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL) as proc:
        rest = b""
        for chunk in iter(lambda: proc.stdout.read1(65536), b""):
            names = (rest + chunk).split(b"\0")
            rest = names.pop()
            for name in names:
                name = name.decode(errors="surrogateescape")
                yield os.path.join(d, name) if cwd else name
        proc.wait()
    yield proc.returncode


def grep_stream(d, pattern, globs):
    """Each file grep_command() lists, as grep finds it.  When git grep fails
    (a git that cannot run, a tree it cannot read), grep -r lists the files
    again, and those git grep had not listed follow."""
    seen = set()
    for use_git in (True, False):
        cmd, cwd = grep_command(d, pattern, globs, use_git)
        for name in run_grep(cmd, cwd, d):
            if isinstance(name, int):
                rc = name
            elif name not in seen:
                seen.add(name)
                yield name
        if rc in (0, 1):
            return
        if cmd[0] != "git":
            break
    raise UsageError("%s failed on %s" % (cmd[0], d))


def grep_dir(d, pattern, globs):
    """The files grep_command() lists, all at once."""
    return list(grep_stream(d, pattern, globs))


def candidate_stream(paths, pattern=PREFILTER_WORDS, globs=("*.c", "*.h")):
    """The files given, and those under the directories given that match
    pattern, each once, as grep finds them: grep is much faster than Python
    at ruling the others out."""
    seen = set()
    for p in paths:
        found = grep_stream(p, pattern, globs) if os.path.isdir(p) else (p,)
        for f in found:
            f = os.path.normpath(f)
            if f not in seen:
                seen.add(f)
                yield f


def candidate_files(paths, pattern=PREFILTER_WORDS, globs=("*.c", "*.h")):
    """candidate_stream(), sorted.  scripts/bkl-migrate uses it too."""
    return sorted(candidate_stream(paths, pattern, globs))


# The words of USES_WORDS but the two ioctl members.
OTHER_USES_WORDS = tuple(w for w in USES_WORDS if "locked_ioctl" not in w)


# USES_WORDS as scan_file() tries them: the likeliest first, and without
# "unlocked_ioctl", which "locked_ioctl" finds.
USES_TESTED = ("locked_ioctl",) + OTHER_USES_WORDS


def other_uses(text):
    """Does text hold a word of USES_WORDS besides "unlocked_ioctl", which
    alone makes no record (only a candidate could come of it)?"""
    return any(w in text for w in OTHER_USES_WORDS) or \
        text.count("locked_ioctl") > text.count("unlocked_ioctl")


def could_be_candidate(text):
    """Could a function of text (not yet blanked) be a candidate?  Each kind
    takes a mutex with mutex_lock*(): pushdown_locks() one of a DEFINE_MUTEX()
    at the start of a line, candidates() a file-scope mutex (of DEFINE_MUTEX()
    or "struct mutex name;") in an .unlocked_ioctl or .compat_ioctl.
    Blanking only turns characters into spaces, so text holds whatever its
    blanked code holds (bar a comment between two words of one of those);
    this rules out half the files before they are blanked and parsed."""
    if "mutex_lock" not in text:
        return False
    has_define = "DEFINE_MUTEX" in text
    return bool(has_define and DEFINE_MUTEX_RE.search(text)) or bool(
        UNLOCKED_IOCTL_RE.search(text) and (has_define or STRUCT_MUTEX_RE.search(text)))


def generated(text, code):
    """Yield (kind, name, offset, handler, lock) for each generator's use.

    A DEFINE_BKL_SHIM_USER() also yields (None, ...) first, naming the
    handler that its shim annotates.
    """
    # Macro arguments as the preprocessor sees them: comments gone, strings
    # kept; made for the first generator, as most files have none.
    args_text = None
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
            yield None, None, m.start(), handler, None
        yield kind, args[0], m.start(), handler, lock


def scan_file(path, rel, kbuild, records):
    with open(path, errors="replace") as f:
        text = f.read()
    # Words first, then patterns: "in" is many times faster than a search
    # for an alternation.  A file-scope mutex is worth a look only beside
    # the operations.
    uses = any(w in text for w in USES_TESTED)
    if not uses and not ("DEFINE_MUTEX" in text and DEFINE_MUTEX_RE.search(text) and
                         ENTRY_RE.search(text)):
        return
    if not (uses and other_uses(text)) and not could_be_candidate(text):
        return
    code = blank(text)
    # what builds the file: looked up for the first record, as most files
    # have none
    built_by = []

    def line_of(offset):
        return text.count("\n", 0, offset) + 1

    def add(kind, name, offset, handler, lock):
        if not built_by:
            built_by.extend(("", "-") if rel.endswith(".h") else kbuild.lookup(rel))
            # as KBUILD_MODNAME spells it, so that the registry's names are the same
            if built_by[1] != "-":
                built_by[1] = built_by[1].replace("-", "_")
        config, module = built_by
        records.append({
            "kind": kind, "name": "%s:%s" % (module, name), "file": rel,
            "line": line_of(offset), "handler": handler, "lock": lock,
            "config": config, "module": module,
        })

    shims = set()
    for kind, name, offset, handler, lock in generated(text, code):
        if kind is None:
            shims.add(handler)
            continue
        add(kind, name, offset, handler, lock)

    if rel in LAYER_FILES:
        return
    parsed = []

    def funcs():
        """functions(code), made once, when first needed"""
        if not parsed:
            parsed.append(functions(code))
        return parsed[0]

    unannotated = UNANNOTATED_RE.finditer(code) if any(
        w in code for w in UNANNOTATED_CALLS) else ()
    for m in unannotated:
        fn = enclosing(funcs(), m.start())
        add("unannotated", fn, m.start(), fn, "BKL")
    for m in LOCKED_IOCTL_RE.finditer(code):
        if m.group(1) not in shims:
            add("unannotated", m.group(1), m.start(), m.group(1), "BKL")

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


# The niceness of the processes that scan while grep runs.
SCAN_NICENESS = 10


def scan_one(job):
    """The records of one (path, path relative to the tree) pair."""
    records = []
    scan_file(job[0], job[1], _KBUILD, records)
    return records


def relative_to(root):
    """A function that gives a path relative to root, as os.path.relpath()
    does, but with one look at the working directory and a prefix cut for
    the paths below root (all that grep lists)."""
    cwd = os.getcwd()
    base = os.path.normpath(os.path.join(cwd, root))
    prefix = base.rstrip("/") + "/"

    def rel(path):
        p = os.path.normpath(os.path.join(cwd, path))
        return p[len(prefix):] if p.startswith(prefix) else os.path.relpath(p, base)
    return rel


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
    rel = relative_to(root)
    jobs = ((path, rel(path)) for path in candidate_stream(paths))
    # The first files decide: a few are scanned here, more by a process per
    # CPU (the scan is Python, one core each), which start while grep still
    # searches the rest of the tree.  They yield to grep (nice): what slows
    # grep's threads delays every file still to come.
    first = list(itertools.islice(jobs, PARALLEL_MIN))
    if len(first) < PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        return [r for job in itertools.chain(first, jobs) for r in scan_one(job)]
    with multiprocessing.get_context("fork").Pool(initializer=os.nice,
                                                  initargs=(SCAN_NICENESS,)) as pool:
        return [r for recs in pool.imap_unordered(scan_one, itertools.chain(first, jobs),
                                                  chunksize=8) for r in recs]
