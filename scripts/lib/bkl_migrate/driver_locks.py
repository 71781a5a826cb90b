# SPDX-License-Identifier: GPL-2.0
"""Driver mutexes that replaced the BKL: the ioctls that take one, and their
declaration with DEFINE_DRIVER_LOCK_USER() (--annotate-driver-locks)."""
import difflib
import os
import re
import shutil
import tempfile

from bkl_users.api import UNLOCKED_IOCTL_RE
from bkl_users.candidates import pushdown_locks
from bkl_users.csource import blank, functions

from .cocci import DRIVER_ANNOTATE, spatch
from .csource import HAS_LOCK_KERNEL, definition_re, prototype_re, visible_line
from .files import read, write_file
from .preprocessor import Conditionals


# A named mutex taken, as driver_lock_wrapper.cocci wants it.
NAMED_MUTEX_LOCK = re.compile(r"\bmutex_lock(?:_interruptible)?\s*\(\s*&\s*\w+\s*\)")


def ioctl_functions(text):
    """(name, body) of each function of text that operations use as
    .unlocked_ioctl or .compat_ioctl, comments and strings blanked."""
    code = blank(text)
    ioctls = {m.group(1) for m in UNLOCKED_IOCTL_RE.finditer(code)}
    if not ioctls:
        return []
    return [(name, code[start:end]) for name, _, start, end in functions(code)
            if name in ioctls]


def may_wrap(text):
    """Whether driver_lock_wrapper.cocci can match: an ioctl that takes a
    named mutex and drops it."""
    return any(NAMED_MUTEX_LOCK.search(body) and "mutex_unlock" in body
               for _, body in ioctl_functions(text))


def ioctl_locks(text):
    """Whether inline_pushdown.cocci can match: an ioctl that takes the
    BKL itself."""
    return any(HAS_LOCK_KERNEL.search(body) for _, body in ioctl_functions(text))


def file_scope_locks(text):
    """(ioctl, mutex) for each ioctl of text that takes a mutex that the
    file defines at file scope (DEFINE_MUTEX() or a struct mutex)."""
    mutexes = set(re.findall(r"^(?:static\s+)?DEFINE_MUTEX\(\s*(\w+)\s*\)", text, re.M))
    mutexes |= set(re.findall(r"^(?:static\s+)?struct\s+mutex\s+(\w+)\s*;", text, re.M))
    out = []
    for name, body in ioctl_functions(text):
        for lk in sorted(set(re.findall(r"\bmutex_lock(?:_interruptible)?\s*\(\s*&\s*(\w+)\s*\)",
                                        body)) & mutexes):
            out.append((name, "&" + lk))
    return out


def pushdown_mutexes(text):
    """(function, mutex) for each function of text that takes a mutex the way
    the BKL pushdown left one in open(), release() and the ioctls (see
    pushdown_locks() of scripts/bkl-users)."""
    if "DEFINE_MUTEX" not in text:
        return []
    return [(name, lock) for name, _, lock in pushdown_locks(blank(text))]


def declare_users(text, before, entries):
    """Put DEFINE_BKL_USER(u, f) before each function f the annotation pass
    changed (DEFINE_DRIVER_LOCK_USER(u, f, &m) for an entry whose last field
    names a mutex m).  Its lines did not move: the pass only rewrote calls
    in place."""
    lines = text.split("\n")
    if len(lines) != len(before):
        raise RuntimeError("the annotation pass moved lines; declare the BKL users by hand")
    code = blank(text)
    found = {}
    locks = {}
    for _, fn, user, lock in entries:
        if lock != "-":
            locks[(fn, user)] = lock
        # or a function a macro defines (SYSCALL_DEFINE4(ptrace, ...))
        m = definition_re(fn).search(code) or re.search(
            r"^()[A-Z][A-Z0-9_]*\(\s*%s\s*[,)]" % re.escape(fn), code, re.M)
        if not m:
            raise RuntimeError("no definition of %s, whose BKL calls were annotated, found: "
                               "declare it by hand" % fn)
        found[(fn, user)] = (code.count("\n", 0, m.start(1) if m.group(1) else m.start()) + 1,
                             m.end() - 1)
    cond = Conditionals(text)
    for (fn, user), (line, body) in sorted(found.items(), key=lambda e: -e[1][0]):
        start = int(line) - 1
        # Back to the first line of the definition ("static int\nfoo(...)").
        while start > 0:
            prev = lines[start - 1].rstrip()
            if not prev or prev.endswith((";", "}", "*/")) or prev.startswith("#"):
                break
            start -= 1
        # and above a head split by #ifdef, whose body both branches share
        start = visible_line(cond, start, body)
        # and above the comment that describes the function
        if start > 0 and lines[start - 1].rstrip().endswith("*/"):
            top = start - 1
            while top > 0 and "/*" not in lines[top]:
                top -= 1
            if lines[top].lstrip().startswith("/*"):
                start = top
        decl = "DEFINE_BKL_USER(%s, %s);" % (user, fn)
        if (fn, user) in locks:
            decl = "DEFINE_DRIVER_LOCK_USER(%s, %s, &%s);" % (user, fn, locks[(fn, user)])
        if decl not in text:
            lines[start:start] = [decl, ""]
    return "\n".join(lines)


