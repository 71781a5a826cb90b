# SPDX-License-Identifier: GPL-2.0
"""Drivers written for many kernel versions: what to do about each old
.ioctl of their operations, read from the table of their entry points
(entrypoints.py: which members each era of kernels compiles), and the
edits that do it.

An out-of-tree driver picks its entry point with the preprocessor:
#ifdef HAVE_UNLOCKED_IOCTL, #if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,36)
and the like.  Linux 5.9 must get the entry points that 2.6.36 to 5.8 got:
where it does not only because 5.9 dropped HAVE_UNLOCKED_IOCTL and
HAVE_COMPAT_IOCTL, those macros are defined again for 5.9 and later (the
fix that maintainers of such drivers made themselves).  Then each .ioctl
gets a verdict:

  NEVER     no kernel builds it (#if 0): nothing to do;
  OLD_ONLY  only kernels before 2.6.36 build it, and they have .ioctl:
            nothing to do;
  RESTORE   today's kernels built it only because they no longer define
            the macros, which are defined again: nothing more to do;
  CONVERT   today's kernels build it, and no .unlocked_ioctl beside it:
            the BKL goes into the driver, as for any old .ioctl;
  GUARD     today's kernels build it beside an .unlocked_ioctl, which is
            all the VFS ever called from 2.6.11 on: in a driver for many
            kernels, it is kept for kernels before 2.6.36 only (and its
            handler, if nothing else uses it); in a kernel tree of one
            version it is left, and said (SHADOWED);
  GAP       kernels from 2.6.36 build it, but not today's: a guard that
            lets .ioctl reach kernels without it, the driver's own bug,
            left as it is and said;
  NO_ENTRY  only kernels before 2.6.36 build it, and the operations have
            no .unlocked_ioctl after them, so that their entry point would
            vanish from 2.6.36 on: where those kernels compile its handler,
            they get the BKL wrapper of it as .unlocked_ioctl (the older
            ones keep the .ioctl they had); else reported, the file left as
            it was.
"""
import re

from bkl_users.csource import blank, functions

from .csource import (
    add_include, c99_designators, closing_brace, definition_re, definitions_of,
    free_wrapper_names, head_start, prototypes, wrapper_name)
from .entrypoints import (
    ALWAYS, ERAS, IOCTL_UNTIL, MACROS, NEW_MEMBERS, NEVER, NO_IOCTL, RANK, TODAY, compiled_at,
    definition_state, evaluators, initialisers, kernel_version, model, samples, undefined_today,
    version_name)
from .preprocessor import Conditionals, taken

# lock_kernel() and <linux/smp_lock.h> went in 2.6.39
BKL_UNTIL = kernel_version(2, 6, 39)

NEVER_BUILT, OLD_ONLY, RESTORE, CONVERT, GAP = "never", "old-only", "restore", "convert", "gap"
GUARD, SHADOWED, NO_ENTRY, MACRO_MEMBER = "guard", "shadowed", "no-entry", "macro-member"
# a BKL call under an #if of its own inside its function: annotated where it
# is, never hoisted into a wrapper (which would take the lock whatever the
# #if says)
IN_PLACE = "in-place"
# the guard an .ioctl beside an .unlocked_ioctl gets
GUARD_IF = "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)"

RESTORE_BLOCK = """/*
 * Linux 5.9 no longer defines %(list)s:
 * every kernel since 2.6.11 has .unlocked_ioctl and .compat_ioctl.  Defined
 * here for 5.9 and later, so that the operations below keep the entry points
 * they had up to 5.8.
 */
#if KERNEL_VERSION(5, 9, 0) <= LINUX_VERSION_CODE
%(defines)s
#endif"""


