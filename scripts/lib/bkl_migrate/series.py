# SPDX-License-Identifier: GPL-2.0
"""Migrated drivers as a git format-patch series: bkl-migrate --format-patch,
and the driver patches of make patches (tools/locked-ioctl/release/format-series).

The files of a group (one driver, or one subsystem where the 2010 pushdown
series grouped them) become one commit: a subject in the files' usual
prefix, a body naming each generator the migration added and the semantic
patch that made it, Signed-off-by from git config and Cc from the tree's
own scripts/get_maintainer.pl.  On a tree of the BKL era the series starts
with the 2.6.34 edition of <linux/locked_ioctl.h>."""
import json
import os
import re
import shutil
import subprocess
import textwrap

from .cocci import COCCI

# scripts/ and the top of the repository
SCRIPTS = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
REPO = os.path.dirname(SCRIPTS)


class Failure(Exception):
    """A step failed: exit 1 with its message."""


class Refusal(Exception):
    """Usage or a tree we cannot use: exit 2 with its message."""


# The seed series' subsystem patches: the files under these directories go
# into one patch each, with this prefix; every other driver is a patch of
# its own.
SUBSYSTEMS = [
    ("drivers/media/", "media"),
    ("drivers/scsi/", "scsi"),
    ("drivers/isdn/", "isdn"),
    ("drivers/staging/", "staging"),
]


def run(cmd, cwd=None, env=None, check=True, stdin=None):
    """Run cmd, return its stdout; a failure is a Failure naming it."""
    p = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise Failure("%s failed (exit %d): %s" % (" ".join(cmd[:3]), p.returncode,
                                                    (p.stderr or p.stdout).strip()[-600:]))
    return p.stdout


def read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def identity(kdir):
    """The user's git identity, which signs the patches."""
    where = kdir if os.path.isdir(os.path.join(kdir, ".git")) else None
    out = {}
    for key in ("user.name", "user.email"):
        p = subprocess.run(["git", "config", key], cwd=where, capture_output=True, text=True)
        out[key] = p.stdout.strip()
        if not out[key]:
            raise Refusal("git config %s is not set: it signs the patches (Signed-off-by); "
                          "set it with 'git config --global %s ...'" % (key, key))
    return out["user.name"], out["user.email"]


def group_of(rel):
    for prefix, name in SUBSYSTEMS:
        if rel.startswith(prefix):
            return name
    # a driver: its .c and the headers or Kconfig of its directory
    return os.path.dirname(rel) + "/" if not rel.endswith(".c") else rel


def driver_groups(files):
    groups = {}
    for rel in files:
        groups.setdefault(group_of(rel), []).append(rel)
    # a driver directory's Kconfig/header goes with the one .c file there
    for key in [k for k in groups if k.endswith("/")]:
        cs = [k for k in groups if k.endswith(".c") and os.path.dirname(k) + "/" == key]
        if len(cs) == 1:
            groups[cs[0]] += groups.pop(key)
    return [sorted(v) for _, v in sorted(groups.items())]


def manifest_rows(path):
    """The rows of the target manifest PATH by file; none without one."""
    rows = {}
    if not path or not os.path.isfile(path):
        return rows
    for line in read(path).splitlines():
        if line.startswith("#"):
            continue
        f = line.split("\t")
        if len(f) == 10 and f[1] != "-":
            rows[f[1]] = f
    return rows


def path_prefix(files):
    """A subject prefix from the paths: "scsi", "char: hpet", ..."""
    common = os.path.commonpath(files)
    if len(files) == 1:
        common = os.path.splitext(common)[0]
    parts = [p for p in common.split("/") if p]
    if parts and parts[0] == "drivers":
        parts = parts[1:]
    # rtc/rtc-m41t80: "rtc: m41t80", ipmi/ipmi_watchdog: "ipmi: watchdog"
    if len(parts) > 1 and parts[-1][:len(parts[-2]) + 1] in (parts[-2] + "-", parts[-2] + "_"):
        parts[-1] = parts[-1][len(parts[-2]) + 1:]
    return ": ".join(parts) or "drivers"


