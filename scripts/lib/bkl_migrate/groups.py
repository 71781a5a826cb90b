# SPDX-License-Identifier: GPL-2.0
"""Changes that span files: a handler that several files' operations share
(converted where it is defined, declared in its headers), the prototypes
of a handler that lost its inode argument, and HAVE_UNLOCKED_IOCTL and
HAVE_COMPAT_IOCTL defined again in every file that tests them once one
file of the run needs them (versions.py)."""
import os
import re
import subprocess

from bkl_users.csource import blank

from . import versions
from .convert import Converted
from .csource import definition_re, insert_after_export, prototypes, wrapper_prototype
from .finish import with_include
from .files import canonical, read
from .preprocessor import Conditionals
from .style import reflow_parameters


def current(results, path):
    """The text of path as this run has made it so far."""
    r = results.get(path)
    return r.text if isinstance(r, Converted) else read(path)


def grep_files(tree, names, exts):
    """The files under tree with one of exts whose text has one of names as
    a word."""
    cmd = ["grep", "-rlwE", "-e", "|".join(names)]
    cmd += ["--include=*" + e for e in exts] + [tree]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, errors="surrogateescape",
                         check=False).stdout
    return sorted(set(canonical(line) for line in out.splitlines()))


def in_scope(path, paths):
    """Whether path is one of paths or under one of them."""
    path = os.path.realpath(path)
    for p in paths:
        p = os.path.realpath(p)
        if path == p or path.startswith(p.rstrip(os.sep) + os.sep):
            return True
    return False


def record_change(results, path, text, how):
    """Make text the new text of path in results, done as how: on top of
    what the file's own conversion did, or as its only change."""
    r = results.get(path)
    if isinstance(r, Converted):
        r.text = text
        r.how.append(how)
    else:
        results[path] = Converted(text, [how], [])


def resolve_groups(results, tree, paths, shim):
    """Convert each handler that the operations of other files name (pass 1
    left them pointing at its wrapper) once, in the file that defines it:
    DEFINE_BKL_IOCTL_GLOBAL() after the handler (DEFINE_BKL_IOCTL_EXPORT[_GPL]()
    where the handler is exported), and its prototype beside the handler's in
    the headers that declare it
    (with --shim, DEFINE_BKL_SHIM_USER() there and no prototype).  A group
    (that file, the headers, the files of the operations) is converted
    together or not at all.  Returns {handler: [the group's files]}."""
    pending = {}
    for f, r in results.items():
        if isinstance(r, Converted):
            for h, w in r.external:
                pending.setdefault(h, (w, set()))[1].add(f)
    groups = {}
    if not pending:
        return groups
    hits = grep_files(tree, sorted(pending), (".c", ".h"))
    for h, (w, users) in sorted(pending.items()):
        try:
            d = defining_file(results, tree, paths, hits, h)
            if shim:
                update, how = shim_user(results, d, h)
            else:
                update, how = global_wrapper(results, tree, hits, d, h, w)
        except RuntimeError as e:
            for f in users:
                results[f] = RuntimeError("a group: %s" % e)
            continue
        where = "%s in %s" % (how, os.path.relpath(d, tree))
        for f in users:
            results[f].how.append("%s, %s" % ("deprecated_ioctl" if shim else w, where))
        for path, (text, how) in update.items():
            record_change(results, path, text, how)
        groups[h] = sorted(set(users) | set(update))
    return groups


def defining_file(results, tree, paths, hits, h):
    """The one file among hits (the files that name h) that defines h with
    external linkage, among the paths given and convertible; raises if
    there is not exactly one such."""
    defs = [p for p in hits if p.endswith(".c") and any(
        "static" not in m.group(1).split()
        for m in definition_re(h).finditer(blank(current(results, p))))]
    if not defs:
        raise RuntimeError("%s is defined in no file under %s: convert it by hand" % (h, tree))
    if len(defs) > 1:
        raise RuntimeError("%s is defined in %d files (%s): convert it by hand" % (
            h, len(defs), ", ".join(os.path.relpath(d, tree) for d in defs)))
    d = defs[0]
    if not in_scope(d, paths):
        raise RuntimeError("%s is defined in %s, which is not among the paths given: "
                           "add it to convert %s and its users together"
                           % (h, os.path.relpath(d, tree), h))
    if isinstance(results.get(d), Exception):
        raise RuntimeError("%s is defined in %s, which could not be converted"
                           % (h, os.path.relpath(d, tree)))
    return d


def shim_user(results, d, h):
    """--shim: DEFINE_BKL_SHIM_USER(h) after h in d: ({d: (text, how)}, how)."""
    text = current(results, d)
    lines = "DEFINE_BKL_SHIM_USER(%s);" % h
    if lines not in text:
        text = insert_after_export(text, h, lines)
    how = "DEFINE_BKL_SHIM_USER(%s)" % h
    return {d: (with_include(text), how)}, how