class Site:
    """One .ioctl of a struct file_operations: its offset in the text, the
    handler it names, the branches it is in, its initialiser, and the
    verdict."""

    word = "ioctl"

    def __init__(self, designator, init, shadow=None):
        self.offset, self.handler = designator.offset, designator.handler
        self.branches, self.init = designator.branches, init
        self.macro = designator.macro
        # the .unlocked_ioctl of the same operations beside it, if any
        self.shadow = shadow
        self.verdict, self.versions = None, []

    def why(self):
        """What the note says of a site that is left as it is."""
        if self.verdict == NEVER_BUILT:
            return "nothing to do: .ioctl = %s is never built (#if 0)" % self.handler
        if self.verdict == OLD_ONLY:
            return ("nothing to do: .ioctl = %s is built only for kernels before 2.6.36, which "
                    "have .ioctl" % self.handler)
        if self.verdict == RESTORE:
            return ("nothing to do: .ioctl = %s stays for kernels before 2.6.11, the only ones "
                    "that build it once 5.9 and later define the macros it tests again"
                    % self.handler)
        if self.verdict == SHADOWED:
            return ("left: .ioctl = %s is beside .unlocked_ioctl = %s in the same operations, "
                    "and the VFS calls only .unlocked_ioctl: take the dead .ioctl out by hand"
                    % (self.handler, self.shadow))
        if self.verdict == MACRO_MEMBER:
            return ("left: %s = %s is .ioctl for today's kernels, a member the macro %s spells, "
                    "which no rule rewrites: convert it by hand"
                    % (self.macro, self.handler, self.macro))
        if self.verdict == GAP:
            return ("left: .ioctl = %s is built for Linux %s and later kernels before %s, "
                    "which have no .ioctl: its guard should stop at 2.6.36 (today's kernels "
                    "do not build it)" % (self.handler, version_name(self.versions[0]),
                                          version_name(self.versions[-1])))
        return None


def deficit(inits):
    """How far 5.9 and later fall short of the .unlocked_ioctl and
    .compat_ioctl that 2.6.36 to 5.8 compiled, over the initialisers."""
    return sum(max(0, RANK[i.state(NO_IOCTL, m)] - RANK[i.state(TODAY, m)])
               for i in inits for m in NEW_MEMBERS)


def shortfall(text, restored):
    """deficit() of text with restored defined again, and the handlers 5.9
    and later name but would not define."""
    inits = model(text, restored)
    return deficit(inits) + len(undefined_today(text, restored, inits))


def macros_to_restore(text, cond):
    """The kernel's macros that the file tests and does not define, and that
    5.9 and later need again to compile the entry points 2.6.36 to 5.8 did,
    and the handlers they name: added one at a time while each gives back
    more."""
    candidates = [m for m in MACROS if m not in cond.defines and cond.tests(m)]
    chosen = []
    best = shortfall(text, chosen) if candidates else 0
    while best:
        gains = [(shortfall(text, chosen + [m]), m) for m in candidates if m not in chosen]
        gains = [(d, m) for d, m in gains if d < best]
        if not gains:
            break
        best, m = min(gains)
        chosen.append(m)
    return [m for m in MACROS if m in chosen]


def judge(text, kernel=None):
    """The Sites of text, each with its verdict, and the macros to define
    again.  kernel: the version of the tree the file is in, if it is a
    kernel tree (an .ioctl beside an .unlocked_ioctl is then said, not
    guarded)."""
    cond = Conditionals(text)
    restore = macros_to_restore(text, cond)
    now, after = model(text), model(text, restore)
    sites = []
    for init, rinit in zip(now, after):
        index = {id(d): i for i, d in enumerate(init.designators)}
        for d in init.designators:
            if d.member != "ioctl":
                continue
            i = index[id(d)]
            today = rinit.states[TODAY.name][i]
            shadow = [u.handler for j, u in enumerate(rinit.designators)
                      if u.member == "unlocked_ioctl" and
                      rinit.states[TODAY.name][j] != NEVER and not cond.exclusive(d.offset, u.offset)]
            site = Site(d, rinit, shadow[0] if shadow else None)
            sites.append(site)
            if today != NEVER and d.macro:
                # a macro spells the member: no semantic patch sees it
                site.verdict = MACRO_MEMBER
            elif today != NEVER:
                site.verdict = CONVERT
                if shadow:
                    site.verdict = SHADOWED if kernel else GUARD
            elif rinit.states[NO_IOCTL.name][i] != NEVER:
                built = [v for v in compiled_at(text, d.branches, restore) if v >= IOCTL_UNTIL]
                upto = min(v for v in samples(text) if v > built[-1] and v not in built)
                site.verdict, site.versions = GAP, [built[0], upto]
            elif init.states[TODAY.name][i] != NEVER:
                site.verdict = RESTORE
            elif all(rinit.states[e.name][i] == NEVER for e in ERAS):
                site.verdict = NEVER_BUILT
            elif rinit.state(NO_IOCTL, "unlocked_ioctl") == NEVER and \
                    rinit.state(TODAY, "unlocked_ioctl") == NEVER:
                site.verdict = NO_ENTRY
            else:
                site.verdict = OLD_ONLY
    if kernel and not any(s.verdict == RESTORE for s in sites):
        # a kernel tree builds its files for its own version only: the
        # macros only where an .ioctl needs them, as ever
        restore = []
    return sites, restore


