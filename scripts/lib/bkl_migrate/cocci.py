# SPDX-License-Identifier: GPL-2.0
"""The semantic patches of scripts/coccinelle/locked-ioctl/ and the spatch
that runs them, one file at a time."""
import os
import re
import shutil
import subprocess
import tempfile

from . import UsageError


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


def check_spatch():
    """Raise UsageError unless spatch runs a semantic patch with a Python
    rule: without its Python library every file would fail the same way."""
    if shutil.which("spatch") is None:
        raise UsageError("spatch not found: install coccinelle")
    with tempfile.TemporaryDirectory(prefix="bkl-migrate.") as tmp:
        sp, c = os.path.join(tmp, "probe.cocci"), os.path.join(tmp, "probe.c")
        with open(sp, "w") as f:
            f.write(PROBE_COCCI)
        with open(c, "w") as f:
            f.write("int probe(void) { return 0; }\n")
        proc = subprocess.run(["spatch", "--very-quiet", "--sp-file", sp, c],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, check=False)
    if "probe-ok probe" in proc.stdout:
        return
    if "libpython" in proc.stdout or "Python library" in proc.stdout:
        lib = re.search(r"\[(\S*libpython[^\]]*?) returned \1: ([^\]]*)\]", proc.stdout)
        raise UsageError("spatch cannot load Python: install libpython3-dev%s"
                         % (" (%s: %s)" % lib.groups() if lib else ""))
    raise UsageError("spatch cannot run a semantic patch with a Python rule: %s"
                     % proc.stdout.strip()[-300:])


# Seconds one spatch run may take (--timeout): a file that runs past it is
# reported and left as it was.
TIMEOUT = 120


def spatch(sp, path, defines, log, env=None):
    """Run one semantic patch on one file in place (env: more of the
    environment); raise on failure or when it runs past TIMEOUT seconds."""
    cmd = ["spatch", "--very-quiet", "--no-includes", "--include-headers",
           "--in-place", "--sp-file", sp]
    for d in defines:
        cmd += ["-D", d]
    cmd.append(path)
    env = dict(os.environ, BKL_MIGRATE_LOG=log, **(env or {}))
    try:
        # its messages may quote the source, in whatever encoding that is
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, errors="replace", env=env, check=False,
                              timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise RuntimeError("spatch %s ran past %g s (--timeout)"
                           % (os.path.basename(sp), TIMEOUT)) from None
    if proc.returncode != 0:
        raise RuntimeError("spatch %s: %s" % (os.path.basename(sp),
                                              proc.stdout.strip()[-400:]))