def log_prefix(kdir, files):
    """The prefix most of the files' recent commits use, if KDIR has history."""
    if not os.path.isdir(os.path.join(kdir, ".git")):
        return None
    p = subprocess.run(["git", "log", "--no-merges", "--format=%s", "-n", "30", "--"] + files,
                       cwd=kdir, capture_output=True, text=True)
    counts = {}
    for subj in p.stdout.splitlines():
        m = re.match(r"^((?:[\w./-]+: ?)+)", subj)
        if m:
            k = m.group(1).rstrip(": ")
            counts[k] = counts.get(k, 0) + 1
    return max(counts, key=counts.get) if counts else None


GENERATORS = [
    ("DEFINE_LOCKED_IOCTL_INTERRUPTIBLE", "wrapper"),
    ("DEFINE_LOCKED_IOCTL", "wrapper"),
    ("DEFINE_DRIVER_LOCK_USER", "driver_lock_annotate.cocci"),
    ("DEFINE_BKL_SHIM_USER", "ioctl_pushdown.cocci"),
    ("DEFINE_BKL_USER", "bkl_user_annotate.cocci"),
    ("DEFINE_BKL_IOCTL", "ioctl_pushdown.cocci"),
    ("DEFINE_BKL_COMPAT_IOCTL", "ioctl_pushdown.cocci"),
    ("DEFINE_BKL_UNLOCKED_IOCTL", "ioctl_pushdown.cocci"),
]


def without_comment(line):
    """LINE stripped, and without a comment at its end: not part of the code."""
    return re.sub(r"\s*/\*.*?\*/\s*$", "", line.strip())


def generator_lines(old, new):
    """The layer's generators the migration added, and the semantic patch of each."""
    olds = set(old.splitlines())
    out = []
    lines = new.splitlines()
    for i, line in enumerate(lines):
        if line in olds:
            continue
        for name, rule in GENERATORS:
            if re.match(r"\s*%s\(" % name, line):
                text = without_comment(line)
                j = i
                while not text.endswith(";") and j + 1 < len(lines):
                    j += 1
                    text += " " + without_comment(lines[j])
                if rule == "wrapper":
                    args = [a.strip() for a in text[text.index("(") + 1:].split(",")]
                    rule = ("driver_lock_inline.cocci" if len(args) > 1 and
                            args[1] == args[0] + "_locked" else "driver_lock_wrapper.cocci")
                elif name == "DEFINE_BKL_UNLOCKED_IOCTL" and "_locked)" in text:
                    rule = "inline_pushdown.cocci"
                out.append((text, rule))
                break
    return out


def rule_summary(rule):
    """The first paragraph of a semantic patch's /// description, one line."""
    text = []
    for line in read(os.path.join(COCCI, rule)).splitlines():
        if not line.startswith("///"):
            if text:
                break
            continue
        line = line[3:].strip()
        if not line:
            if text:
                break
            continue
        text.append(line)
        if line.endswith(":"):
            break
    para = " ".join(text)
    m = re.match(r"(.+?[.:])(\s|$)", para)
    return (m.group(1) if m else para).rstrip(":.") + "."


def wrap(text, indent=""):
    return textwrap.fill(text, width=72, initial_indent=indent, subsequent_indent=indent,
                         break_long_words=False, break_on_hyphens=False)


def code_line(text):
    """A generator line for the message: a tab, at most 75 columns per line."""
    out, line = [], "\t"
    for piece in re.split(r"(?<=,) ", text):
        if len(line) + len(piece) + 1 > 72 and line.strip():
            out.append(line.rstrip())
            line = "\t\t"
        line += piece + " "
    out.append(line.rstrip())
    return "\n".join(out)


def protection(row):
    """The manifest's protection column as a phrase: "its driver mutex m"."""
    kind, _, text = row[5].partition(": ")
    m = re.search(r"DEFINE_MUTEX\((\w+)\)|mutex_lock(?:_interruptible)?\(&?([\w>.-]+)\)", text)
    name = (m.group(1) or m.group(2)) if m else None
    return "its %s %s" % (kind, name) if name else kind


def compat(row):
    """The manifest's compat column as a sentence, or None."""
    c = row[6]
    if c == "-":
        return None
    if c == "native":
        return "Its compat_ioctl is the native ioctl: the same lock."
    if c.startswith("core: "):
        return "Its subsystem's compat_ioctl calls the native ioctl: the same lock."
    fn, _, lock = c[len("own: "):].partition(": ")
    return "Its compat_ioctl, %s(), takes the lock itself (%s)." % (fn, lock.rstrip(";"))


