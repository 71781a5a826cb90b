# SPDX-License-Identifier: GPL-2.0
#
# The claims of the target manifest, checked against an unmodified tree.
"""Check what tools/locked-ioctl/targets says protects each target.

  claims TREE [MANIFEST]

For each target file of MANIFEST (default: tools/locked-ioctl/targets)
that TREE has:
  - the "protection" column's line is in the file it names;
  - a target with nothing to migrate ("none") has no candidate of
    scripts/bkl-users: no mutex held as the BKL pushdown left one;
  - the "compat" column is true: "-" means no .compat_ioctl; "native" means
    each .compat_ioctl is compat_ptr_ioctl(), a native ioctl of the file,
    or a function of the file that calls one; "own: FUNCTION: TEXT" means
    FUNCTION is a .compat_ioctl and TEXT (its lock) is in the file; "core:
    FILE: TEXT" means the file has no .compat_ioctl and TEXT (the core's
    call of the native ioctl) is in FILE;
  - "arch", "defconfig" and "module" agree with "migration": a converted
    or annotated target is built somewhere (x86_64, or another architecture
    with its defconfig), with "m" or "y"; any other has "-" in all three.

Prints one line per false claim.  Exit codes: 0 all true, 1 a claim is
false, 2 usage error.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "scripts", "lib"))
from bkl_users.candidates import candidates, pushdown_locks  # noqa: E402
from bkl_users.csource import blank, functions  # noqa: E402
from cross_compilers import cross_compilers  # noqa: E402

COMPAT_RE = re.compile(r"\.\s*compat_ioctl\s*=\s*(\w+)")
NATIVE_RE = re.compile(r"\.\s*(?:unlocked_ioctl|ioctl)\s*=\s*(\w+)")
GENERIC_COMPAT = {"compat_ptr_ioctl", "blkdev_compat_ptr_ioctl"}
# the architectures make check-cross has a compiler for
CROSS_ARCHES = set(cross_compilers())


def where(tree, default, claim):
    """(path, text) of a claim "TEXT" or "FILE: TEXT"."""
    m = re.match(r"(drivers/\S+\.c): (.*)$", claim)
    if m:
        return os.path.join(tree, m.group(1)), m.group(2)
    return os.path.join(tree, default), claim


def has_text(path, text):
    try:
        with open(path, errors="replace") as f:
            return text in f.read()
    except OSError:
        return False


def check_compat(tree, rel, claim, code):
    compats = set(COMPAT_RE.findall(code))
    if claim == "-":
        return ["has .compat_ioctl = %s, manifest says none" % ", ".join(sorted(compats))] \
            if compats else []
    if claim == "native":
        natives = set(NATIVE_RE.findall(code))
        bodies = {name: code[s:e] for name, _, s, e in functions(code)}
        bad = []
        for c in sorted(compats):
            calls = set(re.findall(r"\b(\w+)\s*\(", bodies.get(c, "")))
            if c not in GENERIC_COMPAT | natives and not calls & natives:
                bad.append(".compat_ioctl = %s is not the native path" % c)
        return bad if compats else ["no .compat_ioctl, manifest says native"]
    m = re.match(r"core: (\S+\.c): (.*)$", claim)
    if m:
        bad = ["has .compat_ioctl = %s, manifest says the core's" % c for c in sorted(compats)]
        if not has_text(os.path.join(tree, m.group(1)), m.group(2)):
            bad.append("core's compat call %r not in %s" % (m.group(2), m.group(1)))
        return bad
    m = re.match(r"own: (\w+): (.*)$", claim)
    if not m:
        return ["compat column %r: not -, native, own: FUNCTION: TEXT or core: FILE: TEXT"
                % claim]
    bad = []
    if m.group(1) not in compats:
        bad.append("%s is no .compat_ioctl" % m.group(1))
    path, text = where(tree, rel, m.group(2))
    if not has_text(path, text):
        bad.append("compat lock %r not in %s" % (text, os.path.relpath(path, tree)))
    return bad


def check_build(migration, arch, defconfig, module):
    """What is false of the build columns of a row."""
    if migration not in ("converted", "annotated"):
        return [] if (arch, defconfig, module) == ("-", "-", "-") else \
            ["migration %s, but built for %s" % (migration, arch)]
    if module not in ("m", "y"):
        return ["migration %s, module %r: not m or y" % (migration, module)]
    if arch == "x86_64":
        return [] if defconfig == "-" else ["x86_64 (the QEMU guests' kernel), defconfig %r"
                                            % defconfig]
    if arch not in CROSS_ARCHES:
        return ["migration %s, arch %r: not x86_64 or one of %s"
                % (migration, arch, ", ".join(sorted(CROSS_ARCHES)))]
    if not re.match(r"\w+_defconfig: [A-Z0-9_]+( [A-Z0-9_]+)*$", defconfig):
        return ["arch %s, defconfig %r: not DEFCONFIG: OPTION..." % (arch, defconfig)]
    return []


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help") or len(argv) > 3:
        print(__doc__, file=sys.stderr if len(argv) < 2 else sys.stdout)
        return 0 if len(argv) >= 2 and argv[1] in ("-h", "--help") else 2
    tree = argv[1]
    manifest = argv[2] if len(argv) > 2 else os.path.join(REPO, "tools", "locked-ioctl", "targets")
    if not os.path.isfile(os.path.join(tree, "Kconfig")):
        print("claims: %s is not a kernel tree" % tree, file=sys.stderr)
        return 2
    bad, n = [], 0
    with open(manifest) as f:
        rows = [l.rstrip("\n").split("\t") for l in f if l.strip() and not l.startswith("#")]
    for row in rows:
        if len(row) != 10:
            bad.append("%s: %d fields, not 10" % (row[0], len(row)))
            continue
        _, rel, _, migration, _, protection, compat, arch, defconfig, module = row
        bad += ["%s: %s" % (row[0], b) for b in check_build(migration, arch, defconfig, module)]
        if rel == "-":
            continue
        path = os.path.join(tree, rel)
        if not os.path.isfile(path):
            continue
        n += 1
        with open(path, errors="replace") as f:
            code = blank(f.read())
        m = re.match(r"(driver mutex|device lock|subsystem lock|no ioctl): (.*)$", protection)
        if not m:
            bad.append("%s: protection %r: not KIND: TEXT" % (rel, protection))
        else:
            p, text = where(tree, rel, m.group(2))
            if not has_text(p, text):
                bad.append("%s: %r not in %s" % (rel, text, os.path.relpath(p, tree)))
            if (m.group(1) == "driver mutex") != (migration in ("converted", "annotated")):
                bad.append("%s: a %s, migration %s" % (rel, m.group(1), migration))
        if migration == "none":
            found = candidates(code) + pushdown_locks(code)
            bad += ["%s: nothing to migrate, but bkl-users finds %s taking %s"
                    % (rel, name, lock) for name, _, lock in found]
        bad += ["%s: %s" % (rel, b) for b in check_compat(tree, rel, compat, code)]
    for b in bad:
        print(b)
    print("claims: %d targets, %d false claims" % (n, len(bad)))
    return 1 if bad else 0

