# SPDX-License-Identifier: GPL-2.0
"""The run's own check of what it wrote: every function it put into a
struct file_operations, declared in a header or exported is defined, and
defined once (twice only in branches of one #if chain that no compilation
takes together): in the file of the operations or, for a function of
external linkage, in exactly one file of the tree.  A lost edit (a
generator that a later write of the same file dropped) or a wrapper defined
twice fails it, and the run is undone."""
import re

from bkl_users.csource import blank
from bkl_users.sources import grep_dir

from .csource import definition_re, head_start
from .preprocessor import Conditionals

# a member of the operations, in either designator form (C99's, or gcc's old
# "field:" that the run may rewrite: a name that was there is not the run's)
OPERATIONS_RE = re.compile(r"(?:\.\s*(?:unlocked_ioctl|compat_ioctl|locked_ioctl)\s*=|"
                           r"^\s*(?:unlocked_ioctl|compat_ioctl|locked_ioctl)\s*:)\s*(\w+)",
                           re.M)
PROTOTYPE_RE = re.compile(r"^[^\n;{}#]*?\b(\w+)\s*\([^;{}]*\)\s*;", re.M)
# the generators that define a function, or a BKL user's record, named by
# their first argument
GENERATOR_RE = re.compile(
    r"^[ \t]*(DEFINE_(?:BKL_IOCTL|BKL_COMPAT_IOCTL|BKL_UNLOCKED_IOCTL|BKL_IOCTL_GLOBAL|"
    r"BKL_IOCTL_EXPORT|BKL_IOCTL_EXPORT_GPL|LOCKED_IOCTL|LOCKED_COMPAT_IOCTL|"
    r"LOCKED_IOCTL_INTERRUPTIBLE|LOCKED_COMPAT_IOCTL_INTERRUPTIBLE|GUARDED_IOCTL|"
    r"BKL_USER|DRIVER_LOCK_USER))\(\s*(\w+)\s*,", re.M)
EXTERNAL_GENERATORS = ("DEFINE_BKL_IOCTL_GLOBAL", "DEFINE_BKL_IOCTL_EXPORT",
                       "DEFINE_BKL_IOCTL_EXPORT_GPL")
# what the shim's operations name: the layer defines them
LAYER = {"deprecated_ioctl", "deprecated_compat_ioctl"}


def definitions(text, name):
    """(offset, external) of each definition of function name in text: a
    function written out, or a generator of the layer."""
    code = blank(text)
    found = []
    for m in definition_re(name).finditer(code):
        at = m.start() + len(m.group(1))
        head = code[head_start(code, at):at]
        found.append((at, "static" not in head.split()))
    for m in GENERATOR_RE.finditer(code):
        if m.group(2) == name:
            found.append((m.start(), m.group(1) in EXTERNAL_GENERATORS))
    return found


def once(text, defs):
    """Whether defs (of definitions()) are one definition: one, or several
    of which no two can be compiled together."""
    if len(defs) < 2:
        return bool(defs)
    cond = Conditionals(text)
    return all(cond.exclusive(a, b) for i, (a, _) in enumerate(defs) for b, _ in defs[i + 1:])


def claims(plan):
    """What the run claims of each file it changes ({path: (old, new)}):
    (kind, path, name) with kind "operations" (the operations name it),
    "declared" (a header declares it), "exported" or "defined" (a generator
    defines it)."""
    out = set()
    for path, (old, new) in plan.items():
        before, after = blank(old), blank(new)
        for name in set(OPERATIONS_RE.findall(after)) - set(OPERATIONS_RE.findall(before)) - LAYER:
            out.add(("operations", path, name))
        if path.endswith(".h"):
            for name in set(PROTOTYPE_RE.findall(after)) - set(PROTOTYPE_RE.findall(before)):
                out.add(("declared", path, name))
        old_gens = set(GENERATOR_RE.findall(before))
        for gen, name in set(GENERATOR_RE.findall(after)) - old_gens:
            out.add(("exported" if gen in EXTERNAL_GENERATORS else "defined", path, name))
    return sorted(out)


def check(tree, plan, read):
    """The problems with what the run wrote ({path: (old, new)}), as lines
    to print; read(path) gives a file's text as the run left it."""
    problems, wanted = [], {}
    for kind, path, name in claims(plan):
        text = read(path)
        defs = definitions(text, name)
        if kind in ("operations", "defined") and defs:
            problem = "%s is defined %d times in %s" % (name, len(defs), path)
            if not once(text, defs) and problem not in problems:
                problems.append(problem)
            continue
        if kind == "defined":
            problems.append("%s, which a generator defines, is not defined in %s" % (name, path))
            continue
        wanted.setdefault(name, []).append((kind, path))
    if not wanted:
        return problems
    pattern = r"(^|[^[:alnum:]_])(%s)([^[:alnum:]_]|$)" % "|".join(sorted(wanted))
    files = set(grep_dir(tree, pattern, ("*.c",))) | {p for p in plan if p.endswith(".c")}
    external = {name: [] for name in wanted}
    for f in sorted(files):
        text = read(f)
        for name in wanted:
            if name in text:
                external[name] += [f for _, ext in definitions(text, name) if ext]
    for name, users in sorted(wanted.items()):
        where = ", ".join("%s in %s" % (kind, path) for kind, path in users)
        if not external[name]:
            problems.append("%s (%s) is defined in no file under %s" % (name, where, tree))
        elif len(external[name]) > 1:
            problems.append("%s (%s) is defined %d times: %s"
                            % (name, where, len(external[name]), ", ".join(external[name])))
    return problems
