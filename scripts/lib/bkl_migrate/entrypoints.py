# SPDX-License-Identifier: GPL-2.0
"""The ioctl entry points of a driver, era by era: for each initialiser of a
struct file_operations, which .ioctl, .unlocked_ioctl and .compat_ioctl each
era of kernels compiles, read from the file's own #if tests and #defines and
from what each era gives them.

The eras are those of the facts: .unlocked_ioctl and .compat_ioctl came in
2.6.11 with HAVE_UNLOCKED_IOCTL and HAVE_COMPAT_IOCTL; .ioctl went in
2.6.36; Linux 5.9 (commit 4e24566a134e) dropped the two macros.  Within an
era, a file's tests are evaluated at every version where one of them can
change its outcome (each KERNEL_VERSION() it names, and the one before).
Macros nobody can know (CONFIG_*, a vendor's own) stay open; a vendor's
feature test named for one of the members (an autoconf
HAVE_KMEMB_STRUCT_FILE_OPERATIONS_IOCTL, HAVE_UNLOCKED_IOCTL_HANDLER,
HAVE_OLD_IOCTL) is read as what it tests: defined where the era has that
member.

model(text) gives one Initialiser per initialiser, each with its
designators and its table: {era name: {member: state}}, the state ALWAYS
(every kernel of the era compiles one), SOMETIMES (some do, or a macro
nobody knows decides) or NEVER.  lost(before, after) compares two texts'
tables: what the conversion steps must never do.
"""
import re

from bkl_users.csource import blank

from .csource import closing_brace
from .preprocessor import Conditionals, Evaluator, taken


def kernel_version(a, b, c=0):
    """KERNEL_VERSION(a, b, c) as the kernel computes it (c clamped to 255,
    as since 4.9.256)."""
    return (a << 16) + (b << 8) + min(c, 255)


def version_name(v):
    return "%d.%d.%d" % (v >> 16, (v >> 8) & 0xff, v & 0xff) if v & 0xff else \
        "%d.%d" % (v >> 16, (v >> 8) & 0xff)


UNLOCKED_SINCE = kernel_version(2, 6, 11)
IOCTL_UNTIL = kernel_version(2, 6, 36)
MACROS_UNTIL = kernel_version(5, 9, 0)
# the kernel's own macros, which 5.9 dropped
MACROS = ("HAVE_UNLOCKED_IOCTL", "HAVE_COMPAT_IOCTL")
MEMBERS = ("ioctl", "unlocked_ioctl", "compat_ioctl")
NEW_MEMBERS = ("unlocked_ioctl", "compat_ioctl")
FUNCTIONS = {"KERNEL_VERSION": kernel_version}
KERNEL_VERSION_RE = re.compile(r"KERNEL_VERSION\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)")


class Era:
    """Kernels first to last (None: to today), the members of struct
    file_operations they have, and the kernel's macros they define."""

    def __init__(self, name, first, last, members, macros):
        self.name, self.first, self.last = name, first, last
        self.members, self.macros = frozenset(members), tuple(macros)

    def __contains__(self, version):
        return self.first <= version and (self.last is None or version <= self.last)

    def __repr__(self):
        return "Era(%s)" % self.name


ERAS = (
    Era("before 2.6.11", kernel_version(2, 0, 0), UNLOCKED_SINCE - 1, ("ioctl",), ()),
    Era("2.6.11 to 2.6.35", UNLOCKED_SINCE, IOCTL_UNTIL - 1, MEMBERS, MACROS),
    Era("2.6.36 to 5.8", IOCTL_UNTIL, MACROS_UNTIL - 1, NEW_MEMBERS, MACROS),
    Era("5.9 and later", MACROS_UNTIL, None, NEW_MEMBERS, ()),
)
OLD, UNLOCKED, NO_IOCTL, TODAY = ERAS
# the facts' own versions, sampled in every file
FIXED_VERSIONS = ((2, 6, 10), (2, 6, 11), (2, 6, 35), (2, 6, 36), (2, 6, 38), (2, 6, 39),
                  (3, 0, 0), (5, 8, 0), (5, 9, 0), (6, 1, 0), (6, 12, 0))

