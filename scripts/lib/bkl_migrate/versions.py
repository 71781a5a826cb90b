# SPDX-License-Identifier: GPL-2.0
"""Drivers written for many kernel versions: which kernels build each old
.ioctl of their operations, and what to do about it.

An out-of-tree driver picks its entry point with the preprocessor:
#ifdef HAVE_UNLOCKED_IOCTL, #if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,36)
and the like.  What a kernel gives those tests is known: .unlocked_ioctl and
.compat_ioctl came in 2.6.11 with HAVE_UNLOCKED_IOCTL and HAVE_COMPAT_IOCTL;
.ioctl went in 2.6.36; Linux 5.9 (commit 4e24566a134e) dropped the two
macros, because every kernel since 2.6.11 has both members.  Each .ioctl of
a struct file_operations is evaluated at every version where one of the
file's tests can change its outcome, with unknown macros (CONFIG_*) left
open, and gets a verdict:

  NEVER     no kernel builds it (#if 0): nothing to do;
  OLD_ONLY  only kernels before 2.6.36 build it, and they have .ioctl:
            nothing to do;
  RESTORE   today's kernels build it only because they no longer define
            HAVE_UNLOCKED_IOCTL or HAVE_COMPAT_IOCTL: the macros are defined
            again for 5.9 and later, after the includes, so that the driver
            keeps the entry points it had on 2.6.11 to 5.8 (the fix that
            maintainers of such drivers made themselves); nothing changes
            for any older kernel;
  CONVERT   today's kernels build it: the BKL goes into the driver, as for
            any old .ioctl;
  GAP       kernels from 2.6.36 build it, but not today's: a guard that
            lets .ioctl reach kernels without it, the driver's own bug,
            left as it is and said.
"""
import re

from bkl_users.csource import blank, functions

from .csource import add_include, c99_designators, fops_bodies
from .preprocessor import Conditionals, Evaluator, taken


def kernel_version(a, b, c=0):
    """KERNEL_VERSION(a, b, c) as the kernel computes it (c clamped to 255,
    as since 4.9.256)."""
    return (a << 16) + (b << 8) + min(c, 255)


UNLOCKED_SINCE = kernel_version(2, 6, 11)
IOCTL_UNTIL = kernel_version(2, 6, 36)
# lock_kernel() and <linux/smp_lock.h> went in 2.6.39
BKL_UNTIL = kernel_version(2, 6, 39)
MACROS_UNTIL = kernel_version(5, 9, 0)
# the kernels the layer is for
TODAY = kernel_version(5, 9, 0)
MACROS = ("HAVE_UNLOCKED_IOCTL", "HAVE_COMPAT_IOCTL")
KERNEL_VERSION_RE = re.compile(r"KERNEL_VERSION\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)")
FIXED_VERSIONS = ((2, 6, 10), (2, 6, 11), (2, 6, 35), (2, 6, 36), (2, 6, 38), (2, 6, 39),
                  (3, 0, 0),
                  (5, 8, 0), (5, 9, 0), (6, 1, 0), (6, 12, 0))

NEVER, OLD_ONLY, RESTORE, CONVERT, GAP = "never", "old-only", "restore", "convert", "gap"
# a BKL call under an #if of its own inside its function: annotated where it
# is, never hoisted into a wrapper (which would take the lock whatever the
# #if says)
IN_PLACE = "in-place"
# an .ioctl beside an .unlocked_ioctl of the same operations: the VFS never
# called it (vfs_ioctl() took .unlocked_ioctl first), whatever the version
SHADOWED = "shadowed"

RESTORE_BLOCK = """/*
 * Linux 5.9 no longer defines %(list)s:
 * every kernel since 2.6.11 has .unlocked_ioctl and .compat_ioctl.  Defined
 * here for 5.9 and later, so that the operations below keep the entry points
 * they had up to 5.8.
 */
#if KERNEL_VERSION(5, 9, 0) <= LINUX_VERSION_CODE
%(defines)s
#endif"""


def version_name(v):
    return "%d.%d.%d" % (v >> 16, (v >> 8) & 0xff, v & 0xff) if v & 0xff else \
        "%d.%d" % (v >> 16, (v >> 8) & 0xff)


def samples(text):
    """The versions at which the file's tests can change their outcome: each
    KERNEL_VERSION() it names and the one before, and those of the facts."""
    points = {kernel_version(*v) for v in FIXED_VERSIONS}
    for m in KERNEL_VERSION_RE.finditer(text):
        v = kernel_version(*map(int, m.groups()))
        points |= {v, v - 1}
    return sorted(p for p in points if p > 0)


def environment(version, restored=False):
    """What a kernel of version gives the preprocessor (restored: with
    HAVE_UNLOCKED_IOCTL and HAVE_COMPAT_IOCTL defined again after 5.9)."""
    have = version >= UNLOCKED_SINCE and (restored or version < MACROS_UNTIL)
    env = {"LINUX_VERSION_CODE": version}
    for macro in MACROS:
        env[macro] = 1 if have else False
    return env


FUNCTIONS = {"KERNEL_VERSION": kernel_version}


class Site:
    """One .ioctl of a struct file_operations: its offset in the text, the
    handler it names, the branches it is in, and the verdict."""

    word = "ioctl"

    def __init__(self, offset, handler, branches, shadow=None):
        self.offset, self.handler, self.branches = offset, handler, branches
        # the .unlocked_ioctl of the same operations, if there is one
        self.shadow = shadow
        self.verdict, self.versions = None, []

    def why(self):
        """What the note says of a site that is left as it is."""
        if self.verdict == NEVER:
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
        if self.verdict == GAP:
            return ("left: .ioctl = %s is built for Linux %s and later kernels before %s, "
                    "which have no .ioctl: its guard should stop at 2.6.36 (today's kernels "
                    "do not build it)" % (self.handler, version_name(self.versions[0]),
                                          version_name(self.versions[-1])))
        return None


