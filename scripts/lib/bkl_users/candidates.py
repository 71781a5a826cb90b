# SPDX-License-Identifier: GPL-2.0
"""Code worth a look: an ioctl that holds one global mutex around its
whole body, and a mutex that the 2010 BKL pushdown left in the
operations."""
import re

from .api import DEFINE_MUTEX_ANY_RE, DEFINE_MUTEX_RE, ENTRY_RE, GENERATORS, UNLOCKED_IOCTL_RE
from .csource import functions, mutex_calls, word_at, word_offsets


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


STRUCT_MUTEX_RE = re.compile(r"struct\s+mutex\s+(\w+)\s*;")


def at_line_start(code, start):
    """Are there only blanks between the start of its line and start?"""
    return not code[code.rfind("\n", 0, start) + 1:start].strip(" \t")


def file_scope_struct_mutexes(code):
    """The names of "[static] struct mutex name;" at the start of a line (a
    file-scope definition, as kernel style indents the members of a struct).
    Found by the literal "struct", the start of the line checked backwards:
    faster than a pattern tried at the start of every line."""
    names = set()
    for m in STRUCT_MUTEX_RE.finditer(code):
        start = m.start()
        if not at_line_start(code, start):
            i = start
            while i > 0 and code[i - 1].isspace():
                i -= 1
            if i == start or i < 6 or code[i - 6:i] != "static" or \
               not at_line_start(code, i - 6):
                continue
        names.add(m.group(1))
    return names


def functions_of(code, funcs):
    """functions(code), given as its result, or as a function that makes it
    when first needed (most files return before they need it), or not."""
    if funcs is None:
        return functions(code)
    return funcs() if callable(funcs) else funcs


def candidates(code, funcs=None):
    """(function, offset of its name, "&lock") of every ioctl in blanked code
    that holds one global mutex from its start to its return."""
    ioctls = {m.group(1) for m in UNLOCKED_IOCTL_RE.finditer(code)}
    if not ioctls:
        return []
    global_mutexes = {m.group(1) for m in DEFINE_MUTEX_ANY_RE.finditer(code)
                      if word_at(code, m)}
    global_mutexes |= file_scope_struct_mutexes(code)
    if not global_mutexes:
        return []
    found = []
    for name, at, start, end in functions_of(code, funcs):
        if name in ioctls:
            lock = whole_body_lock(code[start + 1:end], global_mutexes)
            if lock:
                found.append((name, at, "&" + lock))
    return found


# A line that defines a mutex, or a generator's user
DEFINITION_RE = re.compile(r"^[ \t]*(?:static\s+)?(?:DEFINE_MUTEX|%s)\s*\("
                           % "|".join(GENERATORS), re.M)


# The name of a function called
CALL_RE = re.compile(r"\b(\w+)\s*\(")


def pushdown_locks(code, funcs=None):
    """(function, offset of its name, "&lock") for each function of blanked
    code that takes a mutex as the BKL pushdown left one: a file-scope
    DEFINE_MUTEX() that only the file's operations (open, release, the
    ioctls) and the functions of the file they call take and drop, each
    with mutex_lock() or mutex_lock_interruptible() and mutex_unlock() in
    the same function, and that no other code names.  A mutex that probe()
    or a registration function takes too, or that is tried, is the
    driver's own design, not the BKL's place."""
    mutexes = set(DEFINE_MUTEX_RE.findall(code)) if "DEFINE_MUTEX" in code else None
    if not mutexes:
        return []
    funcs = functions_of(code, funcs)
    bodies = {}
    for name, _, start, end in funcs:
        bodies.setdefault(name, []).append((start, end))
    entry = {m.group(1) for m in ENTRY_RE.finditer(code)} & set(bodies)
    scope = set(entry)
    for fn in entry:
        for start, end in bodies[fn]:
            scope |= set(CALL_RE.findall(code, start, end)) & set(bodies)
    spans = [(start, end) for fn in scope for start, end in bodies[fn]]
    found, calls_of = [], None
    for lk in sorted(mutexes):
        # every mention in a function of the scope, or a definition
        ok = True
        for at in word_offsets(code, lk):
            if any(s <= at < e for s, e in spans):
                continue
            line = code.rfind("\n", 0, at) + 1
            if not DEFINITION_RE.match(code, line):
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
