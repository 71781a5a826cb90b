# SPDX-License-Identifier: GPL-2.0
#
# make patches: the layer and the migrated drivers of a kernel tree as a
# git format-patch series against the tree as it was before.
"""Write the locked-ioctl layer and the migrated target drivers of a kernel
tree as a patch series a maintainer can take.

KDIR must have the layer ("make apply") and may have migrated drivers
("make migrate").  The series is made in a git repository of its own
(WORK/tree, a copy of KDIR with the layer taken off again: the tree as it
was before), one commit per patch, then written by git format-patch into
OUT with a cover letter:

  - the layer, split the way a reviewer reads it: the wrappers, the BKL and
    its Kconfig, the shim and the file_operations member, the registry, the
    KUnit suites, the test drivers and their kselftests, the documentation;
    each patch adds only what it needs, so that every prefix of the series
    builds;
  - one patch per migrated driver, or per subsystem where the 2010 pushdown
    series grouped them (dvb, scsi, isdn, staging).

Each message has a subject in the file's usual prefix (from git log when KDIR
is a git repository, else from its path), a body from the manifest row and
the semantic patch's description, Signed-off-by from git config, and Cc from
the tree's own scripts/get_maintainer.pl --no-git.  The result of the series
is KDIR itself, but for the BEGIN/END lines that "make apply" puts around
the lines it adds to a Makefile or Kconfig (its way to find them again).

Exit codes: 0 written; 1 a step failed (the message names it); 2 usage, or
KDIR is not a kernel tree with the layer, or git has no identity to sign
with.
"""
import argparse
import difflib
import os
import re
import shutil
import sys

sys.dont_write_bytecode = True

ME = "format-series"
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
TOOLS = os.path.join(REPO, "tools", "locked-ioctl")
sys.path.insert(0, os.path.join(REPO, "scripts", "lib"))
from bkl_migrate.series import (  # noqa: E402
    Failure, Refusal, commit_message, cover_letter, driver_groups, driver_message,
    format_patches, git, git_env, identity, manifest_rows, read, run, users_summary, write)
BEGIN_MARK = ('# BEGIN locked-ioctl (added by tools/locked-ioctl/install/apply; '
              '"make unapply" removes it)')
END_MARK = "# END locked-ioctl"


# ---------------------------------------------------------------------------
# The layer, patch by patch.  "files" are whole files the patch adds (or,
# for the kernel's files our patches change, changes); the lines "make
# apply" adds to files that exist and the lines of the files several
# patches build up are given to the patch that owns what they name.