ALWAYS, SOMETIMES, NEVER = "always", "sometimes", "never"
RANK = {NEVER: 0, SOMETIMES: 1, ALWAYS: 2}


def era_of(version):
    for era in ERAS:
        if version in era:
            return era
    return None


def samples(text):
    """The versions at which the file's tests can change their outcome: each
    KERNEL_VERSION() it names and the one before, and those of the facts."""
    points = {kernel_version(*v) for v in FIXED_VERSIONS}
    for m in KERNEL_VERSION_RE.finditer(text):
        v = kernel_version(*map(int, m.groups()))
        points |= {v, v - 1}
    return sorted(p for p in points if era_of(p))


# A vendor's test of one member of struct file_operations, by its name:
# (pattern, member).  The kernel's own two macros are not among them: 5.9
# dropped them though the members stayed.
FEATURE_TESTS = (
    (re.compile(r"^HAVE_\w*UNLOCKED_IOCTL\w*$"), "unlocked_ioctl"),
    (re.compile(r"^HAVE_\w*COMPAT_IOCTL\w*$"), "compat_ioctl"),
    (re.compile(r"^HAVE_(?:\w*_)?(?:OLD|LOCKED|BKL|FOPS|FILE_OPERATIONS|KMEMB_STRUCT_FILE_"
                r"OPERATIONS)_IOCTL$|^HAVE_IOCTL$"), "ioctl"),
)


def feature_member(macro):
    """The member of struct file_operations that a vendor's feature test
    named macro tests the presence of, or None."""
    if macro in MACROS:
        return None
    for pattern, member in FEATURE_TESTS:
        if pattern.match(macro):
            return member
    return None


def environment(version, features=(), restored=()):
    """What a kernel of version gives the preprocessor: LINUX_VERSION_CODE,
    the kernel's macros (those of restored defined again from 5.9 on) and
    the vendor's feature tests (features: {macro: member})."""
    era = era_of(version)
    env = {"LINUX_VERSION_CODE": version}
    for macro in MACROS:
        have = macro in era.macros or (macro in restored and version >= UNLOCKED_SINCE)
        env[macro] = 1 if have else False
    for macro, member in dict(features).items():
        env[macro] = 1 if member in era.members else False
    return env


class Designator:
    """One .member = handler of an initialiser: where, which, and the #if
    branches it is in; macro: the name of the file's macro that spells
    the member (#define FOO_IOCTL_MEMBER .ioctl, one per branch), if any."""

    def __init__(self, member, handler, offset, branches, macro=None):
        self.member, self.handler, self.offset = member, handler, offset
        self.branches, self.macro = branches, macro

    def __repr__(self):
        return ".%s = %s" % (self.member, self.handler)


class Initialiser:
    """One initialiser of a struct file_operations: its name, where its body
    is, its designators of the three members, and its table: {era name:
    {member: ALWAYS, SOMETIMES or NEVER}}, with states{} the same for each
    designator ({era name: [state of each designator]})."""

    def __init__(self, name, start, end, designators):
        self.name, self.start, self.end = name, start, end
        self.designators = designators
        self.table, self.states = {}, {}

    def state(self, era, member):
        return self.table[era.name][member]

    def handlers(self, era, member):
        """The handlers that era may compile for member."""
        return [d.handler for d, s in zip(self.designators, self.states[era.name])
                if d.member == member and s != NEVER]

    def __repr__(self):
        return "Initialiser(%s)" % self.name


DESIGNATOR_RE = re.compile(r"(?:\.\s*(%s)\s*=|^\s*(%s)\s*:)\s*(\w+)"
                           % ("|".join(MEMBERS), "|".join(MEMBERS)), re.M)


FOPS_RE = re.compile(r"\bstruct\s+file_operations\s+(\w+)(?:\s*\[[^]]*\])?\s*=\s*\{")


