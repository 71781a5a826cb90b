# SPDX-License-Identifier: GPL-2.0
"""The conversion of one file: each semantic patch where its pattern can be,
then the generators, the include and the notes on what was left."""
import os
import re
import shutil
import tempfile

from bkl_users.candidates import candidates
from bkl_users.csource import blank

from . import versions
from .cocci import (
    DRIVER_INLINE, INLINE, PUSHDOWN, WRAPPER, Annotation, annotate, names_arg, spatch)
from .csource import (
    HAS_IOCTL, HAS_LOCK_KERNEL, HAS_WRAPPER, add_include, c99_designators, declare_before_use,
    defined_in, free_record_names, free_wrapper_names, has_unlocked_signature,
    insert_after_definition, insert_after_prototype, insert_before_operations, ioctls_left,
    is_macro)
from .driver_locks import (
    annotate_driver_locks, declare_users, file_scope_locks, ioctl_locks,
    keep_wrapper_prototypes, may_wrap, pushdown_mutexes, restore_prototypes)
from .compat import wrap_compat
from .files import read, write_file
from .shells import drop_shells
from .style import (
    align_designators, drop_lone_braces, realign_parameters, reflow_parameters,
    tabify_new_lines, tidy_new_lines, wrap_long_heads)


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


def convert(path, shim, driver_locks=False):
    """The converted text of one file, what was done and what to look at, or
    raise: conversion() driven alone."""
    steps = conversion(path, shim, driver_locks)
    try:
        request = next(steps)
        while True:
            error = annotate([request])[0]
            request = steps.throw(error) if error else steps.send(None)
    except StopIteration as done:
        return done.value