LAYER = [
    {
        "key": "wrappers",
        "subject": "lib: add locked ioctl wrappers for drivers with a lock of their own",
        "files": ["include/linux/bkl_user.h", "include/trace/events/bkl.h",
                  "include/linux/locked_ioctl_hooks.h", "include/linux/locked_ioctl.h",
                  "lib/locked_ioctl.c"],
        "body": """\
The drivers that the 2010 BKL pushdown left with a file-scope mutex in
place of the Big Kernel Lock each write the same ioctl wrapper by hand:
take the mutex, call the handler, drop it.  DEFINE_LOCKED_IOCTL() and
DEFINE_LOCKED_IOCTL_INTERRUPTIBLE() generate that wrapper around a handler
and any mutex the driver owns, and DEFINE_DRIVER_LOCK_USER() names a
driver lock that is taken elsewhere (some commands only, open()), so that
every lock that replaced the BKL can be found with grep, names the driver
in a lockdep report and in the bkl:driver_lock* tracepoints.

Each user leaves a struct bkl_user (<linux/bkl_user.h>); the wrappers
take their lock through the hooks of <linux/locked_ioctl_hooks.h>, which
lib/locked_ioctl.c implements.  Without lockdep and the counters of a later
patch, the wrappers compile to the mutex_lock()/mutex_unlock() pair a
driver would write.""",
    },
    {
        "key": "bkl",
        "subject": "locking: add the Big Kernel Lock for the drivers that still need it",
        "files": ["include/linux/smp_lock.h", "lib/kernel_lock.c"],
        "kconfig": ["BKL", "BKL_WARN_UNANNOTATED"],
        "body": """\
Old and out-of-tree drivers that were never converted still call
lock_kernel() or expect their ioctl to run under it.  CONFIG_BKL brings
back lock_kernel(), unlock_kernel() and kernel_locked() for them, as a
sleeping lock that is recursive per task, annotated for sparse and visible
to lockdep (class kernel_lock_mutex), and DEFINE_BKL_IOCTL() and its
compat and exported forms, which run an old-style handler under it the way
the VFS once did around .ioctl.

With CONFIG_BKL=n every remaining user fails to build with a message that
says how to convert it.  CONFIG_BKL_WARN_UNANNOTATED names each call site
that takes the BKL without declaring itself.""",
    },
    {
        "key": "shim",
        "subject": "fs: add file_operations.locked_ioctl and the deprecated_ioctl shim",
        "files": ["lib/deprecated_ioctl.c"],
        "patches": ["0001-fs-locked_ioctl-member-and-vfs-fallback.patch"],
        "body": """\
A driver that cannot be converted yet keeps its old-style handler in
.locked_ioctl and sets .unlocked_ioctl = deprecated_ioctl, which runs the
handler under the BKL; vfs_ioctl() falls back to it for operations that
have only .locked_ioctl, and deprecated_compat_ioctl() covers the 32-bit
entry point.  The member and the fallback exist only with CONFIG_BKL=y,
so a remaining user does not build without the BKL.

The fallback is one call in the branch for a file without .unlocked_ioctl,
so that vfs_ioctl() is still inlined into the ioctl system call: as a
third branch it was not, and cost every ioctl 5 instructions.""",
    },
    {
        "key": "registry",
        "subject": "lib: list the users of the BKL and of its replacements in debugfs",
        "files": ["lib/bkl_users.c"],
        "patches": ["0003-module-vmlinux-lds-bkl-users-sections.patch"],
        "kconfig": ["BKL_REGISTRY", "BKL_USER_STATS"],
        "body": """\
Every user of the layer leaves a pointer in the section __bkl_users and a
record in __bkl_users_info.  CONFIG_BKL_REGISTRY collects them from
vmlinux and from each module as it loads, and lists them in
/sys/kernel/debug/bkl/users with the lock each takes; with
CONFIG_BKL_USER_STATS also how often it took it, how often it waited and
the longest it held it, to find the users that still matter.
deprecated_ioctl() uses it to run each shim user under its own name.""",
    },
    {
        "key": "kunit",
        "subject": "lib: add KUnit tests for the BKL, the wrappers and the registry",
        "files": ["lib/bkl_kunit.h", "lib/bkl_kunit.c", "lib/locked_ioctl_kunit.c",
                  "lib/bkl_users_kunit.c"],
        "kconfig": ["BKL_KUNIT_TEST", "LOCKED_IOCTL_KUNIT_TEST", "BKL_USERS_KUNIT_TEST"],
        "body": """\
Three suites: bkl (recursion, the interruptible and the wait forms, the
wrappers and the shim with its VFS fallback), locked_ioctl (the generic
wrappers, which need no BKL) and bkl_users (the records, the counters,
the lockdep identity of each user and the tracepoints).  With
CONFIG_PROVE_LOCKING a lockdep report about a BKL user must name it.""",
    },
    {
        "key": "tests",
        "subject": "misc: add test drivers and kselftests for the locked ioctl layer",
        "dirs": ["drivers/misc/locked_ioctl_test", "tools/testing/selftests/locked_ioctl"],
        "body": """\
CONFIG_LOCKED_IOCTL_TEST registers a misc device for each way a driver
can be locked (DEFINE_BKL_IOCTL(), the shim, the generic wrappers, the
BKL taken by hand), and the kselftests drive them from user space,
natively and as 32-bit tasks: the lock is held, ioctls serialise, bad
input gets -ENOTTY or -EFAULT, a signal interrupts the interruptible
forms.  CONFIG_LOCKED_IOCTL_BENCH is the module the benchmarks time.""",
    },
    {
        "key": "docs",
        "subject": "Documentation: describe the locked ioctl layer and its tools",
        "dirs": [],
        "files": ["Documentation/locking/locked-ioctl.rst",
                  "Documentation/dev-tools/bkl-users.rst",
                  "Documentation/dev-tools/bkl-migrate.rst",
                  "Documentation/dev-tools/locked-ioctl-bench.rst"],
        "patches": ["0002-docs-locking-index.patch", "0004-docs-dev-tools-index.patch"],
        "body": """\
How to use the wrappers and the BKL, how to port a driver onto them (by
hand and with the semantic patches), how to find every remaining user,
and how to remove the BKL in the end; what the layer costs.""",
    },
]