def driver_message(kdir, base, files, rows):
    prefix = log_prefix(kdir, files) or path_prefix(files)
    gens = {}
    for rel in files:
        old = read(os.path.join(base, rel)) if os.path.exists(os.path.join(base, rel)) else ""
        gens[rel] = generator_lines(old, read(os.path.join(kdir, rel)))
    texts = [t for g in gens.values() for t, _ in g]
    # A tree of the BKL era (2.6.3x): the drivers keep the BKL, taken by
    # DEFINE_BKL_*() instead of the VFS; the manifest rows describe today's
    # drivers, whose locks replaced the BKL, and do not apply.
    if texts and all(t.startswith("DEFINE_BKL_") for t in texts):
        return bkl_message(prefix, files, gens)
    if not texts and all(os.path.basename(f).startswith("Kconfig") for f in files):
        return kconfig_message(prefix)
    annotated = converted = 0
    rules = []
    parts = []
    for rel in files:
        row = rows.get(rel)
        head = rel + (", under %s:" % protection(row) if row else ":")
        if parts:
            parts.append("")
        parts.append(wrap(head))
        for text, rule in gens[rel]:
            parts.append(code_line(text))
            if rule not in rules:
                rules.append(rule)
            if text.startswith(("DEFINE_DRIVER_LOCK_USER", "DEFINE_BKL_USER")):
                annotated += 1
            else:
                converted += 1
        if row and compat(row):
            parts.append(wrap(compat(row)))
    if converted and not annotated:
        what = "wrap the locks that replaced the BKL in the locked ioctl layer"
    elif annotated and not converted:
        what = "name the locks that replaced the BKL"
    else:
        what = "move the locks that replaced the BKL onto the locked ioctl layer"
    subject = "%s: %s" % (prefix, what)
    body = [wrap("When the Big Kernel Lock went, %s got %s in its place, taken by "
                 "hand around the ioctl or open() it had protected.  Give %s the "
                 "locked ioctl layer's identity, without changing what it protects, "
                 "so that lockdep reports, the bkl:driver_lock* tracepoints and "
                 "scripts/bkl-users name the driver and the lock:"
                 % ("these drivers" if len(files) > 1 else "this driver",
                    "mutexes of their own" if len(files) > 1 else "a mutex of its own",
                    "each" if len(files) > 1 else "it")),
            "",
            "\n".join(parts),
            ""]
    body += rule_paragraphs(rules)
    body.append(wrap("Made with scripts/bkl-migrate --annotate-driver-locks; "
                     "the manifest row gives the lock (tools/locked-ioctl/targets)."))
    return subject, "\n".join(body), converted, annotated


def rule_paragraphs(rules):
    body = []
    for rule in rules:
        body.append(wrap("%s: %s" % (rule, rule_summary(rule))))
        body.append("")
    return body


def kconfig_message(prefix):
    """The message of the Kconfig entries of drivers that now take the BKL."""
    body = [wrap("The drivers of these entries take the Big Kernel Lock through the "
                 "locked ioctl layer, which has it only with CONFIG_BKL=y: make each "
                 "depend on BKL, so that a kernel without it leaves them out instead "
                 "of failing to build them."),
            "",
            wrap("Made with scripts/bkl-migrate.")]
    return "%s: make the drivers that take the BKL depend on it" % prefix, \
        "\n".join(body), 0, 0