def global_wrapper(results, tree, hits, d, h, w):
    """The wrapper w of h, exported as h is, after h in d, and declared in
    the headers among hits that declare h: ({path: (text, how)}, how)."""
    text = current(results, d)
    if re.search(r"^DEFINE_BKL_UNLOCKED_IOCTL\(%s," % w, text, re.M):
        raise RuntimeError("%s loses its inode argument in %s, which its users elsewhere do "
                           "not see: convert it by hand" % (h, os.path.relpath(d, tree)))
    # exported as the handler is
    exp = re.search(r"^EXPORT_SYMBOL(_GPL)?\(\s*%s\s*\);" % h, text, re.M)
    gen = "DEFINE_BKL_IOCTL_" + ("GLOBAL" if not exp else "EXPORT" + (exp.group(1) or ""))
    lines = "%s(%s, %s);" % (gen, w, h)
    static = "DEFINE_BKL_IOCTL(%s, %s);" % (w, h)
    if static in text:
        text = text.replace(static, lines)
    elif lines not in text:
        text = insert_after_export(text, h, lines)
    how = "%s(%s)" % (gen, w)
    headers = [p for p in hits if p.endswith(".h") and prototypes(current(results, p), h)]
    if not headers:
        raise RuntimeError("no header under %s declares %s, so the files that use it cannot "
                           "see %s: convert it by hand" % (tree, h, w))
    update = {}
    decl = wrapper_prototype(w, "")
    for hdr in headers:
        htext = current(results, hdr)
        if decl in htext:
            continue
        m = prototypes(htext, h)[0]
        end = m.end() + (htext[m.end():m.end() + 1] == "\n")
        update[hdr] = (htext[:end] + decl + "\n" + htext[end:], "prototype of %s" % w)
    update[d] = (with_include(text), how)
    return update, how


def drop_inode(text, fn):
    """text with the inode argument gone from each prototype of fn that has
    it, and int become long, as pass 1 changed fn itself."""
    out, last = [], 0
    for m in prototypes(text, fn):
        proto = text[m.start():m.end()]
        n = re.match(r"(?s)(.*?)\bint(\s+\**\s*)(%s\s*\(\s*)struct\s+inode\s*\*\s*\w*\s*,\s*"
                     % re.escape(fn), proto)
        if n:
            # no space before the parenthesis in the line it rewrites
            head = re.sub(r"^(\w+)\s+\(", r"\1(", n.group(3))
            out.append(text[last:m.start()] + n.group(1) + "long" + n.group(2) + head +
                       proto[n.end():])
            last = m.end()
    return "".join(out) + text[last:]


def resolve_dropped(results, files):
    """A handler that lost its inode argument keeps its prototypes in the
    file's own headers (#include "x.h" beside it) and in the headers among
    the paths given in step: change those too, or fail the file.  Returns
    {file: [it and the headers changed for it]}."""
    given = [f for f in files if f.endswith(".h")]
    groups = {}
    for f, r in sorted(results.items()):
        if not isinstance(r, Converted) or not r.dropped:
            continue
        here = os.path.dirname(f)
        headers = [os.path.normpath(os.path.join(here, inc)) for inc in
                   re.findall(r'^#\s*include\s+"([^"]+\.h)"', r.text, re.M)]
        headers = [h for h in headers if os.path.isfile(h)] + given
        changes = {}
        for hdr in dict.fromkeys(headers):
            text = changes.get(hdr, current(results, hdr))
            for fn in r.dropped:
                text = reflow_parameters(drop_inode(text, fn), [fn], aligned_only=False)
            left = [fn for fn in r.dropped for m in prototypes(text, fn) if "inode" in m.group(0)]
            if left:
                results[f] = RuntimeError("%s keeps its inode argument in a prototype in %s"
                                          ": convert it by hand" % (left[0], hdr))
                changes = None
                break
            if text != current(results, hdr):
                changes[hdr] = text
        if changes:
            groups[f] = sorted([f] + list(changes))
        for hdr, text in (changes or {}).items():
            record_change(results, hdr, text,
                          "prototype of %s without its inode" % ", ".join(r.dropped))
    return groups


def resolve_restores(results, paths):
    """Once one file of the run has HAVE_UNLOCKED_IOCTL or HAVE_COMPAT_IOCTL
    defined again, every C file or header among paths that tests that macro
    and does not define it gets it too: a driver's files must agree on
    them (comedi's compat32.c defines comedi_compat_ioctl() under
    HAVE_COMPAT_IOCTL for comedi_fops.c's operations).  Returns
    {file: [file]} for each file changed so."""
    macros = [m for m in versions.MACROS if any(
        isinstance(r, Converted) and m in r.restored for r in results.values())]
    if not macros:
        return {}
    files = set()
    for p in paths:
        if os.path.isdir(p):
            files |= set(grep_files(p, macros, (".c", ".h")))
        elif p.endswith((".c", ".h")):
            files.add(canonical(p))
    changed = {}
    for f in sorted(files):
        if isinstance(results.get(f), Exception):
            continue
        text = current(results, f)
        cond = Conditionals(text)
        need = [m for m in macros if cond.tests(m) and m not in cond.defines]
        if not need:
            continue
        try:
            new = versions.restore_macros(text, need)
        except RuntimeError as e:
            results[f] = RuntimeError("%s is needed here too, as in the other files of the "
                                      "run: %s" % (" and ".join(need), e))
            continue
        record_change(results, f, new,
                      versions.restored_how(need) + " (as the other files of the run)")
        results[f].restored += need
        changed[f] = [f]
    return changed