def initialisers(text, cond=None):
    """The Initialisers of text, their designators read, no table yet."""
    code = blank(text)
    out = []
    for m in FOPS_RE.finditer(code):
        end = closing_brace(code, m.end() - 1)
        if end is None:
            continue
        found = []
        for d in DESIGNATOR_RE.finditer(code, m.end(), end):
            if cond is None:
                cond = Conditionals(text)
            member = d.group(1) or d.group(2)
            at = d.start(1) if d.group(1) else d.start(2)
            found.append(Designator(member, d.group(3), at, cond.branches_at(at)))
        if "#" in text and re.search(r"^\s*#\s*define\s+\w+\s+\.\s*(?:%s)\s*$"
                                     % "|".join(MEMBERS), text, re.M):
            if cond is None:
                cond = Conditionals(text)
            found += macro_designators(code, cond, m.end(), end)
        out.append(Initialiser(m.group(1), m.end(), end, found))
    return out


MACRO_DESIGNATOR_RE = re.compile(r"(?<![.\w])([A-Z_][A-Z0-9_]*)\s*=\s*(\w+)")


def macro_designators(code, cond, start, end):
    """The designators between start and end whose member a macro of the
    file spells (netmap's LIN_IOCTL_NAME = linux_netmap_ioctl): one for
    each #define of it, in the branches of both."""
    found = []
    for d in MACRO_DESIGNATOR_RE.finditer(code, start, end):
        for body, branches in cond.defines.get(d.group(1), []):
            member = re.match(r"\.\s*(%s)$" % "|".join(MEMBERS), body)
            if member:
                found.append(Designator(member.group(1), d.group(2), d.start(1),
                                        cond.branches_at(d.start(1)) + list(branches),
                                        d.group(1)))
    return found


def tested_macros(cond):
    """The macros the directives of a file test, and the file does not
    define."""
    seen, out = set(), set()
    for _, branches in cond.lines:
        for br in branches:
            if br not in seen:
                seen.add(br)
                out |= set(re.findall(r"\b[A-Za-z_]\w*\b", br.expr or ""))
    return out - set(cond.defines)


def features(cond):
    """{macro: member} of the vendor's feature tests a file makes."""
    return {m: feature_member(m) for m in tested_macros(cond) if feature_member(m)}


def combine(values):
    """The state of an era from the outcome (1, 0 or None) at each of its
    sampled versions."""
    if values and all(v == 1 for v in values):
        return ALWAYS
    if all(v == 0 for v in values):
        return NEVER
    return SOMETIMES


def evaluators(text, cond, restored=()):
    """(version, Evaluator) at each sampled version of text (cond: its
    Conditionals; restored: the kernel's macros defined again from 5.9 on)."""
    feats = features(cond)
    # a file that defines the kernel's macros itself, for the kernels that
    # do not, has them from 2.6.11 on
    restored = set(restored) | {m for m in MACROS if m in cond.defines}
    return [(v, Evaluator(environment(v, feats, restored), FUNCTIONS, cond.defines))
            for v in samples(text)]


def compiled_at(text, branches, restored=()):
    """The sampled versions of text at which a line in branches may be
    compiled."""
    return [v for v, ev in evaluators(text, Conditionals(text), restored)
            if taken(branches, ev) != 0]


def model(text, restored=()):
    """The Initialisers of text, each with its table (restored: the kernel's
    macros defined again from 5.9 on, as versions.restore_macros() does)."""
    cond = Conditionals(text)
    inits = initialisers(text, cond)
    if not inits:
        return inits
    evs = evaluators(text, cond, restored)
    for init in inits:
        for era in ERAS:
            mine = [ev for v, ev in evs if v in era]
            states = [combine([taken(d.branches, ev) for ev in mine]) for d in init.designators]
            init.states[era.name] = states
            row = {}
            for member in MEMBERS:
                mine = [s for d, s in zip(init.designators, states) if d.member == member]
                row[member] = max(mine, key=RANK.get) if mine else NEVER
            init.table[era.name] = row
    return inits


HEAD_RE = r"^[\w \t*]*\b%s\s*\([^;{}]*\)\s*(?=[^\s;,)])"