def bkl_message(prefix, files, gens):
    """The message of a BKL pushdown: the old .ioctl's BKL taken by a
    DEFINE_BKL_*() wrapper, open()'s lock_kernel() named by DEFINE_BKL_USER()."""
    annotated = converted = 0
    rules, parts = [], []
    for rel in files:
        if not gens[rel]:
            continue
        if parts:
            parts.append("")
        parts.append(wrap(rel + ":"))
        for text, rule in gens[rel]:
            parts.append(code_line(text))
            if rule not in rules:
                rules.append(rule)
            if text.startswith("DEFINE_BKL_USER"):
                annotated += 1
            else:
                converted += 1
    what = "push the BKL down into the ioctl" if converted else "name the BKL users"
    many = sum(1 for rel in files if gens[rel]) > 1
    body = [wrap("%s still depend%s on the Big Kernel Lock: the VFS takes it around "
                 "every call of an old-style .ioctl, and %s.  Take it in the driver "
                 "instead, with the locked ioctl layer's generators, which keep the "
                 "same locking and name each section as a user of the BKL, so that "
                 "lockdep reports, the bkl:* tracepoints and scripts/bkl-users find "
                 "%s:"
                 % ("These drivers" if many else "This driver", "" if many else "s",
                    ("their open() routines take it by hand" if many
                     else "its open() takes it by hand") if annotated
                    else "nothing else in %s says so" % ("them" if many else "the driver"),
                    "them" if many else "it")),
            "",
            "\n".join(parts),
            ""]
    body += rule_paragraphs(rules)
    body.append(wrap("Made with scripts/bkl-migrate."))
    return "%s: %s" % (prefix, what), "\n".join(body), converted, annotated


def git(tree, *args, **kw):
    return run(["git", "-C", tree] + list(args), **kw)


def cc_lines(tree, files, me):
    files = [f for f in files if os.path.exists(os.path.join(tree, f))]
    if not files:
        return []
    out = run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-rolestats", "--no-tree",
               "-f"] + files, cwd=tree, check=False)
    ccs = []
    for line in out.splitlines():
        line = line.strip()
        if "@" in line and me not in line and line not in ccs:
            ccs.append(line)
    return ["Cc: " + c for c in ccs]


def commit_message(tree, files, subject, body, email, me):
    """Subject, body, Signed-off-by ME, and a Cc for each address that
    get_maintainer.pl gives for FILES."""
    msg = "%s\n\n%s\n\nSigned-off-by: %s\n" % (subject, body.rstrip(), me)
    ccs = cc_lines(tree, files, email)
    return msg + "".join(c + "\n" for c in ccs)


def git_env(name, email, **extra):
    """The environment of a git command that commits as NAME <EMAIL>."""
    return dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
                GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email, **extra)


def commit_tree(tree, parent, index, files, subject, body, name, email):
    """A commit of FILES as they are in TREE's work tree on top of PARENT,
    through the index file INDEX: no branch, HEAD or work tree changes."""
    env = git_env(name, email, GIT_INDEX_FILE=index)
    run(["git", "-C", tree, "update-index", "--add", "--remove", "--"] + files, env=env)
    sha = run(["git", "-C", tree, "write-tree"], env=env).strip()
    msg = commit_message(tree, files, subject, body, email, "%s <%s>" % (name, email))
    return run(["git", "-C", tree, "commit-tree", sha, "-p", parent, "-F", "-"],
               env=env, stdin=msg).strip()


def format_patches(tree, revs, out):
    """git format-patch of REVS with a cover letter into OUT, emptied first."""
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    git(tree, "format-patch", "-q", "--cover-letter", "--no-signature",
        "-o", os.path.abspath(out), revs)


# A tree of the BKL era (2.6.x before 2.6.39) has no <linux/locked_ioctl.h>:
# the series begins with the header's edition for its own lock_kernel() and
# the BKL symbol that the drivers' Kconfig entries now depend on.
LEGACY_HEADER = os.path.join(REPO, "backports", "2.6.34", "include", "linux", "locked_ioctl.h")


LEGACY_FILES = ["include/linux/locked_ioctl.h", "lib/Kconfig", "MAINTAINERS"]


LEGACY_KCONFIG = """
#
# The Big Kernel Lock, always there in this kernel.  The drivers that take it
# through <linux/locked_ioctl.h> depend on BKL, as they do in the kernels
# that can leave it out.
#
config BKL
	def_bool y
"""


LEGACY_MAINTAINERS = [
    "LOCKED IOCTL WRAPPERS AND BIG KERNEL LOCK",
    "L:\tlinux-kernel@vger.kernel.org",
    "S:\tMaintained",
    "F:\tinclude/linux/locked_ioctl.h",
]


