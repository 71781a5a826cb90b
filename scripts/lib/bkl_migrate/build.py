# SPDX-License-Identifier: GPL-2.0
"""--build: compile each converted file in a configured build directory and
keep only what compiles.  --check-build: compile a driver's files as its
vendor does, against a distribution's headers with the layer's
out-of-tree build, and tell this tool's errors from the rest."""
import os
import re
import shutil
import subprocess
import tempfile

from . import UsageError
from .entrypoints import initialisers
from .files import read


def build_arch(build):
    """ARCH for make in a configured build directory."""
    if os.environ.get("ARCH"):
        return os.environ["ARCH"]
    try:
        with open(os.path.join(build, ".config")) as f:
            if re.search(r"^CONFIG_UML=y$", f.read(), re.M):
                return "um"
    except OSError:
        pass
    return None


def compile_ok(build, path):
    """Compile path in the configured kernel build directory build: (ok, why)."""
    src = os.path.realpath(os.path.join(build, "source"))
    if not os.path.isfile(os.path.join(src, "Makefile")):
        src = os.path.realpath(build)
    obj = os.path.splitext(os.path.basename(path))[0] + ".o"
    rel = os.path.relpath(os.path.realpath(path), src)
    cmd = ["make", "-s", "-C", src, "O=" + os.path.realpath(build)]
    if rel.startswith(".." + os.sep):
        cmd += ["M=" + os.path.dirname(os.path.realpath(path)), obj]
    else:
        cmd.append(os.path.join(os.path.dirname(rel), obj))
    arch = build_arch(build)
    if arch:
        cmd.append("ARCH=" + arch)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, check=False)
    if cmd[-2 if arch else -1] == obj:
        # M= builds write beside the source: take away what this one left.
        d = os.path.dirname(os.path.realpath(path))
        for junk in (obj, "." + obj + ".cmd", "." + obj + ".d"):
            if os.path.exists(os.path.join(d, junk)):
                os.remove(os.path.join(d, junk))
    if proc.returncode == 0:
        return True, ""
    errors = [line for line in proc.stdout.splitlines() if "error:" in line]
    return False, (errors[0] if errors else proc.stdout.strip()[-300:])


def build_check(build, results, groups, writes, tree):
    """--build: compile each converted C file in the configured build
    directory build, written with the rest of its group (a handler shared
    by several files, the headers of a handler that lost its inode).  What
    does not compile is put back as it was, with its whole group, and
    becomes a failure in results; what compiles stays written."""
    units, grouped = [], set()
    for members in groups.values():
        units.append(sorted(members))
        grouped |= set(members)
    units += [[f] for f, r in sorted(results.items())
              if f.endswith(".c") and f not in grouped and not isinstance(r, Exception)
              and r.how]
    for members in units:
        if any(isinstance(results[m], Exception) for m in members):
            continue
        for m in members:
            writes.write(m, results[m].text)
        for m in members:
            ok, why = (True, "") if not m.endswith(".c") else compile_ok(build, m)
            if ok:
                continue
            for n in members:
                writes.restore(n)
                results[n] = RuntimeError("%sdoes not compile: %s" % (
                    "a group: %s " % os.path.relpath(m, tree) if len(members) > 1 else "",
                    why))
            break


# --check-build: the files as a vendor builds them, against a distribution's
# headers or any kernel build, with the layer's out-of-tree build.

# What an error must name to be this tool's: an ioctl member, the BKL, the
# layer, or the macros 5.9 dropped.
OURS_RE = re.compile(
    r"has no member named .(?:ioctl|unlocked_ioctl|compat_ioctl|locked_ioctl).|"
    r"near initialization for .[\w.]*\.(?:ioctl|unlocked_ioctl|compat_ioctl|locked_ioctl).|"
    r"\b(?:lock_kernel|unlock_kernel|kernel_locked|cycle_kernel_lock|smp_lock\.h|"
    r"DEFINE_BKL_\w+|DEFINE_LOCKED_\w+|DEFINE_DRIVER_LOCK_USER|DEFINE_GUARDED_IOCTL\w*|"
    r"lock_kernel_user|unlock_kernel_user|driver_lock_user\w*|deprecated_(?:compat_)?ioctl|"
    r"locked_ioctl\.h|bkl_user\.h|HAVE_UNLOCKED_IOCTL|HAVE_COMPAT_IOCTL|\w+_bkl(?:_user\d*)?)\b")
UNDECLARED_RE = re.compile(r"[\'\u2018](\w+)[\'\u2019] undeclared")
DIAGNOSTIC_RE = re.compile(r"^(.*?):(\d+):(\d+): (?:fatal )?(error|warning): (.*)$", re.M)


def layer_dir(kdir, layer):
    """The directory of the layer's out-of-tree build to build against, or
    None when kdir's kernel has the layer; raises UsageError when neither."""
    if layer:
        if not os.path.isfile(os.path.join(layer, "locked-ioctl.mk")):
            raise UsageError("%s: not a build of the layer's modules (no locked-ioctl.mk): "
                             "'make modules KDIR=%s' prints one" % (layer, kdir))
        return os.path.realpath(layer)
    for src in (kdir, os.path.join(kdir, "source")):
        if os.path.isfile(os.path.join(src, "include", "linux", "locked_ioctl.h")):
            return None
    raise UsageError("%s has no locked-ioctl layer: give the directory 'make modules "
                     "KDIR=%s' prints with --layer (or LOCKED_IOCTL)" % (kdir, kdir))