def restore_macros(text, macros):
    """text with macros (of MACROS) defined again, where the file's first
    test of them can see them: after its last #include at file scope before
    that test, else before the outermost #if around the test."""
    if not macros:
        return text
    cond = Conditionals(text)
    first = min(m.start() for m in re.finditer(
        r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b[^\n]*\b(?:%s)\b" % "|".join(macros),
        text, re.M))
    at = None
    for m in re.finditer(r"^[ \t]*#[ \t]*include\b[^\n]*\n", text[:first], re.M):
        if not cond.branches_at(m.start()):
            at = m.end()
    if at is None:
        outer = cond.branches_at(first)
        line = outer[0].start if outer else text.count("\n", 0, first) + 1
        at = len("".join(text.split("\n")[:line - 1])) + line - 1 if line > 1 else 0
    defines = "\n".join("#ifndef %s\n#define %s 1\n#endif" % (m, m) for m in macros)
    block = RESTORE_BLOCK % {"list": " and ".join(macros), "defines": defines}
    before, after = text[:at], text[at:]
    text = before + ("\n" if before and not before.endswith("\n\n") else "") + block + \
        ("\n\n" if after and not after.startswith("\n") else "\n") + after
    # LINUX_VERSION_CODE and KERNEL_VERSION(): among the includes above the
    # block, or at the top of a file that has none there
    return add_include(text, "linux/version.h", before=text.index(block))


# An .ioctl or a BKL call that is left as it is hides from the semantic
# patches under another spelling (no such word is in the file), and gets its
# own back afterwards.
MASKS = {"ioctl": "i0ctl", "lock_kernel": "l0ck_kernel", "unlock_kernel": "unl0ck_kernel"}


def ioctl_sites(text):
    """A Site for each old .ioctl (either designator form) of each struct
    file_operations initialiser of text, without a verdict."""
    return [Site(d, init) for init in initialisers(text) for d in init.designators
            if d.member == "ioctl"]


def assess(text, kernel=None):
    """The Sites of text, each with its verdict, and the macros to define
    again (see judge())."""
    if not any(i.designators for i in initialisers(text)):
        return [], []
    return judge(text, kernel)


def prepare(text, kernel=None):
    """What the file's preprocessor tests mean for its old .ioctl
    designators and BKL calls: (text to convert, notes, the macros defined
    again, the functions whose BKL calls must stay where they are, what was
    done).  The .ioctl of a site that today's kernels do not build, or that
    the VFS never called, is hidden from the semantic patches (unmask()
    gives it back); one beside an .unlocked_ioctl is guarded; the macros
    5.9 needs are defined again.  A site whose operations would have no
    entry point on today's kernels stops it (RuntimeError)."""
    sites, restore = assess(text, kernel)
    if not sites and not restore and "lock_kernel" not in text:
        return text, [], [], [], []
    if restore:
        # a file that changes anyway loses gcc's "field:" designators, which
        # sparse calls obsolete
        c99 = c99_designators(text)
        if c99 != text:
            text = c99
            sites, restore = assess(text, kernel)
    lone = [s for s in sites if s.verdict == NO_ENTRY]
    for s in lone:
        if RANK[definition_state(text, s.handler, TODAY, restore) or NEVER] < RANK[ALWAYS]:
            raise RuntimeError(
                "%s: .ioctl = %s is built only for kernels before 2.6.36, and the operations "
                "have no .unlocked_ioctl after them: they would have no ioctl entry point on "
                "today's kernels, which do not build %s; give them one by hand"
                % (s.init.name, s.handler, s.handler))
    kept = [s for s in sites if s.verdict != CONVERT]
    calls = [c for c in bkl_calls(text, restore) if c.verdict != CONVERT]
    in_place = sorted({c.function for c in calls if c.verdict == IN_PLACE})
    notes = [c.why() for c in calls if c.verdict == IN_PLACE]
    calls = [c for c in calls if c.verdict != IN_PLACE]
    if (kept or calls) and any(m in text for m in MASKS.values()):
        raise RuntimeError("the file has one of the words %s, which bkl-migrate needs for "
                           "itself: convert it by hand" % ", ".join(sorted(MASKS.values())))
    for s in sorted(kept + calls, key=lambda s: -s.offset):
        if getattr(s, "macro", None):
            # a macro spells the member: nothing there to hide
            continue
        word = s.word
        text = text[:s.offset] + MASKS[word] + text[s.offset + len(word):]
    notes += [s.why() for s in kept + calls if s.why()]
    how = [restored_how(restore)] if restore else []
    guarded = [s for s in sites if s.verdict == GUARD]
    if guarded:
        text = guard(text, guarded)
        how.append("%s kept for kernels before 2.6.36 only, beside .unlocked_ioctl"
                   % ", ".join(".ioctl = %s" % s.handler for s in guarded))
    if lone:
        text, added = give_entry_points(text, lone)
        how.append("%s for 2.6.36 and later, which had no entry point" % ", ".join(added))
    return restore_macros(text, restore), notes, restore, in_place, how


