# SPDX-License-Identifier: GPL-2.0
"""The conversion of one file: what its preprocessor tests mean for each
kernel (versions.py), each semantic patch where its pattern can be (the
pushdown of old handlers, the driver-mutex wrappers, the BKL taken inline,
its annotation), the notes on what was left, the layout and the include;
then the run's own check that no kernel lost an entry point."""
import os
import shutil
import tempfile

from . import entrypoints, versions
from .cocci import DRIVER_INLINE, INLINE, WRAPPER, Annotation, annotate, spatch
from .csource import HAS_IOCTL, HAS_LOCK_KERNEL, HAS_WRAPPER, c99_designators, free_record_names
from .driver_locks import (
    declare_users, ioctl_locks, keep_wrapper_prototypes, may_wrap, pushdown_mutexes,
    restore_prototypes)
from .files import read, write_file
from .finish import end_as, generators_added, layout, with_include
from .leftovers import compat_notes, driver_lock_notes, ioctl_notes
from .pushdown import Pushdown, check_handlers, pushdown
from .shells import drop_shells
from .style import drop_lone_braces


class Converted:
    """What convert() made of one file: its new text, what was done (the
    generators added), what to look at, the (handler, wrapper) pairs whose
    handler another file defines (see Groups), the handlers that lost
    their inode argument (their prototypes in headers change too) and the
    macros it defines again (the driver's other files get them too)."""

    def __init__(self, text, how, notes, external=(), dropped=(), restored=()):
        self.text, self.how, self.notes = text, list(how), list(notes)
        self.external, self.dropped = list(external), list(dropped)
        # the macros of versions.MACROS defined again in it
        self.restored = list(restored)


def convert(path, shim, driver_locks=False, kernel=None):
    """The converted text of one file, what was done and what to look at, or
    raise: conversion() driven alone."""
    steps = conversion(path, shim, driver_locks, kernel)
    try:
        request = next(steps)
        while True:
            error = annotate([request])[0]
            request = steps.throw(error) if error else steps.send(None)
    except StopIteration as done:
        return done.value


def conversion(path, shim, driver_locks=False, kernel=None):
    """The conversion of one file, as a generator: it yields an Annotation
    when it needs ANNOTATE run (see annotate(): one spatch run serves many
    files), takes None when the run is done or its exception, and returns
    (StopIteration.value) the Converted, or raises.  kernel: the version of
    the kernel tree the file is in, None for a driver's own directory."""
    orig = read(path)
    # the tests of a driver written for many kernel versions: the old
    # .ioctl designators that today's kernels do not build are hidden
    start, notes, restored, in_place, how = versions.prepare(orig, kernel)
    # Each semantic patch runs only where its pattern can be: most of a
    # whole tree's candidates have an .ioctl of another structure only (tty,
    # block), an ioctl mutex that is not held around one call, or a
    # lock_kernel() outside any ioctl.  (Every spatch run costs a quarter
    # of a second before it reads the file.)
    sites = versions.ioctl_sites(start) if HAS_IOCTL.search(start) and \
        "file_operations" in start else []
    wrapper = HAS_WRAPPER.search(start) and may_wrap(start)
    bkl = HAS_LOCK_KERNEL.search(start)
    if not sites and not wrapper and not bkl and not pushdown_mutexes(start):
        text = versions.unmask(start)
        if text == orig:
            return Converted(orig, [], sorted(set(notes)))
        keeps_entry_points(orig, text, kernel)
        return Converted(text, how, sorted(set(notes)), restored=restored)
    with tempfile.TemporaryDirectory(prefix="bkl-migrate.") as tmp:
        work = os.path.join(tmp, os.path.basename(path))
        log = os.path.join(tmp, "log")
        shutil.copyfile(path, work)
        open(log, "w").close()
        write_file(work, c99_designators(start) if sites else start)
        done = pushdown(work, log, start, sites, shim) if sites else Pushdown(read(work))
        check_handlers(done, orig)
        notes += done.notes
        write_file(work, done.text)
        if wrapper:
            wrapper_pass(work, log, done.text, notes)
        if bkl:
            before = inline_pass(work, log, in_place, notes)
            # run by whoever drives the conversion, with other files' runs
            request = Annotation(work, free_record_names(before))
            yield request
            write_file(work, declare_users(read(work), before.split("\n"), request.entries()))
        text = read(work)
    notes += compat_notes(text, done.compat) + ioctl_notes(text)
    text = driver_lock_notes(path, versions.unmask(text), driver_locks, notes)
    if text == orig:
        return Converted(orig, [], notes)
    # what prepare() did (the macros defined again) comes first
    added = generators_added(orig, text)
    text = layout(orig, text, done.dropped)
    # a file whose operations only name another file's wrapper needs no
    # header of ours; with the shim it names deprecated_ioctl
    if (added or not done.external or shim) and text != versions.unmask(start):
        text = with_include(text)
    text = end_as(orig, text)
    keeps_entry_points(orig, text, kernel)
    return Converted(text, how + added, sorted(set(notes)), done.external, done.dropped,
                     restored)


def wrapper_pass(work, log, text, notes):
    """The driver-mutex wrappers of the working copy work: one around one
    call (driver_lock_wrapper.cocci), then a mutex held across an ioctl's
    body (driver_lock_inline.cocci), which a body's control flow may defeat
    (left as it was, and noted)."""
    spatch(WRAPPER, work, ["patch"], log)
    write_file(work, restore_prototypes(text, read(work)))
    if not may_wrap(read(work)):
        return
    before = read(work)
    try:
        spatch(DRIVER_INLINE, work, ["patch"], log)
        write_file(work, drop_lone_braces(before, keep_wrapper_prototypes(
            before, read(work)), r"mutex_unlock\(&\w+\);"))
    except RuntimeError as e:
        # reported by the notes on what was left as a candidate not taken
        write_file(work, before)
        notes.append("note: the driver mutex held across an ioctl's body could not be "
                     "followed (%s)" % str(e)[:160])


def inline_pass(work, log, in_place, notes):
    """An ioctl of the working copy work that takes the BKL itself and drops
    it before every return becomes the wrapper form (inline_pushdown.cocci),
    but not where a BKL call has an #if of its own inside its function
    (in_place): a wrapper would take the lock whatever that #if says.
    Returns the text the annotation starts from."""
    before = read(work)
    if ioctl_locks(before) and not in_place:
        locked = before
        try:
            spatch(INLINE, work, ["patch"], log)
            before = drop_lone_braces(locked, drop_shells(locked, read(work)))
        except RuntimeError as e:
            # not the wrapper form then: the annotation declares the ioctl as
            # a BKL user, its locking as it was
            notes.append("note: the inline pushdown could not be undone (%s): its BKL calls "
                         "are annotated instead" % str(e)[:160])
        write_file(work, before)
    return before


def keeps_entry_points(orig, text, kernel):
    """The run's own check of what it made of a file: every kernel keeps the
    ioctl entry points it had, today's get one wherever any had one, and no
    kernel from 2.6.36 on builds an .ioctl (entrypoints.lost()); raises if
    not."""
    lost = entrypoints.lost(orig, text, kernel)
    if lost:
        raise RuntimeError("the result would lose entry points (%s): convert it by hand"
                           % "; ".join(lost))