def conversion(path, shim, driver_locks=False):
    """The conversion of one file, as a generator: it yields an Annotation
    when it needs ANNOTATE run (see annotate(): one spatch run serves many
    files), takes None when the run is done or its exception, and returns
    (StopIteration.value) the Converted, or raises."""
    orig = read(path)
    compat = []
    # the tests of a driver written for many kernel versions: the old
    # .ioctl designators that today's kernels do not build are hidden
    start, notes, restored, in_place = versions.prepare(orig)
    how = [versions.restored_how(restored)] if restored else []
    # (handler, wrapper) of operations whose handler another file defines,
    # and the handlers that lost their inode argument here
    external, dropped = [], []
    # Each semantic patch runs only where its pattern can be: most of a
    # whole tree's candidates have an .ioctl of another structure only (tty,
    # block), an ioctl mutex that is not held around one call, or a
    # lock_kernel() outside any ioctl.  (Every spatch run costs a quarter
    # of a second before it reads the file.)
    sites = versions.ioctl_sites(start) if HAS_IOCTL.search(start) and \
        "file_operations" in start else []
    pushdown = bool(sites)
    wrapper = HAS_WRAPPER.search(start) and may_wrap(start)
    annotate = HAS_LOCK_KERNEL.search(start)
    if not pushdown and not wrapper and not annotate and not pushdown_mutexes(start):
        text = versions.unmask(start)
        if text == orig:
            return Converted(orig, [], sorted(set(notes)))
        return Converted(text, how, sorted(set(notes)), restored=restored)
    # the old handlers that now run under the BKL: {handler: generator}
    wrapped = {}
    with tempfile.TemporaryDirectory(prefix="bkl-migrate.") as tmp:
        work = os.path.join(tmp, os.path.basename(path))
        log = os.path.join(tmp, "log")
        shutil.copyfile(path, work)
        open(log, "w").close()
        write_file(work, c99_designators(start) if pushdown else start)
        if pushdown:
            names = free_wrapper_names(start, [site.handler for site in sites])
            spatch(PUSHDOWN, work, ["patch"] + (["shim"] if shim else []), log,
                   {"BKL_MIGRATE_NAMES": names_arg(names)})
        text = read(work)
        with open(log) as f:
            for entry in f.read().splitlines():
                what, a, b = entry.split()
                if what == "BKL_MIGRATE_COMPAT":
                    # judged on the final text: the inline pass may wrap it
                    compat.append((a, b))
                    continue
                # a handler that already has the unlocked_ioctl signature,
                # wired to .ioctl by mistake (2.6.34's macintosh/nvram.c)
                unlocked = has_unlocked_signature(text, a)
                if shim and unlocked:
                    # the shim's .locked_ioctl takes the old signature: this
                    # one gets the wrapper instead
                    b = re.sub(r"(?:_ioctl)?$", "", a, count=1) + "_unlocked_ioctl"
                    text = re.sub(r"(\.unlocked_ioctl\s*=\s*)deprecated_ioctl(\s*,[ \t]*\n)"
                                  r"[ \t]*\.locked_ioctl\s*=\s*%s\s*,[ \t]*\n" % re.escape(a),
                                  r"\g<1>%s\2" % b, text)
                    notes.append("note: %s has the unlocked_ioctl signature, which the shim's "
                                 ".locked_ioctl does not take: DEFINE_BKL_UNLOCKED_IOCTL() "
                                 "instead" % a)
                if shim and not unlocked:
                    gen = "DEFINE_BKL_SHIM_USER(%s);" % a
                elif what.endswith("_UNLOCKED") or unlocked:
                    gen = "DEFINE_BKL_UNLOCKED_IOCTL(%s, %s);" % (b, a)
                else:
                    gen = "DEFINE_BKL_IOCTL(%s, %s);" % (b, a)
                if what.endswith("_UNLOCKED"):
                    dropped.append(a)
                if not gen.startswith("DEFINE_BKL_SHIM_USER"):
                    wrapped[a] = gen.split("(")[0]
                if gen in text:
                    continue
                if what.startswith("BKL_MIGRATE_AFTER_DEFINITION"):
                    if is_macro(text, a):
                        # a handler that a macro names (#define FOO_IOCTL
                        # foo_ioctl): the operations see whatever it is
                        text = insert_before_operations(text, b, gen)
                        continue
                    if not defined_in(text, a):
                        # one handler serving the operations of several
                        # files: converted with the file that defines it
                        external.append((a, b))
                        continue
                    text = insert_after_definition(text, a, gen)
                    if not shim:
                        text = declare_before_use(text, b)
                else:
                    text = insert_after_prototype(text, a, gen)
        # A compat entry point that calls a handler the native one now
        # runs under the BKL takes it too.
        for _, cfn in compat:
            text, done = wrap_compat(text, cfn, wrapped)
            if done:
                notes.append("note: %s calls %s, which the native entry point now runs under "
                             "the BKL: it takes the BKL too (%s)"
                             % (cfn, "/".join(sorted(wrapped)), done))
        # Every handler the operations now name must be defined here.
        for field, gen in (("unlocked_ioctl", r"DEFINE_BKL_(?:UNLOCKED_)?IOCTL\(%s,"),
                           ("locked_ioctl", r"DEFINE_BKL_SHIM_USER\(%s\);")):
            names = r"\.%s\s*=\s*(\w+)" % field
            for name in set(re.findall(names, text)) - set(re.findall(names, orig)):
                if name in {w for h, w in external} | {h for h, w in external}:
                    continue
                if name != "deprecated_ioctl" and \
                   not re.search("^" + gen % re.escape(name), text, re.M):
                    raise RuntimeError("the handler behind %s is neither defined nor "
                                       "declared in this file: convert it by hand" % name)
        write_file(work, text)
        if wrapper:
            spatch(WRAPPER, work, ["patch"], log)
            write_file(work, restore_prototypes(text, read(work)))
            if may_wrap(read(work)):
                before = read(work)
                try:
                    spatch(DRIVER_INLINE, work, ["patch"], log)
                    write_file(work, drop_lone_braces(before, keep_wrapper_prototypes(
                        before, read(work)), r"mutex_unlock\(&\w+\);"))
                except RuntimeError as e:
                    # the body's control flow defeated it: left as it was,
                    # and reported below as a candidate not taken
                    write_file(work, before)
                    notes.append("note: the driver mutex held across an ioctl's body could "
                                 "not be followed (%s)" % str(e)[:160])
        if annotate:
            before = read(work)
            # not where a BKL call has an #if of its own inside its
            # function: a wrapper would take the lock whatever it says
            if ioctl_locks(before) and not in_place:
                locked = before
                try:
                    spatch(INLINE, work, ["patch"], log)
                    before = drop_lone_braces(locked, drop_shells(locked, read(work)))
                except RuntimeError as e:
                    # not the wrapper form then: the annotation below
                    # declares the ioctl as a BKL user, its locking as it was
                    notes.append("note: the inline pushdown could not be undone (%s): its "
                                 "BKL calls are annotated instead" % str(e)[:160])
                write_file(work, before)
            # run by whoever drives the conversion, with other files' runs
            request = Annotation(work, free_record_names(before))
            yield request
            write_file(work, declare_users(read(work), before.split("\n"), request.entries()))
        text = read(work)
    # A compat entry point beside a native one that now takes the BKL.
    for a, b in compat:
        if b != "deprecated_compat_ioctl" and not re.search(
                r"^DEFINE_BKL_\w*IOCTL\(\s*%s\s*," % re.escape(b), text, re.M):
            notes.append("note: %s.compat_ioctl = %s does not take the BKL that "
                         ".unlocked_ioctl now takes: wrap it with "
                         "DEFINE_BKL_UNLOCKED_IOCTL() or give both one lock" % (a, b))
    # Whatever the reason, an old .ioctl that is left is said (not those
    # that prepare() hid: today's kernels do not build them).
    for fn in ioctls_left(text):
        notes.append("left: an old .ioctl = %s is not converted: convert it by hand" % fn)
    text = versions.unmask(text)
    # With --annotate-driver-locks, the file-scope mutexes that no wrapper
    # took are declared where they are taken.
    # (the annotation leaves these candidates of scripts/bkl-users alone)
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
    if text == orig:
        return Converted(orig, [], notes)
    # what prepare() did (the macros defined again) comes first
    prepared_how = list(how)
    for gen in ("DEFINE_BKL_IOCTL", "DEFINE_BKL_COMPAT_IOCTL", "DEFINE_BKL_UNLOCKED_IOCTL",
                "DEFINE_BKL_SHIM_USER",
                "DEFINE_BKL_USER", "DEFINE_LOCKED_IOCTL", "DEFINE_LOCKED_IOCTL_INTERRUPTIBLE",
                "DEFINE_DRIVER_LOCK_USER"):
        names = re.findall(r"^%s\((\w+)" % gen, text, re.M)
        old = re.findall(r"^%s\((\w+)" % gen, orig, re.M)
        new = [n for n in names if n not in old]
        if new:
            how.append("%s(%s)" % (gen, ", ".join(new)))
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
    text = align_designators(orig, text)
    # a file whose operations only name another file's wrapper needs no
    # header of ours; with the shim it names deprecated_ioctl
    if (how[len(prepared_how):] or not external or shim) and text != versions.unmask(start):
        text = add_include(text)
    # nor blank lines at the end of the file, where the function was last
    if orig.endswith("\n") and not orig.endswith("\n\n"):
        text = text.rstrip("\n") + "\n"
    return Converted(text, how, sorted(set(notes)), external, dropped, restored)