def definition_state(text, name, era, restored=()):
    """Whether era compiles a definition of name in text (ALWAYS,
    SOMETIMES or NEVER), or None where text defines none."""
    cond = Conditionals(text)
    heads = [m.start() for m in re.finditer(HEAD_RE % re.escape(name), blank(text), re.M)]
    if not heads:
        return None
    values = []
    for v, ev in evaluators(text, cond, restored):
        if v not in era:
            continue
        outs = [taken(cond.branches_at(h), ev) for h in heads]
        values.append(1 if 1 in outs else 0 if all(o == 0 for o in outs) else None)
    return combine(values)


def undefined_today(text, restored=(), inits=None):
    """(operations, handler) of each handler that operations of text name
    on 5.9 and later, that text defines, but only under tests that 5.9 and
    later do not take (a head split by #ifdef HAVE_UNLOCKED_IOCTL that
    names it in one branch only).  inits: model(text, restored), where the
    caller has it."""
    cond = Conditionals(text)
    code = blank(text)
    evs = [ev for v, ev in evaluators(text, cond, restored) if v in TODAY]
    out = []
    for init in inits if inits is not None else model(text, restored):
        for name in sorted(set(init.handlers(TODAY, "unlocked_ioctl") +
                               init.handlers(TODAY, "compat_ioctl"))):
            heads = [m.start() for m in re.finditer(HEAD_RE % re.escape(name), code, re.M)]
            if heads and not any(taken(cond.branches_at(h), ev) != 0
                                 for h in heads for ev in evs):
                out.append((init.name, name))
    return out


def entry(init, era):
    """The state of the entry point init gives era: its .unlocked_ioctl, or
    in an era that has it, its .ioctl."""
    states = [init.state(era, "unlocked_ioctl")]
    if "ioctl" in era.members:
        states.append(init.state(era, "ioctl"))
    return max(states, key=RANK.get)


def lost(before, after, kernel=None):
    """What after, a conversion of before, loses or breaks, initialiser by
    initialiser (matched by name and order): a list of sentences, empty
    when every era from 2.6.11 (or the tree's own, kernel) keeps its entry
    points, and no era from 2.6.36 compiles an .ioctl that before did not
    (a driver that had an entry point anywhere has one on 5.9 and later)."""
    old, new = model(before), model(after)
    had = undefined_today(before, inits=old)
    problems = ["%s: %s, which Linux 5.9 and later name, is not defined for them" % pair
                for pair in undefined_today(after, inits=new) if pair not in had]
    pairs = {}
    for init in old:
        pairs.setdefault(init.name, []).append(init)
    seen = {}
    for init in new:
        k = seen.get(init.name, 0)
        seen[init.name] = k + 1
        olds = pairs.get(init.name, [])
        if k < len(olds):
            problems += compare(olds[k], init, kernel)
    return problems


def compare(old, new, kernel=None):
    """What new, the same initialiser after the conversion, loses of old: on
    each era from 2.6.11 (or the tree's own, kernel) its entry point and its
    .unlocked_ioctl and .compat_ioctl; and an .ioctl that today's kernels,
    or 2.6.36 and later where old did not, would build."""
    eras = [era_of(kernel)] if kernel else [UNLOCKED, NO_IOCTL, TODAY]
    out = []
    for era in eras:
        for member in [m for m in NEW_MEMBERS if m in era.members]:
            want, got = old.state(era, member), new.state(era, member)
            if RANK[got] < RANK[want]:
                out.append("%s: .%s, which Linux %s had (%s), is %s"
                           % (old.name, member, era.name, want, got))
        if RANK[entry(new, era)] < RANK[entry(old, era)] and not out:
            out.append("%s: the ioctl entry point of Linux %s (%s) is %s"
                       % (old.name, era.name, entry(old, era), entry(new, era)))
        if "ioctl" not in era.members and new.state(era, "ioctl") != NEVER and \
           (era is TODAY or old.state(era, "ioctl") == NEVER):
            out.append("%s: Linux %s would build an .ioctl, which it does not have"
                       % (old.name, era.name))
    if not kernel:
        had = max((entry(old, e) for e in ERAS if e is not OLD), key=RANK.get)
        if RANK[entry(new, TODAY)] < RANK[had] and not out:
            out.append("%s: its ioctl entry point (%s on some kernel) is %s on Linux 5.9 and "
                       "later" % (old.name, had, entry(new, TODAY)))
    return out