# A designator alone on its line (the .ioctl masked), as guard() wants it.
LONE_DESIGNATOR_RE = re.compile(r"^[ \t]*(?:\.\s*i0ctl\s*=|i0ctl\s*:)\s*\w+\s*,?[ \t]*$")


def guard(text, sites):
    """text with the line of each site's .ioctl (masked) under
    #if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36), and each handler
    that nothing else uses (its definition, its prototypes) under the same
    guard, so that no kernel from 2.6.36 on finds a function it does not
    use; <linux/version.h> before the first."""
    spans = []
    code = blank(text)
    for s in sites:
        start = code.rfind("\n", 0, s.offset) + 1
        end = code.find("\n", s.offset)
        end = len(code) if end < 0 else end
        if not LONE_DESIGNATOR_RE.match(code[start:end]):
            raise RuntimeError(".ioctl = %s shares its line with other designators: put it on "
                               "a line of its own, or guard it by hand" % s.handler)
        spans.append((start, end + 1))
        spans += unused_handler_spans(text, code, s)
    for start, end in sorted(set(spans), reverse=True):
        body = text[start:end]
        text = text[:start] + GUARD_IF + "\n" + body + ("" if body.endswith("\n") else "\n") + \
            "#endif\n" + text[end:]
    first = min(start for start, _ in spans)
    return add_include(text, "linux/version.h", before=first)


# What kernels from 2.6.36 get where their operations had no entry point.
NEW_IF = "#if KERNEL_VERSION(2, 6, 36) <= LINUX_VERSION_CODE"


def give_entry_points(text, sites):
    """text with, for each site (an .ioctl only kernels before 2.6.36
    build, masked), an .unlocked_ioctl for 2.6.36 and later after the #if
    chain of the .ioctl, the BKL wrapper of its handler (DEFINE_BKL_IOCTL()
    after the handler, under the same #if), <linux/version.h> and the
    layer's include before them; and what the summary says of each."""
    added = []
    for s in sorted(sites, key=lambda s: -s.offset):
        wrapper = free_wrapper_names(text, [s.handler]).get(s.handler, wrapper_name(s.handler))
        cond = Conditionals(text)
        inner = [b for b in s.branches if b not in cond.branches_at(s.init.start)]
        if not inner:
            raise RuntimeError("%s: .ioctl = %s is under an #if around the whole operations: "
                               "give kernels from 2.6.36 an entry point by hand"
                               % (s.init.name, s.handler))
        line = text.count("\n", 0, s.offset)
        # to the line after the chain's #endif
        while line < len(cond.lines) and any(b.chain == inner[0].chain
                                             for b in cond.lines[line][1]):
            line += 1
        at = cond.lines[line][0] if line < len(cond.lines) else len(text)
        start = text.rfind("\n", 0, s.offset) + 1
        member = text[start:s.offset].rstrip(".") + ".unlocked_ioctl"
        text = text[:at] + "%s\n%s%s,\n#endif\n" % (
            NEW_IF, aligned_like(text[start:text.find("\n", s.offset)], member), wrapper) + \
            text[at:]
        end = definitions_of(text, s.handler)[0][2] + 1
        text = text[:end] + "\n\n%s\nDEFINE_BKL_IOCTL(%s, %s);\n#endif" % (
            NEW_IF, wrapper, s.handler) + text[end:]
        added.append(".unlocked_ioctl = %s (DEFINE_BKL_IOCTL() of %s)" % (wrapper, s.handler))
    first = min(text.index(NEW_IF), text.index("DEFINE_BKL_IOCTL("))
    text = add_include(text, "linux/version.h", before=first)
    return add_include(text, before=text.index("DEFINE_BKL_IOCTL(")), added