def maintainers_entry(text, entry):
    """TEXT, a MAINTAINERS file, with ENTRY (its lines, the title first)
    inserted where the alphabetical order of the section titles puts it;
    TEXT as it is when a section of that title is there already, or when
    it has no section list to put it in."""
    lines = text.split("\n")
    titles = [i for i in range(1, len(lines) - 1)
              if lines[i] and not lines[i - 1] and not lines[i][0].isspace() and
              re.match(r"[A-Z]:\t", lines[i + 1])]
    if not titles or any(lines[i] == entry[0] for i in titles):
        return text
    after = [i for i in titles if lines[i].upper() > entry[0].upper()]
    if after:
        at = after[0]
    else:
        at = titles[-1]
        while at < len(lines) and lines[at]:
            at += 1
        at += 1
    return "\n".join(lines[:at] + entry + [""] + lines[at:])


def historical_bkl(tree):
    """Does TREE have the historical BKL and no <linux/locked_ioctl.h>?"""
    smp_lock = os.path.join(tree, "include", "linux", "smp_lock.h")
    return (not os.path.exists(os.path.join(tree, LEGACY_FILES[0])) and
            os.path.exists(smp_lock) and "lock_kernel" in read(smp_lock) and
            not re.search(r"^config BKL$", read(os.path.join(tree, LEGACY_FILES[1])), re.M))


def legacy_header(tree):
    """Put the header's 2.6.x edition and the BKL symbol into TREE's work
    tree; the subject and body of their patch."""
    shutil.copyfile(LEGACY_HEADER, os.path.join(tree, LEGACY_FILES[0]))
    # replaced, not written into: the tree may be hard links to another
    kconfig = os.path.join(tree, LEGACY_FILES[1])
    maintainers = os.path.join(tree, LEGACY_FILES[2])
    edits = [(kconfig, read(kconfig) + LEGACY_KCONFIG)]
    if os.path.exists(maintainers):
        edits.append((maintainers, maintainers_entry(read(maintainers), LEGACY_MAINTAINERS)))
    for path, text in edits:
        write(path + ".new", text)
        shutil.copymode(path, path + ".new")
        os.replace(path + ".new", path)
    body = "\n".join([
        wrap("The drivers that still depend on the Big Kernel Lock get it from the "
             "VFS, around every call of an old-style .ioctl, or take it by hand, "
             "and nothing names them.  <linux/locked_ioctl.h> lets each say so in "
             "one line: DEFINE_BKL_IOCTL() and its siblings define an "
             "unlocked_ioctl that takes the BKL around the driver's handler, as "
             "the VFS did, and DEFINE_BKL_USER() names a section that takes it "
             "by hand (lock_kernel_user()).  This is the header's edition for a "
             "kernel whose BKL is always there: the generators are lock_kernel() "
             "and unlock_kernel(), and the later kernels' header, which adds a "
             "registry, lockdep classes and CONFIG_BKL, takes the same lines."),
        "",
        wrap("CONFIG_BKL is always y here; the drivers that take the BKL depend on "
             "it, as they will where it can be left out.  The MAINTAINERS entry "
             "is the one the later kernels' layer has, for this one file."),
        "",
        wrap("Made with scripts/bkl-migrate --format-patch.")])
    return "locking: add <linux/locked_ioctl.h> for the Big Kernel Lock", body


def driver_series(tree, rels, out, scratch, rows):
    """bkl-migrate --format-patch: the files RELS of the git work tree TREE,
    which bkl-migrate just wrote, as patches against its HEAD, grouped and
    written as make patches writes its driver patches, with a cover letter;
    ROWS, the target manifest's rows by file, say what lock each driver has.
    Nothing of the repository but its objects changes."""
    name, email = identity(tree)
    head = git(tree, "rev-parse", "HEAD").strip()
    base = os.path.join(scratch, "base")
    for rel in rels:
        p = subprocess.run(["git", "-C", tree, "show", "HEAD:" + rel], capture_output=True)
        if p.returncode == 0:
            os.makedirs(os.path.dirname(os.path.join(base, rel)), exist_ok=True)
            with open(os.path.join(base, rel), "wb") as f:
                f.write(p.stdout)
    index = os.path.join(scratch, "index")
    run(["git", "-C", tree, "read-tree", "HEAD"], env=dict(os.environ, GIT_INDEX_FILE=index))
    counts = [0, 0]
    parent = head
    first = 0
    if historical_bkl(tree):
        subject, body = legacy_header(tree)
        parent = commit_tree(tree, parent, index, LEGACY_FILES, subject, body, name, email)
        first = 1
    groups = driver_groups(rels)
    for g in groups:
        subject, body, conv, ann = driver_message(tree, base, g, rows)
        counts[0] += conv
        counts[1] += ann
        parent = commit_tree(tree, parent, index, g, subject, body, name, email)
    format_patches(tree, "%s..%s" % (head, parent), out)
    cover_letter(out, first, len(groups), counts, users_summary(base, rels),
                 users_summary(tree, rels), legacy=bool(first))
    return first + len(groups)


