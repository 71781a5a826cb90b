# SPDX-License-Identifier: GPL-2.0
"""A wrapper's inner function that is only a shell: it calls one function
and returns what that returns.  When the call passes the wrapper's own
arguments on (the unlocked_ioctl signature), or an inode, the file, the
command and the argument or compat_ptr() of it (the old .ioctl signature),
the layer has a generator for that very call: it names the callee, and the
shell goes."""
import re

from bkl_users.csource import blank, split_args, stringify

from .csource import closing_brace, definition_re, head_start, prototype_re

# What a shell passes for an old handler's inode argument.  NULL too: the
# generator passes file_inode(file), what the VFS gave .ioctl (a handler
# that used a NULL inode would have oopsed).
INODE_ARG = (r"(?:NULL|0|file_inode\(\s*{f}\s*\)|{f}\s*->\s*f_path\s*\.\s*dentry\s*->\s*d_inode|"
             r"{f}\s*->\s*f_dentry\s*->\s*d_inode|file_dentry\(\s*{f}\s*\)\s*->\s*d_inode)")
# compat_ptr() of the argument, cast back or not
COMPAT_ARG = r"(?:\(\s*unsigned\s+long\s*\)\s*)?compat_ptr\(\s*{a}\s*\)"
CALL_RE = re.compile(r"(?:[\w\s*]+\s(\w+)\s*;\s*\1\s*=|[\w\s*]+\s(\w+)\s*=|return)\s*(\w+)\s*\(")


def parameters(head):
    """The names of the parameters of a function head "...(params) {"."""
    m = re.search(r"\(([^;{}]*)\)\s*\{$", head)
    names = []
    for p in (m.group(1).split(",") if m else []):
        w = re.search(r"(\w+)\s*(?:\[[^]]*\])?\s*$", p)
        names.append(w.group(1) if w else "")
    return names


def one_call(code, d):
    """(callee, [arguments]) when the body of definition d (a definition_re
    match in blanked code) is one call whose value it returns: "return
    f(...);", "T v; v = f(...); return v;" or "T v = f(...); return v;"."""
    end = closing_brace(code, d.end() - 1)
    if end is None:
        return None
    body = " ".join(code[d.end():end].split())
    m = CALL_RE.match(body)
    if not m:
        return None
    args, after = split_args(body, m.end() - 1)
    if args is None:
        return None
    rest = body[after:].strip()
    var = m.group(1) or m.group(2)
    if not re.fullmatch(r";\s*return\s+%s\s*;" % re.escape(var) if var else ";", rest):
        return None
    return m.group(3), [stringify(a) for a in args]


def old_handler(code, fn):
    """Whether fn, as defined or declared in code, takes an inode first."""
    m = definition_re(fn).search(code) or prototype_re([fn]).search(code)
    if not m:
        return False
    params = re.search(r"%s\s*\(([^;{}]*?)\)" % re.escape(fn), m.group(0))
    return bool(params) and "inode" in params.group(1).split(",")[0]


def shell_generator(code, name, d):
    """The generator line that defines name to do what the function of
    definition d does, when that is one call the layer has a generator
    for; else None."""
    params = parameters(d.group(0))
    call = one_call(code, d)
    if len(params) != 3 or not call:
        return None
    callee, args = call
    f, c, a = (re.escape(p) for p in params)
    if args == params:
        return "DEFINE_BKL_UNLOCKED_IOCTL(%s, %s);" % (name, callee)
    if len(args) != 4 or args[1] != params[0] or args[2] != params[1] or \
       not re.fullmatch(INODE_ARG.format(f=f), args[0]) or not old_handler(code, callee):
        return None
    if args[3] == params[2]:
        return "DEFINE_BKL_IOCTL(%s, %s);" % (name, callee)
    if re.fullmatch(COMPAT_ARG.format(a=a), args[3]):
        return "DEFINE_BKL_COMPAT_IOCTL(%s, %s);" % (name, callee)
    return None


def drop_shells(locked, text):
    """Where a pass left fn_locked, wrapped by DEFINE_BKL_UNLOCKED_IOCTL(fn,
    fn_locked), a shell of one call the layer has a generator for
    ("ret = callee(file, cmd, arg); return ret;": ppdev's pp_ioctl), that
    generator names the callee and fn_locked goes.  Only functions the
    pass made (absent from locked)."""
    for m in re.finditer(r"^DEFINE_BKL_UNLOCKED_IOCTL\((\w+), (\w+_locked)\);\n", text, re.M):
        inner = m.group(2)
        if re.search(r"\b%s\b" % inner, locked):
            continue
        code = blank(text)
        d = definition_re(inner).search(code)
        if not d or code.count(inner) != 2:
            continue
        gen = shell_generator(code, m.group(1), d)
        if not gen:
            continue
        start = head_start(code, d.start() + len(d.group(1)))
        at = text.index(m.group(0), d.end())
        return drop_shells(locked, text[:start] + gen + "\n" + text[at + len(m.group(0)):])
    return text