def strip_marks(text):
    return "".join(l for l in text.splitlines(True) if l.rstrip("\n") not in (BEGIN_MARK, END_MARK))


def kernel_version(tree):
    mk = read(os.path.join(tree, "Makefile"))
    v = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\S*)", mk, re.M))
    if "VERSION" not in v:
        raise Refusal("%s is not a kernel tree (no VERSION in its Makefile)" % tree)
    return "%s.%s.%s" % (v["VERSION"], v.get("PATCHLEVEL", "0"), v.get("SUBLEVEL", "0"))


# ---------------------------------------------------------------------------
# The layer's files: whose is each, and each partial file's lines.

def manifest():
    """Our files as installed: their paths in the tree."""
    paths = []
    for line in read(os.path.join(TOOLS, "files")).splitlines():
        line = line.split("#", 1)[0].split()
        if line:
            paths.append(line[1] if len(line) > 1 else line[0])
    return paths


def owners():
    """path -> index of the layer patch that adds it."""
    own = {}
    for i, p in enumerate(LAYER):
        for f in p.get("files", []):
            own[f] = i
    for f in manifest():
        for i, p in enumerate(LAYER):
            if any(f.startswith(d + "/") for d in p.get("dirs", [])):
                own[f] = i
    missing = [f for f in manifest() if f not in own]
    if missing:
        raise Failure("no layer patch adds %s: add it to LAYER in %s" % (", ".join(missing), ME))
    return own


def patch_files(name):
    return re.findall(r"^\+\+\+ b/(\S+)", read(os.path.join(REPO, "kernel-patches", name)), re.M)


def kconfig_owner(symbol):
    for i, p in enumerate(LAYER):
        if symbol in p.get("kconfig", []):
            return i
    raise Failure("no layer patch adds config %s: add it to LAYER in %s" % (symbol, ME))


def line_owners(path, lines, own):
    """The owner of each added line of a file several patches build up;
    None: the file's first patch (comments, blank lines, headings)."""
    result = []
    block = None
    for line in lines:
        s = line.strip()
        m = re.match(r"(?:menu)?config\s+(\w+)", s)
        if path.endswith("Kconfig") and m:
            block = kconfig_owner(m.group(1))
        m = re.match(r'source\s+"([^"]+)"', s)
        if m:
            block = None
        if block is not None:
            result.append(block)
            continue
        o = own.get(m.group(1)) if m else None
        m = re.search(r"\+=\s*(.*)", s)
        if o is None and m and path.endswith("Makefile"):
            d = os.path.dirname(path)
            names = [os.path.join(d, t) for t in m.group(1).split()]
            cands = [own.get(n[:-2] + ".c") if n.endswith(".o") else
                     min((v for k, v in own.items() if k.startswith(n.rstrip("/") + "/")),
                         default=None) for n in names]
            cands = [c for c in cands if c is not None]
            if cands:
                o = max(cands)
        m = re.match(r"F:\s+(\S+)", s)
        if o is None and m and path == "MAINTAINERS":
            pat = m.group(1)
            o = own.get(pat)
            if o is None:
                o = min((v for k, v in own.items() if k.startswith(pat)), default=None)
            if o is None:
                raise Failure("MAINTAINERS names %s, which the layer does not add" % pat)
        result.append(o)
    # a blank line goes with what follows it (the next Kconfig entry), and
    # the last one with the file's first patch (MAINTAINERS' separator)
    for i in range(len(lines) - 1, -1, -1):
        if not lines[i].strip():
            result[i] = result[i + 1] if i + 1 < len(lines) else None
    return result