def handler_names(text):
    """The functions that the file's operations name as ioctl entry points."""
    return {d.handler for i in initialisers(text) for d in i.designators}


def ours(message, handlers):
    """Whether a compiler's message is about what this tool does: an ioctl
    member, the BKL, the layer, or an entry point handler it cannot find."""
    if OURS_RE.search(message):
        return True
    m = UNDECLARED_RE.search(message)
    return bool(m and m.group(1) in handlers)


def check_build(kdir, layer, files, tree):
    """Compile each C file of files as it is on disk, as an external module
    object against kdir with the layer (its headers and CONFIG_BKL_MODULE,
    as locked-ioctl.mk gives them): {path: (our errors, other errors)},
    each a list of "line: message".  The driver's tree (or, in a kernel
    tree, each file's directory) is built in a copy, so that its relative
    includes hold: each directory with its own Kbuild or Makefile where it
    has one (the vendor's flags, its configure's results), else with one
    that names the files, and the tree's include/ on the include path."""
    kdir = os.path.realpath(kdir)
    results = {}
    by_dir = {}
    for f in files:
        if f.endswith(".c"):
            by_dir.setdefault(os.path.dirname(f), []).append(f)
    whole = not os.path.exists(os.path.join(tree, "Kbuild")) or \
        not os.path.exists(os.path.join(tree, "scripts", "Makefile.build"))
    with tempfile.TemporaryDirectory(prefix="bkl-migrate-build.") as tmp:
        top = os.path.join(tmp, "src")
        for d, members in sorted(by_dir.items()):
            # the whole tree, copied once, or each directory alone
            alone = not (whole and os.path.commonpath([tree, d]) == tree)
            base = d if alone else tree
            if not os.path.exists(top):
                shutil.copytree(base, top, symlinks=True, ignore=shutil.ignore_patterns(
                    "*.o", "*.ko", "*.mod*", ".*.cmd", ".git"))
            copy = os.path.join(top, os.path.relpath(d, base))
            objs = [os.path.splitext(os.path.basename(f))[0] + ".o" for f in members]
            out = compile_objects(kdir, layer, copy, objs, top)
            if not any(os.path.exists(os.path.join(copy, o)) for o in objs) and \
               not DIAGNOSTIC_RE.search(out):
                # the driver's own build did not get as far as compiling
                for own in ("Kbuild", "Makefile"):
                    if os.path.exists(os.path.join(copy, own)):
                        os.rename(os.path.join(copy, own), os.path.join(copy, own + ".orig"))
                out = compile_objects(kdir, layer, copy, objs, top)
            for f, o in zip(members, objs):
                results[f] = classify(out, f, os.path.exists(os.path.join(copy, o)))
            if alone:
                shutil.rmtree(top)
    return results


def compile_objects(kdir, layer, src, objs, top):
    """make objs in the external module directory src (in the copy top)
    against kdir, with the layer's headers and options; its output.  A
    directory without a Kbuild or Makefile gets one that names objs."""
    if not any(os.path.exists(os.path.join(src, own)) for own in ("Kbuild", "Makefile")):
        with open(os.path.join(src, "Kbuild"), "w") as kb:
            kb.write("obj-m := %s\n" % " ".join(objs))
    # the user's KCFLAGS first: a driver's include directories, which its
    # own build would give
    flags = "%s -I%s -I%s/include -I%s" % (os.environ.get("KCFLAGS", ""), src, top, top)
    cmd = ["make", "-C", kdir, "M=" + src, "-k"]
    if layer:
        cmd.append("LOCKED_IOCTL=" + layer)
        flags += " -I%s/include -DCONFIG_BKL_MODULE=1" % layer
    # gcc's messages in ASCII quotes, whatever the user's locale (kbuild
    # unexports LC_ALL)
    return subprocess.run(cmd + ["KCFLAGS=" + flags] + objs, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace", check=False,
                          env=dict(os.environ, LANG="C", LC_CTYPE="C",
                                   LC_MESSAGES="C")).stdout


# kbuild's line for an object it compiles, which its diagnostics follow
CC_RE = re.compile(r"^\s+CC \[M\]\s+(\S+)\.o$")


def diagnostics_of(out, base):
    """The errors of the build output out for the object of base (the C
    file's name): those in the file itself, and those its compilation gave
    in the headers it includes (after kbuild's "CC" line for it)."""
    obj, found = None, []
    for line in out.splitlines():
        cc = CC_RE.match(line)
        if cc:
            obj = os.path.basename(cc.group(1)) + ".c"
            continue
        m = DIAGNOSTIC_RE.match(line)
        if m and m.group(4) == "error" and base in (obj, os.path.basename(m.group(1))):
            found.append(m)
    return found


def classify(out, f, built):
    """(our errors, other errors) of the build output out about file f
    (built: whether its object was made), "line: message" each, the line
    prefixed with its file where that is a header."""
    base = os.path.basename(f)
    handlers = handler_names(read(f))
    errors = diagnostics_of(out, base)

    def where(m):
        name = os.path.basename(m.group(1))
        return m.group(2) if name == base else "%s:%s" % (name, m.group(2))
    # what follows from one of ours on its line is ours too (a member that
    # is not there: the initialisation after it)
    lines = {where(m) for m in errors if ours(m.group(5), handlers)}
    mine = ["%s: %s" % (where(m), m.group(5)) for m in errors if where(m) in lines]
    other = ["%s: %s" % (where(m), m.group(5)) for m in errors if where(m) not in lines]
    if not built and not errors:
        other.append("does not compile: %s" % out.strip()[-300:])
    return mine, other