def users_summary(tree, files):
    """scripts/bkl-users over FILES of TREE: count per kind."""
    files = [f for f in files if os.path.exists(os.path.join(tree, f))]
    if not files:
        return {}
    p = subprocess.run([os.path.join(SCRIPTS, "bkl-users"), "--json", "--tree", tree] +
                       [os.path.join(tree, f) for f in files],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise Failure("scripts/bkl-users failed: %s" % p.stderr.strip()[-300:])
    counts = {}
    for rec in json.loads(p.stdout or "[]"):
        counts[rec["kind"]] = counts.get(rec["kind"], 0) + 1
    return counts


def cover_letter(out, layer_n, drivers, counts, before, after, legacy=False):
    covers = [f for f in os.listdir(out) if f.startswith("0000-")]
    if len(covers) != 1:
        raise Failure("git format-patch wrote no cover letter")
    path = os.path.join(out, covers[0])
    text = read(path)
    fmt = lambda c: ", ".join("%d %s" % (n, k) for k, n in sorted(c.items())) or "none"
    intro = ("The Big Kernel Lock is gone, but the locks that replaced it around "
             "ioctl and open() in 2010 are still in many drivers, written by hand, "
             "and out-of-tree drivers still expect the BKL.  ")
    if legacy:
        intro = ("Drivers that still depend on the Big Kernel Lock get it from the "
                 "VFS around an old-style .ioctl, or take it by hand, and nothing "
                 "names them.  ")
        title = "locked-ioctl: push the BKL down into the drivers that need it"
        intro += ("This series adds <linux/locked_ioctl.h> for this kernel's BKL "
                  "and moves the drivers' ioctls onto its generators, which take "
                  "the BKL as the VFS did and name every user of it.")
    elif layer_n:
        title = "locked-ioctl: wrappers for ioctls under a driver's lock, the BKL for the rest"
        intro += ("This series adds generic locked ioctl wrappers for a lock the driver "
                  "owns, the BKL behind CONFIG_BKL for the drivers that still need it, "
                  "the deprecated_ioctl shim and a registry that lists every user, and "
                  "moves the target drivers of the 2010 pushdown onto them.")
    else:
        title = "locked-ioctl: move drivers onto the locked ioctl layer"
        intro += ("This series moves drivers onto the locked ioctl layer "
                  "(<linux/locked_ioctl.h>), so that each such lock is named where "
                  "lockdep, the tracepoints and scripts/bkl-users report it.")
    body = "\n\n".join([
        wrap(intro),
        wrap(("Patch 1 adds the header.  " if legacy else
              "Patches 1-%d add the layer; each builds on its own.  " % layer_n
              if layer_n else "The layer is in the tree already.  ") +
             ("Patches %d-%d "
              "are the drivers, one per driver or per subsystem as the 2010 series "
              "grouped them, made with scripts/bkl-migrate: %d wrapper(s) converted "
              "(%s and friends), %d lock section(s) annotated (%s)."
              % (layer_n + 1, layer_n + drivers, counts[0],
                 "DEFINE_BKL_IOCTL" if legacy else "DEFINE_LOCKED_IOCTL", counts[1],
                 "DEFINE_BKL_USER" if legacy else "DEFINE_DRIVER_LOCK_USER, DEFINE_BKL_USER")
              if drivers else
              "No driver of this tree is migrated (make migrate).")),
        wrap("scripts/bkl-users over the migrated files: before the series: %s; "
             "after it: %s." % (fmt(before), fmt(after))),
    ])
    text = text.replace("*** SUBJECT HERE ***", title)
    text = text.replace("*** BLURB HERE ***", body)
    write(path, text)
