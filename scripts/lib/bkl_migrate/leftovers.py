# SPDX-License-Identifier: GPL-2.0
"""What the conversion of a file left, said: compat entry points without
the lock their native one now takes, old .ioctl designators, and the ioctls
that take a driver mutex no rule took (with --annotate-driver-locks,
declared where they are taken)."""
import re

from bkl_users.candidates import candidates
from bkl_users.csource import blank

from .csource import ioctls_left
from .driver_locks import annotate_driver_locks, file_scope_locks, pushdown_mutexes


def compat_notes(text, compat):
    """A note for each compat entry point ((operations, function) of compat)
    beside a native one that now takes the BKL, and does not."""
    return ["note: %s.compat_ioctl = %s does not take the BKL that .unlocked_ioctl now "
            "takes: wrap it with DEFINE_BKL_UNLOCKED_IOCTL() or give both one lock" % (a, b)
            for a, b in compat if b != "deprecated_compat_ioctl" and not re.search(
                r"^DEFINE_BKL_\w*IOCTL\(\s*%s\s*," % re.escape(b), text, re.M)]


def ioctl_notes(text):
    """Whatever the reason, an old .ioctl that is left is said (not those
    that versions.prepare() hid: today's kernels do not build them)."""
    return ["left: an old .ioctl = %s is not converted: convert it by hand" % fn
            for fn in ioctls_left(text)]


def driver_lock_notes(path, text, driver_locks, notes):
    """text with, under --annotate-driver-locks (driver_locks), the
    file-scope mutexes that no wrapper took declared where they are taken;
    and the notes on every such mutex left as it is, appended to notes."""
    # (the annotation leaves the candidates of scripts/bkl-users alone)
    whole_locks = candidates(blank(text))
    whole = {name for name, _, _ in whole_locks}
    if driver_locks:
        pairs = [(fn, lk[1:]) for fn, lk in file_scope_locks(text) + pushdown_mutexes(text)
                 if fn not in whole]
        if pairs:
            text = annotate_driver_locks(path, text, sorted(set(pairs)), notes)
    # Candidates of scripts/bkl-users that the wrapper rule did not take.
    for name, _, lock in whole_locks:
        notes.append("skipped: %s holds %s around its whole body, but not as one call "
                     "with the ioctl's own arguments: convert it by hand" % (name, lock))
    # An ioctl that takes a file-scope mutex the rules did not take.
    held = file_scope_locks(text)
    for name, lock in held:
        if name not in whole:
            notes.append("skipped: %s takes the file-scope mutex %s, but not from its start "
                         "to every return with only declarations or a debug print before: "
                         "what it does first would move under the lock; left as it is"
                         % (name, lock))
    # open(), release() or an ioctl's helper that takes a mutex the pushdown
    # left there (the ioctls themselves are said above).
    ioctls = {name for name, _ in held}
    for name, lock in pushdown_mutexes(text):
        if name not in whole and name not in ioctls:
            notes.append("skipped: %s takes %s, a file-scope mutex that only the file's "
                         "operations take, as the BKL pushdown left it: "
                         "--annotate-driver-locks declares it" % (name, lock))
    return text
