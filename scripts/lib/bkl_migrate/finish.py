# SPDX-License-Identifier: GPL-2.0
"""The last steps of a file's conversion: what it did, in the summary's
words, the layout kernel style wants around what the semantic patches
wrote, and the layer's include before its first use."""
import re

from bkl_users.csource import blank

from .csource import add_include
from .style import (
    align_designators, realign_parameters, reflow_parameters, tabify_new_lines,
    tidy_new_lines, wrap_long_heads)

# The generators the summary names, in its order.
GENERATORS = ("DEFINE_BKL_IOCTL", "DEFINE_BKL_COMPAT_IOCTL", "DEFINE_BKL_UNLOCKED_IOCTL",
              "DEFINE_BKL_SHIM_USER", "DEFINE_BKL_USER", "DEFINE_LOCKED_IOCTL",
              "DEFINE_LOCKED_IOCTL_INTERRUPTIBLE", "DEFINE_DRIVER_LOCK_USER")

# What <linux/locked_ioctl.h> gives a driver, by name.
LAYER_NAMES_RE = re.compile(r"\b(?:DEFINE_BKL_\w+|DEFINE_LOCKED_\w+|DEFINE_DRIVER_LOCK_USER|"
                            r"DEFINE_GUARDED_IOCTL\w*|lock_kernel_user|unlock_kernel_user|"
                            r"driver_lock_user\w*|deprecated_(?:compat_)?ioctl)\b")


def generators_added(orig, text):
    """"GEN(names)" for each generator text has for names orig had not."""
    how = []
    for gen in GENERATORS:
        names = re.findall(r"^%s\((\w+)" % gen, text, re.M)
        old = re.findall(r"^%s\((\w+)" % gen, orig, re.M)
        new = [n for n in names if n not in old]
        if new:
            how.append("%s(%s)" % (gen, ", ".join(new)))
    return how


def layout(orig, text, dropped):
    """text with the blank lines, indents, parameter lists and designators
    of what the run wrote in kernel style, and the rest as orig had it
    (dropped: the handlers that lost their inode argument)."""
    # Coccinelle leaves the blank lines around a function it replaced.
    text = re.sub(r"^((?:DEFINE_LOCKED_IOCTL_INTERRUPTIBLE|DEFINE_LOCKED_IOCTL)\([^;]*\);\n)\n\n+",
                  r"\1\n", text, flags=re.M)
    # And a generator right after a function gets the blank line kernel style
    # wants there.
    text = re.sub(r"^}\n(DEFINE_BKL_(?:IOCTL|UNLOCKED_IOCTL|SHIM_USER)\()", r"}\n\n\1", text,
                  flags=re.M)
    text = re.sub(r"^(}[^\n]*)\n(DEFINE_LOCKED_IOCTL(?:_INTERRUPTIBLE)?\((\w+),\s*\3_locked,)",
                  r"\1\n\n\2", text, flags=re.M)
    text = reflow_parameters(text, dropped, aligned_only=False)
    text = tabify_new_lines(orig, text)
    text = tidy_new_lines(orig, text)
    wrapped_inner = r"^DEFINE_(?:BKL_UNLOCKED|LOCKED)_IOCTL\w*\(\w+,\s*%s[,)]"
    renamed = [f for f in re.findall(wrapped_inner % r"(\w+_locked)", text, re.M)
               if not re.search(wrapped_inner % f, orig, re.M)]
    text = wrap_long_heads(realign_parameters(text, renamed), renamed)
    return align_designators(orig, text)


def first_layer_use(text):
    """The offset of the first name of the layer in text's code, or None."""
    m = LAYER_NAMES_RE.search(blank(text))
    return m.start() if m else None


def with_include(text):
    """text with the layer's include before its first use."""
    return add_include(text, before=first_layer_use(text))


def end_as(orig, text):
    """text without the blank lines at its end that orig did not have
    (where a function was last)."""
    if orig.endswith("\n") and not orig.endswith("\n\n"):
        return text.rstrip("\n") + "\n"
    return text
