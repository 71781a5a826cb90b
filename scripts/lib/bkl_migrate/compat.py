# SPDX-License-Identifier: GPL-2.0
"""A compat entry point that calls the old handler the native one now runs
under the BKL.  Before the pushdown the VFS called .compat_ioctl without the
BKL and .ioctl with it, so a compat handler that calls the .ioctl handler
directly ran it unserialised against native callers.  The pushdown gives
both paths one lock: the compat handler becomes name_locked, wrapped by
DEFINE_BKL_UNLOCKED_IOCTL(name, name_locked), or, where it only passes its
arguments on (an inode or NULL, the file, the command, the argument or
compat_ptr() of it), the layer's generator for that call:
DEFINE_BKL_IOCTL(), DEFINE_BKL_COMPAT_IOCTL() or DEFINE_BKL_UNLOCKED_IOCTL()
of the handler, under the compat handler's name.  One that takes the BKL
itself is the inline pass's (inline_pushdown.cocci)."""
import re

from bkl_users.csource import blank

from .csource import HAS_LOCK_KERNEL, closing_brace, definition_re, insert_after_definition
from .shells import drop_shells


def wrap_compat(text, name, handlers):
    """text with compat handler name under the BKL, if it calls one of
    handlers (the old handlers that now run under the BKL natively) and
    does not take the BKL itself: (text, the generator that now defines
    name), or (text, None) when it is left as it is."""
    code = blank(text)
    m = definition_re(name).search(code)
    end = closing_brace(code, m.end() - 1) if m else None
    if end is None:
        return text, None
    body = code[m.end():end]
    locked = name + "_locked"
    if HAS_LOCK_KERNEL.search(body) or re.search(r"\b%s\b" % re.escape(locked), code) or \
       not any(re.search(r"\b%s\s*\(" % re.escape(h), body) for h in handlers):
        return text, None
    at = m.start() + len(m.group(1))
    new = text[:at] + locked + text[at + len(name):]
    new = insert_after_definition(new, locked, "DEFINE_BKL_UNLOCKED_IOCTL(%s, %s);"
                                  % (name, locked))
    new = drop_shells(text, new)
    gen = re.search(r"^(DEFINE_BKL_\w+)\(%s," % re.escape(name), new, re.M)
    return new, gen.group(1)