def judge(text, sites):
    """Give each Site of text its verdict; returns the macros to define
    again (those the file tests and does not define)."""
    cond = Conditionals(text)
    points = samples(text)
    own = {m for m in MACROS if m in cond.defines}
    restore = [m for m in MACROS if m not in own and cond.tests(m)]

    def built(site, restored):
        out = []
        for v in points:
            env = environment(v, restored)
            for m in own:
                # the file defines it itself, for the kernels that do not
                env[m] = env[m] or (1 if v >= UNLOCKED_SINCE else False)
            if taken(site.branches, Evaluator(env, FUNCTIONS, cond.defines)) != 0:
                out.append(v)
        return out

    for site in sites:
        now = built(site, False)
        if not now:
            site.verdict = NEVER
            continue
        gap = [v for v in now if v >= IOCTL_UNTIL]
        if not gap:
            site.verdict = OLD_ONLY
            continue
        after = [v for v in built(site, True) if v >= IOCTL_UNTIL]
        if restore and not after:
            site.verdict = RESTORE
        elif any(v >= TODAY for v in after):
            site.verdict = CONVERT
        else:
            # from the first version that builds it to the first one after
            # that does not
            upto = min(v for v in points if v > after[-1] and v not in after)
            site.verdict, site.versions = GAP, [after[0], upto]
    if not any(s.verdict == RESTORE for s in sites):
        restore = []
    return restore


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
    # LINUX_VERSION_CODE and KERNEL_VERSION(): among the includes, or above
    # the block in a file that has none
    if not re.search(r"^#\s*include\b", text, re.M):
        return text.replace(block, "#include <linux/version.h>\n\n" + block, 1)
    return add_include(text, "linux/version.h")


# An .ioctl or a BKL call that is left as it is hides from the semantic
# patches under another spelling (no such word is in the file), and gets its
# own back afterwards.
MASKS = {"ioctl": "i0ctl", "lock_kernel": "l0ck_kernel", "unlock_kernel": "unl0ck_kernel"}
IOCTL_DESIGNATOR_RE = re.compile(r"(?:\.\s*(ioctl)\s*=|^\s*(ioctl)\s*:)\s*(\w+)", re.M)
UNLOCKED_DESIGNATOR_RE = re.compile(r"(?:\.\s*unlocked_ioctl\s*=|^\s*unlocked_ioctl\s*:)\s*(\w+)",
                                    re.M)


def ioctl_sites(text):
    """A Site for each old .ioctl (either designator form) of each struct
    file_operations initialiser of text."""
    code = blank(text)
    cond = None
    sites = []
    for start, end in fops_bodies(text):
        for m in IOCTL_DESIGNATOR_RE.finditer(code, start, end):
            if cond is None:
                cond = Conditionals(text)
            at = m.start(1) if m.group(1) else m.start(2)
            shadow = [u.group(1) for u in UNLOCKED_DESIGNATOR_RE.finditer(code, start, end)
                      if not cond.exclusive(at, u.start(1))]
            sites.append(Site(at, m.group(3), cond.branches_at(at), shadow[0] if shadow else None))
    return sites


def assess(text):
    """The Sites of text, each with its verdict, and the macros to define
    again.  An .ioctl that today's kernels would build beside an
    .unlocked_ioctl of the same operations is SHADOWED."""
    sites = ioctl_sites(text)
    restore = judge(text, sites) if sites else []
    for s in sites:
        if s.shadow and s.verdict in (CONVERT, GAP):
            s.verdict = SHADOWED
    return sites, restore


def prepare(text):
    """What the file's preprocessor tests mean for its old .ioctl
    designators and BKL calls: (text to convert, notes, the macros defined
    again, the functions whose BKL calls must stay where they are).  The .ioctl of a
    site that today's kernels do not build, or that the VFS never called, is
    hidden from the semantic patches (unmask() gives it back), and the
    macros a RESTORE site needs are defined again."""
    sites, restore = assess(text)
    if not sites and "lock_kernel" not in text:
        return text, [], [], []
    if restore:
        # a file that changes anyway loses gcc's "field:" designators, which
        # sparse calls obsolete
        c99 = c99_designators(text)
        if c99 != text:
            text = c99
            sites, restore = assess(text)
    kept = [s for s in sites if s.verdict != CONVERT]
    calls = [c for c in bkl_calls(text, bool(restore)) if c.verdict != CONVERT]
    in_place = sorted({c.function for c in calls if c.verdict == IN_PLACE})
    notes = [c.why() for c in calls if c.verdict == IN_PLACE]
    calls = [c for c in calls if c.verdict != IN_PLACE]
    if (kept or calls) and any(m in text for m in MASKS.values()):
        raise RuntimeError("the file has one of the words %s, which bkl-migrate needs for "
                           "itself: convert it by hand" % ", ".join(sorted(MASKS.values())))
    for s in sorted(kept + calls, key=lambda s: -s.offset):
        word = s.word
        text = text[:s.offset] + MASKS[word] + text[s.offset + len(word):]
    notes += [s.why() for s in kept + calls]
    return restore_macros(text, restore), notes, restore, in_place


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
        if self.verdict == NEVER:
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
    points = samples(text)
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
        built = [v for v in points if taken(branches, Evaluator(
            environment(v, restored), FUNCTIONS, cond.defines)) != 0]
        if not built:
            call.verdict = NEVER
        elif all(v < BKL_UNTIL for v in built):
            call.verdict = OLD_ONLY
        elif call.inner:
            call.verdict = IN_PLACE
        else:
            call.verdict = CONVERT
        calls.append(call)
    return calls