def layer_states(base, final_tree):
    """For each layer patch i: {path: text or None (absent)} after it."""
    own = owners()
    for i, p in enumerate(LAYER):
        for name in p.get("patches", []):
            for f in patch_files(name):
                own.setdefault(f, i)
    partial = {}
    for rel in read(os.path.join(final_tree, ".locked-ioctl", "hooks")).split() + ["MAINTAINERS"]:
        partial[rel] = None
    for name in sorted(os.listdir(os.path.join(REPO, "kernel-patches"))):
        for f in patch_files(name):
            if f not in own and f not in partial:
                raise Failure("%s changes %s, which no layer patch takes: add it to LAYER in %s"
                              % (name, f, ME))
    states = [dict() for _ in LAYER]
    paths = set(own) | set(partial)
    for rel in sorted(paths):
        fin_path = os.path.join(final_tree, rel)
        if not os.path.exists(fin_path):
            raise Failure("%s: not in %s, which should have the layer" % (rel, final_tree))
        final = strip_marks(read(fin_path))
        bpath = os.path.join(base, rel)
        before = read(bpath) if os.path.exists(bpath) else None
        if rel not in partial:
            for i in range(len(LAYER)):
                states[i][rel] = final if i >= own[rel] else before
            continue
        old = (before or "").splitlines(True)
        new = final.splitlines(True)
        added = []          # (index into new, line)
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if tag in ("replace", "delete"):
                raise Failure("%s: the layer changes lines of it, not only adds: "
                              "give it to one patch" % rel)
            if tag == "insert":
                added.extend(range(j1, j2))
        who = line_owners(rel, [new[j] for j in added], own)
        first = min((w for w in who if w is not None), default=own.get(rel, 0))
        who = [first if w is None else w for w in who]
        owner_of = dict(zip(added, who))
        for i in range(len(LAYER)):
            if before is None and first > i:
                states[i][rel] = None
                continue
            states[i][rel] = "".join(l for j, l in enumerate(new)
                                     if j not in owner_of or owner_of[j] <= i)
    return states


# ---------------------------------------------------------------------------
# The migrated drivers: groups, subjects, messages.

def migrated_files(kdir):
    orig = os.path.join(kdir, ".locked-ioctl", "migrate", "orig")
    out = []
    for root, _, files in os.walk(orig):
        for f in files:
            out.append(os.path.relpath(os.path.join(root, f), orig))
    return sorted(out)


# ---------------------------------------------------------------------------
# The repository of the series.


def snapshot(kdir, tree):
    """tree: a copy of KDIR with the layer off again, as a git repository
    with one commit, the base of the series."""
    if os.path.exists(tree):
        shutil.rmtree(tree)
    os.makedirs(os.path.dirname(tree), exist_ok=True)
    run(["cp", "-a", kdir, tree])
    if os.path.exists(os.path.join(tree, ".git")):
        shutil.rmtree(os.path.join(tree, ".git"))
    run([os.path.join(TOOLS, "install", "apply"), "--unapply", "-q", tree])
    git(tree, "init", "-q")
    git(tree, "config", "core.autocrlf", "false")
    # -f: Debian's linux-source ignores its whole top level (/* in .gitignore)
    git(tree, "add", "-f", "-A", ".")
    git(tree, "commit", "-q", "--no-verify", "-m", "Linux %s" % kernel_version(tree))
    git(tree, "tag", "series-base")


