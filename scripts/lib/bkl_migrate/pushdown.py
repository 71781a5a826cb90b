# SPDX-License-Identifier: GPL-2.0
"""The pushdown of one file's old .ioctl handlers (ioctl_pushdown.cocci):
each .ioctl becomes an .unlocked_ioctl that runs the handler under the BKL,
with the generator that defines that wrapper put where it compiles, the
compat entry points that call such a handler given the BKL too."""
import re

from .cocci import PUSHDOWN, names_arg, spatch
from .compat import wrap_compat
from .csource import (
    declare_before_use, defined_in, free_wrapper_names, has_unlocked_signature,
    insert_after_definition, insert_after_prototype, insert_before_operations, is_macro)
from .files import read


class Pushdown:
    """What the pass made of a file: its text, the compat entry points it
    saw ((operations, function) pairs, judged on the final text), the old
    handlers that now run under the BKL ({handler: generator}), the
    (handler, wrapper) pairs whose handler another file defines, the
    handlers that lost their inode argument, and notes."""

    def __init__(self, text):
        self.text = text
        self.compat, self.wrapped = [], {}
        self.external, self.dropped, self.notes = [], [], []


def pushdown(work, log, start, sites, shim):
    """Run the pass on the working copy work (its log in log), whose text
    was start with the old .ioctl designators of sites to convert."""
    names = free_wrapper_names(start, [site.handler for site in sites])
    spatch(PUSHDOWN, work, ["patch"] + (["shim"] if shim else []), log,
           {"BKL_MIGRATE_NAMES": names_arg(names)})
    done = Pushdown(read(work))
    with open(log) as f:
        for entry in f.read().splitlines():
            what, a, b = entry.split()
            if what == "BKL_MIGRATE_COMPAT":
                # judged on the final text: the inline pass may wrap it
                done.compat.append((a, b))
            else:
                place_generator(done, what, a, b, shim)
    # A compat entry point that calls a handler the native one now runs
    # under the BKL takes it too.
    for _, cfn in done.compat:
        done.text, how = wrap_compat(done.text, cfn, done.wrapped)
        if how:
            done.notes.append("note: %s calls %s, which the native entry point now runs under "
                              "the BKL: it takes the BKL too (%s)"
                              % (cfn, "/".join(sorted(done.wrapped)), how))
    return done


def place_generator(done, what, a, b, shim):
    """The generator of the wrapper b of handler a (the pass logged what),
    put after a's definition or prototype, or noted as another file's."""
    text = done.text
    # a handler that already has the unlocked_ioctl signature, wired to
    # .ioctl by mistake (2.6.34's macintosh/nvram.c)
    unlocked = has_unlocked_signature(text, a)
    if shim and unlocked:
        # the shim's .locked_ioctl takes the old signature: this one gets
        # the wrapper instead
        b = re.sub(r"(?:_ioctl)?$", "", a, count=1) + "_unlocked_ioctl"
        text = re.sub(r"(\.unlocked_ioctl\s*=\s*)deprecated_ioctl(\s*,[ \t]*\n)"
                      r"[ \t]*\.locked_ioctl\s*=\s*%s\s*,[ \t]*\n" % re.escape(a),
                      r"\g<1>%s\2" % b, text)
        done.notes.append("note: %s has the unlocked_ioctl signature, which the shim's "
                          ".locked_ioctl does not take: DEFINE_BKL_UNLOCKED_IOCTL() instead" % a)
    if shim and not unlocked:
        gen = "DEFINE_BKL_SHIM_USER(%s);" % a
    elif what.endswith("_UNLOCKED") or unlocked:
        gen = "DEFINE_BKL_UNLOCKED_IOCTL(%s, %s);" % (b, a)
    else:
        gen = "DEFINE_BKL_IOCTL(%s, %s);" % (b, a)
    if what.endswith("_UNLOCKED"):
        done.dropped.append(a)
    if not gen.startswith("DEFINE_BKL_SHIM_USER"):
        done.wrapped[a] = gen.split("(")[0]
    if gen in text:
        done.text = text
        return
    if not what.startswith("BKL_MIGRATE_AFTER_DEFINITION"):
        text = insert_after_prototype(text, a, gen)
    elif is_macro(text, a):
        # a handler that a macro names (#define FOO_IOCTL foo_ioctl): the
        # operations see whatever it is
        text = insert_before_operations(text, b, gen)
    elif not defined_in(text, a):
        # one handler serving the operations of several files: converted
        # with the file that defines it
        done.external.append((a, b))
    else:
        text = insert_after_definition(text, a, gen)
        if not shim:
            text = declare_before_use(text, b)
    done.text = text


def check_handlers(done, orig):
    """Every handler the operations name now and did not before (in either
    designator form) is defined in the file, or is another file's."""
    external = {w for h, w in done.external} | {h for h, w in done.external}
    for field, gen in (("unlocked_ioctl", r"DEFINE_BKL_(?:UNLOCKED_)?IOCTL\(%s,"),
                       ("locked_ioctl", r"DEFINE_BKL_SHIM_USER\(%s\);")):
        names = r"(?:\.%s\s*=|^\s*%s\s*:)\s*(\w+)" % (field, field)
        for name in set(re.findall(names, done.text, re.M)) - set(re.findall(names, orig, re.M)):
            if name in external or name == "deprecated_ioctl":
                continue
            if not re.search("^" + gen % re.escape(name), done.text, re.M):
                raise RuntimeError("the handler behind %s is neither defined nor declared in "
                                   "this file: convert it by hand" % name)
