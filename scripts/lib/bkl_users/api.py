# SPDX-License-Identifier: GPL-2.0
"""The locked-ioctl layer as it appears in C source: its generators, the
BKL calls that are not annotated, the file_operations members."""
import re


BKL_KINDS = ("bkl-ioctl", "bkl-shim", "bkl-direct", "unannotated")


# The layer itself: its definitions and its own lock_kernel() calls are not
# users.  Paths relative to the tree.
LAYER_FILES = {
    "include/linux/smp_lock.h", "include/linux/locked_ioctl.h",
    "include/linux/bkl_user.h", "include/linux/locked_ioctl_hooks.h",
    "include/trace/events/bkl.h",
    "lib/kernel_lock.c", "lib/deprecated_ioctl.c", "lib/locked_ioctl.c",
    "lib/bkl_users.c",
}


# generator -> (kind, index of the handler argument, how to make the lock)
GENERATORS = {
    "DEFINE_BKL_IOCTL": ("bkl-ioctl", 1, None),
    "DEFINE_BKL_COMPAT_IOCTL": ("bkl-ioctl", 1, None),
    "DEFINE_BKL_UNLOCKED_IOCTL": ("bkl-ioctl", 1, None),
    "DEFINE_BKL_IOCTL_GLOBAL": ("bkl-ioctl", 1, None),
    "DEFINE_BKL_IOCTL_EXPORT": ("bkl-ioctl", 1, None),
    "DEFINE_BKL_IOCTL_EXPORT_GPL": ("bkl-ioctl", 1, None),
    "DEFINE_LOCKED_IOCTL": ("replacement", 1, 2),
    "DEFINE_LOCKED_COMPAT_IOCTL": ("replacement", 1, 2),
    "DEFINE_LOCKED_IOCTL_INTERRUPTIBLE": ("replacement", 1, 2),
    "DEFINE_LOCKED_COMPAT_IOCTL_INTERRUPTIBLE": ("replacement", 1, 2),
    "DEFINE_GUARDED_IOCTL": ("replacement", 1, "guard"),
    "DEFINE_BKL_USER": ("bkl-direct", 1, None),
    "DEFINE_BKL_SHIM_USER": ("bkl-shim", 0, None),
    "DEFINE_DRIVER_LOCK_USER": ("replacement", 1, 2),
}


GENERATOR_RE = re.compile(r"(DEFINE_(?:" + "|".join(g[len("DEFINE_"):] for g in GENERATORS)
                          + r"))\s*\(")


# Unannotated BKL calls.  scan_file() looks for the words first: the pattern
# begins with \b, which costs a try at every position of a file without them.
UNANNOTATED_CALLS = ("lock_kernel", "lock_kernel_interruptible", "cycle_kernel_lock")


UNANNOTATED_RE = re.compile(r"\b(" + "|".join(UNANNOTATED_CALLS) + r")\s*\(\s*\)")


LOCKED_IOCTL_RE = re.compile(r"\.\s*locked_ioctl\s*=\s*(\w+)")


UNLOCKED_IOCTL_RE = re.compile(r"\.\s*(?:unlocked|compat)_ioctl\s*=\s*(\w+)")


# What a file that uses the BKL or the layer must contain: words, which
# Python finds with "in" many times faster than an alternation of them.
USES_WORDS = ("DEFINE_BKL_", "DEFINE_LOCKED_", "DEFINE_GUARDED_", "DEFINE_DRIVER_LOCK_",
              "lock_kernel", "cycle_kernel_lock", "locked_ioctl", "unlocked_ioctl")


# What grep lets through: those words ("locked_ioctl" finds "unlocked_ioctl"
# too) and DEFINE_MUTEX, for the candidates (scan_file() sorts them out).
# grep finds fixed strings faster than an alternation (by a third, over a
# whole tree); PREFILTER is the same as an extended regular expression.
PREFILTER_WORDS = tuple(w for w in USES_WORDS if w != "unlocked_ioctl") + ("DEFINE_MUTEX",)


PREFILTER = "|".join(PREFILTER_WORDS)


# The operations the BKL serialised, which its 2010 pushdown gave a file-scope
# mutex: open, release and the ioctls, of files and of block devices.
ENTRY_RE = re.compile(r"\.\s*(?:unlocked_ioctl|compat_ioctl|ioctl|open|release)\s*=\s*(\w+)")


DEFINE_MUTEX_ANY_RE = re.compile(r"DEFINE_MUTEX\s*\(\s*(\w+)\s*\)")


DEFINE_MUTEX_RE = re.compile(r"^(?:static\s+)?DEFINE_MUTEX\(\s*(\w+)\s*\)", re.M)


FIELDS = ("kind", "name", "file", "line", "handler", "lock")
