# SPDX-License-Identifier: GPL-2.0
"""--build: compile each converted file in a configured build directory and
keep only what compiles."""
import os
import re
import subprocess


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
