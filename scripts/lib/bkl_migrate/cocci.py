# SPDX-License-Identifier: GPL-2.0
"""The semantic patches of scripts/coccinelle/locked-ioctl/ and the spatch
that runs them, one file at a time."""
import concurrent.futures
import os
import re
import shutil
import subprocess
import tempfile

from . import UsageError
from .files import read, write_file


# scripts/coccinelle/locked-ioctl/, from scripts/lib/bkl_migrate/
COCCI = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                     "coccinelle", "locked-ioctl")


PUSHDOWN = os.path.join(COCCI, "ioctl_pushdown.cocci")


WRAPPER = os.path.join(COCCI, "driver_lock_wrapper.cocci")


INLINE = os.path.join(COCCI, "inline_pushdown.cocci")


DRIVER_INLINE = os.path.join(COCCI, "driver_lock_inline.cocci")


DRIVER_ANNOTATE = os.path.join(COCCI, "driver_lock_annotate.cocci")


ANNOTATE = os.path.join(COCCI, "bkl_user_annotate.cocci")


# The smallest semantic patch with a Python rule, as each of ours has.
PROBE_COCCI = """@r@
identifier f;
@@
f(...) { ... }

@script:python@
f << r.f;
@@
print("probe-ok " + f)
"""


# What spatch is told of Python: check_spatch() sets it.  Left to itself,
# each spatch looks for an interpreter and its library at start (command -v
# python3, python3 --version, ldd, ldconfig -p): a third of a second of
# every run, seconds where python3 is a shim (pyenv).  The system's
# interpreter, the one a distribution builds its coccinelle against, is
# tried first.
PYTHON_ARGS = []


SYSTEM_PYTHON = "/usr/bin/python3"


def probe(tmp, python_args):
    """spatch's output on the probe, run with python_args."""
    sp, c = os.path.join(tmp, "probe.cocci"), os.path.join(tmp, "probe.c")
    with open(sp, "w") as f:
        f.write(PROBE_COCCI)
    with open(c, "w") as f:
        f.write("int probe(void) { return 0; }\n")
    return subprocess.run(["spatch"] + python_args + ["--very-quiet", "--sp-file", sp, c],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False).stdout


def check_spatch():
    """Raise UsageError unless spatch runs a semantic patch with a Python
    rule: without its Python library every file would fail the same way.
    Set PYTHON_ARGS to the first way that works."""
    if shutil.which("spatch") is None:
        raise UsageError("spatch not found: install coccinelle")
    ways = ([["--python", SYSTEM_PYTHON]] if os.access(SYSTEM_PYTHON, os.X_OK) else []) + [[]]
    with tempfile.TemporaryDirectory(prefix="bkl-migrate.") as tmp:
        for python_args in ways:
            out = probe(tmp, python_args)
            if "probe-ok probe" in out:
                PYTHON_ARGS[:] = python_args
                return
    if "libpython" in out or "Python library" in out:
        lib = re.search(r"\[(\S*libpython[^\]]*?) returned \1: ([^\]]*)\]", out)
        raise UsageError("spatch cannot load Python: install libpython3-dev%s"
                         % (" (%s: %s)" % lib.groups() if lib else ""))
    raise UsageError("spatch cannot run a semantic patch with a Python rule: %s"
                     % out.strip()[-300:])


# Seconds one spatch run may take (--timeout): a file that runs past it is
# reported and left as it was.
TIMEOUT = 120


def run_spatch(sp, files, defines, env, timeout):
    """Run one semantic patch on files in place, each a group of its own
    (as if spatch ran once for each), with env as its environment; raise
    on failure or when it runs past timeout seconds."""
    cmd = ["spatch"] + PYTHON_ARGS + ["--very-quiet", "--no-includes", "--include-headers",
                                      "--in-place", "--sp-file", sp]
    for d in defines:
        cmd += ["-D", d]
    with tempfile.NamedTemporaryFile("w", prefix="bkl-migrate.", suffix=".groups") as groups:
        if len(files) == 1:
            cmd += files
        else:
            groups.write("\n\n".join(files) + "\n")
            groups.flush()
            cmd += ["--file-groups", groups.name]
        try:
            # its messages may quote the source, in whatever encoding that is
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, errors="replace", env=env, check=False,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError("spatch %s ran past %g s (--timeout)"
                               % (os.path.basename(sp), timeout)) from None
    if proc.returncode != 0:
        raise RuntimeError("spatch %s: %s" % (os.path.basename(sp),
                                              proc.stdout.strip()[-400:]))


def spatch(sp, path, defines, log, env=None):
    """Run one semantic patch on one file in place (env: more of the
    environment); raise on failure or when it runs past TIMEOUT seconds."""
    run_spatch(sp, [path], defines, dict(os.environ, BKL_MIGRATE_LOG=log, **(env or {})),
               TIMEOUT)


def names_arg(names):
    """{function: name} as the semantic patches read it (BKL_MIGRATE_NAMES)."""
    return " ".join("%s:%s" % n for n in sorted(names.items()))


class Annotation:
    """A run of ANNOTATE that a conversion asks for: on its work file, the
    records named as names says ({function: record name}).  The semantic
    patch reads the names from, and logs each user to, files beside the
    work file (BKL_MIGRATE_PER_FILE): so one spatch serves many files."""

    def __init__(self, work, names):
        self.work = work
        with open(work + ".names", "w") as f:
            f.write(names_arg(names))
        self.clear_log()

    def clear_log(self):
        open(self.work + ".log", "w").close()

    def entries(self):
        """What the run logged: a list of words per user."""
        with open(self.work + ".log") as f:
            return [e.split() for e in f.read().splitlines()]


# Files per spatch run of ANNOTATE: its start (Python's, a quarter of a
# second) once for them all; few enough that the runs share the CPUs.
BATCH = 32


def annotate(requests, jobs=1):
    """Run ANNOTATE for each of requests (Annotation), as few spatch runs as
    the CPUs allow.  A run that fails is run again one file at a time, on
    the files as they were, so that an error is the file's own.  Returns
    None or the exception of each request."""
    env = dict(os.environ, BKL_MIGRATE_PER_FILE="1")
    size = max(1, min(BATCH, -(-len(requests) // max(1, jobs))))
    batches = [requests[i:i + size] for i in range(0, len(requests), size)]

    def run(batch):
        before = [read(r.work) for r in batch]
        try:
            run_spatch(ANNOTATE, [r.work for r in batch], ["patch"], env,
                       TIMEOUT * len(batch))
            return [None] * len(batch)
        except RuntimeError as e:
            if len(batch) == 1:
                return [e]
        errors = []
        for r, text in zip(batch, before):
            write_file(r.work, text)
            r.clear_log()
            errors += run([r])
        return errors

    if len(batches) == 1:
        return run(batches[0])
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        return [e for errors in pool.map(run, batches) for e in errors]
