# SPDX-License-Identifier: GPL-2.0
"""Code worth a look: an ioctl that holds one global mutex around its
whole body, and a mutex that the 2010 BKL pushdown left in the
operations."""
import re

from .api import DEFINE_MUTEX_ANY_RE, DEFINE_MUTEX_RE, ENTRY_RE, GENERATORS, UNLOCKED_IOCTL_RE
from .csource import functions, mutex_calls, word_at


LOCK_CALL = r"mutex_lock(?:_interruptible|_killable)?\s*\(\s*&\s*(\w+)\s*\)"


def whole_body_lock(body, global_mutexes):
    """The global mutex an ioctl body holds from its start to its return."""
    m = re.search(LOCK_CALL, body)
    if not m or m.group(1) not in global_mutexes:
        return None
    # Only declarations before the lock; "if (mutex_lock_interruptible(...))"
    # is the lock itself.
    before = re.sub(r"\bif\s*\(\s*$", "", body[:m.start()])
    if re.search(r"\b(if|for|while|switch|return|goto)\b", before):
        return None
    name = m.group(1)
    if len(re.findall(LOCK_CALL.replace(r"(\w+)", re.escape(name)), body)) != 1:
        return None
    unlocks = [u for u in re.finditer(r"mutex_unlock\s*\(\s*&\s*" + re.escape(name)
                                      + r"\s*\)\s*;", body)]
    if len(unlocks) != 1:
        return None
    tail = body[unlocks[0].end():].strip().rstrip("}").strip()
    if not re.fullmatch(r"(return\b[^;]*;)?", tail):
        return None
    return name


def candidates(code, funcs=None):
    """(function, offset of its name, "&lock") of every ioctl in blanked code
    that holds one global mutex from its start to its return."""
    ioctls = {m.group(1) for m in UNLOCKED_IOCTL_RE.finditer(code)}
    if not ioctls:
        return []
    global_mutexes = {m.group(1) for m in DEFINE_MUTEX_ANY_RE.finditer(code)
                      if word_at(code, m)}
    # [ \t]*, not \s*: that would try every blank line before every line
    global_mutexes |= set(re.findall(r"^[ \t]*(?:static\s+)?struct\s+mutex\s+(\w+)\s*;",
                                     code, re.M))
    if not global_mutexes:
        return []
    found = []
    for name, at, start, end in (funcs if funcs is not None else functions(code)):
        if name in ioctls:
            lock = whole_body_lock(code[start + 1:end], global_mutexes)
            if lock:
                found.append((name, at, "&" + lock))
    return found


def pushdown_locks(code, funcs=None):
    """(function, offset of its name, "&lock") for each function of blanked
    code that takes a mutex as the BKL pushdown left one: a file-scope
    DEFINE_MUTEX() that only the file's operations (open, release, the
    ioctls) and the functions of the file they call take and drop, each
    with mutex_lock() or mutex_lock_interruptible() and mutex_unlock() in
    the same function, and that no other code names.  A mutex that probe()
    or a registration function takes too, or that is tried, is the
    driver's own design, not the BKL's place."""
    mutexes = set(DEFINE_MUTEX_RE.findall(code))
    if not mutexes:
        return []
    funcs = funcs if funcs is not None else functions(code)
    bodies = {}
    for name, _, start, end in funcs:
        bodies.setdefault(name, []).append((start, end))
    entry = {m.group(1) for m in ENTRY_RE.finditer(code)} & set(bodies)
    scope = set(entry)
    for fn in entry:
        for start, end in bodies[fn]:
            scope |= set(re.findall(r"\b(\w+)\s*\(", code[start:end])) & set(bodies)
    spans = [(start, end) for fn in scope for start, end in bodies[fn]]
    generators = re.compile(r"^[ \t]*(?:static\s+)?(?:DEFINE_MUTEX|%s)\s*\("
                            % "|".join(GENERATORS), re.M)
    found, calls_of = [], None
    for lk in sorted(mutexes):
        # every mention in a function of the scope, or a definition
        ok = True
        for m in re.finditer(r"%s\b" % re.escape(lk), code):
            if not word_at(code, m) or any(s <= m.start() < e for s, e in spans):
                continue
            line = code.rfind("\n", 0, m.start()) + 1
            if not generators.match(code, line):
                ok = False
                break
        if not ok:
            continue
        takers = []
        if calls_of is None:
            calls_of = [mutex_calls(code, start, end) for _, _, start, end in funcs]
        for (name, at, start, end), fcalls in zip(funcs, calls_of):
            calls = {c for c, l in fcalls if l == lk}
            if not calls:
                continue
            if not calls <= {"mutex_lock", "mutex_lock_interruptible", "mutex_unlock"} or \
               "mutex_unlock" not in calls or len(calls) < 2:
                ok = False
                break
            takers.append((name, at))
        if ok:
            found += [(name, at, "&" + lk) for name, at in takers]
    return sorted(found, key=lambda f: f[1])