def annotate_driver_locks(path, text, pairs, notes):
    """text with the mutex of each (function, mutex) of pairs taken through
    DEFINE_DRIVER_LOCK_USER() (driver_lock_annotate.cocci), or as it was,
    with a note, when that cannot be done."""
    with tempfile.TemporaryDirectory(prefix="bkl-migrate.") as tmp:
        work = os.path.join(tmp, os.path.basename(path))
        log = os.path.join(tmp, "log")
        shutil.copyfile(path, work)
        write_file(work, text)
        open(log, "w").close()
        try:
            spatch(DRIVER_ANNOTATE, work, ["patch"], log, {
                "BKL_MIGRATE_DRIVER_LOCKS": " ".join("%s:%s" % p for p in pairs)})
            with open(log) as f:
                entries = [e.split() for e in f.read().splitlines()]
            return declare_users(read(work), text.split("\n"), entries)
        except RuntimeError as e:
            notes.append("note: the driver mutexes of %s could not be declared (%s)"
                         % (", ".join(fn for fn, _ in pairs), str(e)[:160]))
            return text


def restore_prototypes(before, after):
    """Coccinelle deletes a function's prototypes along with the function.
    A wrapper that DEFINE_LOCKED_IOCTL() now defines in its place still
    needs its prototype where the operations that name it come first: put
    each deleted prototype of a converted wrapper back where it was."""
    names = set(re.findall(r"^DEFINE_LOCKED_IOCTL(?:_INTERRUPTIBLE)?\((\w+),", after, re.M))
    names -= set(re.findall(r"^DEFINE_LOCKED_IOCTL(?:_INTERRUPTIBLE)?\((\w+),", before, re.M))
    if not names:
        return after
    proto = prototype_re(sorted(names))
    old, new = before.split("\n"), after.split("\n")
    inserts = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, _ in matcher.get_opcodes():
        chunk = "\n".join(old[i1:i2])
        if tag == "delete" and proto.search(chunk):
            # the prototype with its comment and blank lines, as they were
            inserts.append((j1, old[i1:i2]))
        elif tag == "replace":
            for m in proto.finditer(chunk):
                inserts.append((j1, m.group(0).split("\n")))
    for j, lines in sorted(inserts, key=lambda x: -x[0]):
        new[j:j] = lines
    return "\n".join(new)


def keep_wrapper_prototypes(before, after):
    """driver_lock_inline.cocci renames an ioctl fn to fn_locked, its
    prototypes too; but the operations name fn, which
    DEFINE_LOCKED_IOCTL*(fn, fn_locked, ...) now defines after fn_locked:
    a prototype that came before keeps declaring fn."""
    for fn in re.findall(r"^DEFINE_LOCKED_IOCTL(?:_INTERRUPTIBLE)?\((\w+),\s*\1_locked,",
                         after, re.M):
        if re.search(r"^DEFINE_LOCKED_IOCTL(?:_INTERRUPTIBLE)?\(%s," % re.escape(fn), before,
                     re.M):
            continue
        for m in reversed(list(prototype_re([fn + "_locked"]).finditer(blank(after)))):
            decl = after[m.start():m.end()]
            after = after[:m.start()] + decl.replace(fn + "_locked", fn, 1) + after[m.end():]
    # a comment after the function's closing brace stays there, not after
    # the generator that Coccinelle put behind the brace
    after = re.sub(r"^}\n(DEFINE_LOCKED_IOCTL(?:_INTERRUPTIBLE)?\((\w+),\s*\2_locked,[^;]*\);)"
                   r"([ \t]*/\*[^\n]*\*/)$", r"}\3\n\1", after, flags=re.M)
    return after