def aligned_like(line, member):
    """member, and " = " after it, with "=" at the column of "=" in line
    where tabs reach it (kernel style aligns designators with tabs)."""
    m = re.match(r"^([^=]*?)([\t ]*)=", line)
    if not m or "\t" not in m.group(2):
        return member + " = "
    col = len((m.group(1) + m.group(2)).expandtabs(8))
    width, tabs = len(member.expandtabs(8)), 0
    while width < col:
        width, tabs = (width // 8 + 1) * 8, tabs + 1
    return member + ("\t" * tabs if tabs and width == col else " ") + "= "


def unused_handler_spans(text, code, site):
    """(start, end) of the definition and the prototypes of site's handler,
    whole lines, when it is static and nothing but site names it; else
    []."""
    name = site.handler
    defs = list(definition_re(name).finditer(code))
    if len(defs) != 1 or "static" not in defs[0].group(1).split():
        return []
    d = defs[0]
    start = head_start(code, d.start() + len(d.group(1)))
    end = closing_brace(code, d.end() - 1)
    if end is None:
        return []
    end = code.find("\n", end)
    end = len(code) if end < 0 else end + 1
    spans = [(start, end)]
    for p in prototypes(text, name):
        spans.append((code.rfind("\n", 0, p.start()) + 1, p.end() + 1))
    uses = [m.start() for m in re.finditer(r"\b%s\b" % re.escape(name), code)]
    inside = [u for u in uses if u == code.find(name, site.offset) or
              any(a <= u < b for a, b in spans)]
    return spans if len(inside) == len(uses) else []


def restored_how(macros):
    """What the summary says of macros defined again."""
    return "%s defined again for Linux 5.9 and later" % " and ".join(macros)


def unmask(text):
    """text with the .ioctl designators and BKL calls prepare() hid given
    back."""
    for word, mask in MASKS.items():
        text = text.replace(mask, word)
    return text


class Call:
    """A lock_kernel() or unlock_kernel() call in a conditional: its offset,
    the function it is in, and the branches it is in that the function's
    head is not (its own #if inside the function)."""

    def __init__(self, offset, word, function, branches, inner):
        self.offset, self.word, self.function = offset, word, function
        self.branches, self.inner = branches, inner
        self.verdict = None

    def why(self):
        if self.verdict == NEVER_BUILT:
            return "nothing to do: %s() in %s is never built (#if 0)" % (self.word, self.function)
        if self.verdict == OLD_ONLY:
            return ("nothing to do: %s() in %s is built only for kernels before 2.6.39, which "
                    "have the BKL" % (self.word, self.function))
        return ("note: %s() in %s is under an #if of its own: declared where it is "
                "(DEFINE_BKL_USER()), not made a wrapper, which would take the BKL whatever "
                "the #if says" % (self.word, self.function))


BKL_CALL_RE = re.compile(r"\b(lock_kernel|unlock_kernel)\s*\(\s*\)")


def bkl_calls(text, restored):
    """A Call for each lock_kernel()/unlock_kernel() of text inside an #if,
    with its verdict: NEVER or OLD_ONLY when no kernel without the BKL
    builds it, IN_PLACE when it has an #if of its own inside its function
    that today's kernels may take (hoisting it into a wrapper would take
    the lock whatever that #if says), CONVERT else."""
    code = blank(text)
    if "lock_kernel" not in code:
        return []
    cond = Conditionals(text)
    found = [m for m in BKL_CALL_RE.finditer(code) if cond.branches_at(m.start())]
    if not found:
        return []
    # the functions of one compilation: braces of #if/#else heads balance
    funcs = functions(blank(cond.first_branches(text)))
    evs = evaluators(text, cond, restored)
    calls = []
    for m in found:
        name, head = "-", None
        for fn, at, start, end in funcs:
            if start <= m.start() < end:
                name, head = fn, at
        branches = cond.branches_at(m.start())
        outer = set(cond.branches_at(head)) if head is not None else set()
        call = Call(m.start(1), m.group(1), name, branches,
                    [b for b in branches if b not in outer])
        built = [v for v, ev in evs if taken(branches, ev) != 0]
        if not built:
            call.verdict = NEVER_BUILT
        elif all(v < BKL_UNTIL for v in built):
            call.verdict = OLD_ONLY
        elif call.inner:
            call.verdict = IN_PLACE
        else:
            call.verdict = CONVERT
        calls.append(call)
    return calls