def commit(tree, subject, body, name, email, files):
    git(tree, "add", "-f", "-A", "--", *files)
    msg = commit_message(tree, files, subject, body, email, "%s <%s>" % (name, email))
    run(["git", "-C", tree, "commit", "-q", "--no-verify", "-F", "-"],
        env=git_env(name, email), stdin=msg)


def make_series(kdir, out, work):
    kdir = os.path.abspath(kdir)
    if not os.path.isfile(os.path.join(kdir, "MAINTAINERS")) or \
       not os.path.isfile(os.path.join(kdir, "scripts", "get_maintainer.pl")):
        raise Refusal("%s is not a kernel source tree (no MAINTAINERS or "
                      "scripts/get_maintainer.pl); nothing written" % kdir)
    kernel_version(kdir)
    if not os.path.isfile(os.path.join(kdir, ".locked-ioctl", "installed")):
        raise Refusal("%s does not have the layer: run 'make apply migrate KDIR=%s' first; "
                      "nothing written" % (kdir, kdir))
    name, email = identity(kdir)
    tree = os.path.join(work, "tree")
    snapshot(kdir, tree)
    # the layer
    states = layer_states(tree, kdir)
    for i, p in enumerate(LAYER):
        touched = []
        for rel, text in sorted(states[i].items()):
            prev = states[i - 1][rel] if i else (read(os.path.join(tree, rel))
                                                if os.path.exists(os.path.join(tree, rel)) else None)
            if text == prev:
                continue
            touched.append(rel)
            path = os.path.join(tree, rel)
            if text is None:
                os.remove(path)
            else:
                write(path, text)
                if os.access(os.path.join(kdir, rel), os.X_OK):
                    os.chmod(path, 0o755)
        if not touched:
            raise Failure("layer patch %d (%s) changes nothing" % (i + 1, p["key"]))
        commit(tree, p["subject"], p["body"], name, email, touched)
    # the drivers
    rows = manifest_rows(os.path.join(TOOLS, "targets"))
    files = migrated_files(kdir)
    counts = [0, 0]
    groups = driver_groups(files)
    for g in groups:
        subject, body, conv, ann = driver_message(kdir, tree, g, rows)
        counts[0] += conv
        counts[1] += ann
        for rel in g:
            shutil.copy2(os.path.join(kdir, rel), os.path.join(tree, rel))
        commit(tree, subject, body, name, email, g)
    before = users_summary(os.path.join(kdir, ".locked-ioctl", "migrate", "orig"), files)
    after = users_summary(kdir, files)
    format_patches(tree, "series-base..HEAD", out)
    cover_letter(out, len(LAYER), len(groups), counts, before, after)
    n = len([f for f in os.listdir(out) if f.endswith(".patch")])
    print("%s: %d patches and a cover letter in %s (%d layer, %d driver; from %s)"
          % (ME, n - 1, out, len(LAYER), len(groups), kdir))


def main():
    ap = argparse.ArgumentParser(
        prog=ME, description=__doc__.split("\n\n")[0],
        epilog="Exit codes: 0 written; 1 a step failed; 2 usage, a tree without the "
               "layer, or no git identity.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kdir", help="a kernel tree with the layer (make apply [migrate])")
    ap.add_argument("--out", help="where the series goes (default: BUILD/patches/VERSION)")
    ap.add_argument("--work", help="the series' git repository and scratch "
                    "(default: BUILD/patches/work-VERSION)")
    args = ap.parse_args()
    build = os.environ.get("BUILD", os.path.join(REPO, "build"))
    try:
        if not os.path.isfile(os.path.join(args.kdir, "Makefile")):
            raise Refusal("%s is not a kernel source tree; nothing written" % args.kdir)
        ver = kernel_version(args.kdir)
        out = args.out or os.path.join(build, "patches", ver)
        work = args.work or os.path.join(build, "patches", "work-" + ver)
        make_series(args.kdir, out, work)
    except Refusal as e:
        print("%s: error: %s" % (ME, e), file=sys.stderr)
        return 2
    except Failure as e:
        print("%s: error: %s" % (ME, e), file=sys.stderr)
        return 1
    return 0

