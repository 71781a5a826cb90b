# SPDX-License-Identifier: GPL-2.0
"""check-legacy's link check of the converted files of 2.6.34: compiling
each file alone cannot see a wrapper that a header declares and no file
defines any more (the lost edit of dvbdev.c).  From the objects (nm), every
symbol that a converted object needs and the stock one did not is defined
by another converted object, or exported by the layer or by the kernel
itself, and exported where the two objects go into different modules."""
import os
import re
import subprocess

# nm -P: name, type, ...
NM_LINE = re.compile(r"^(\S+) ([A-Za-z]) ")
EXPORT_RE = re.compile(r"^\s*EXPORT_SYMBOL(?:_GPL)?\(\s*(\w+)\s*\)", re.M)
TRACEPOINT_RE = re.compile(r"^\s*EXPORT_TRACEPOINT_SYMBOL(?:_GPL)?\(\s*(\w+)\s*\)", re.M)


class Symbols:
    """What one object defines (globally), needs and exports."""

    def __init__(self, obj):
        out = subprocess.run(["nm", "-P", obj], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, check=False).stdout
        self.defined, self.undefined, self.exported = set(), set(), set()
        for line in out.splitlines():
            m = NM_LINE.match(line)
            if not m:
                continue
            name, kind = m.groups()
            if kind == "U":
                self.undefined.add(name)
                continue
            # the export table's entries are local symbols
            if name.startswith("__ksymtab_"):
                self.exported.add(name[len("__ksymtab_"):])
            if kind.isupper():
                self.defined.add(name)


def objects(build, files):
    """{file: Symbols} of the objects of files (C files) in build that exist."""
    out = {}
    for f in files:
        obj = os.path.join(build, f[:-2] + ".o")
        if f.endswith(".c") and os.path.isfile(obj):
            out[f] = Symbols(obj)
    return out


def kernel_exports(tree):
    """The symbols the tree's own C sources export (EXPORT_SYMBOL*(),
    EXPORT_PER_CPU_SYMBOL*()): what a converted object may need of the
    kernel, mutex_lock() or current_task through the layer's inline
    functions."""
    out = subprocess.run(["grep", "-rhoE", "--include=*.c",
                          r"EXPORT_(PER_CPU_)?SYMBOL(_GPL)?\(\s*\w+\s*\)", tree],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                         errors="replace", check=False).stdout
    return set(re.findall(r"\(\s*(\w+)\s*\)", out))


def layer_exports(repo):
    """The symbols the layer's own sources export (lib/*.c)."""
    names = set()
    lib = os.path.join(repo, "lib")
    for name in sorted(os.listdir(lib)):
        if name.endswith(".c"):
            with open(os.path.join(lib, name)) as f:
                text = f.read()
            names |= set(EXPORT_RE.findall(text))
            names |= {"__tracepoint_" + t for t in TRACEPOINT_RE.findall(text)}
    return names


def problems(stock, ours, module_of, layer):
    """Lines that name each symbol a converted object newly needs and that
    no converted object defines (nor the layer or the kernel exports; layer:
    those names), or that another module defines without exporting.
    stock, ours: {file: Symbols}; module_of(file): the module the file goes
    into."""
    definers = {}
    for f, syms in ours.items():
        for s in syms.defined:
            definers.setdefault(s, []).append(f)
    out = []
    for f, syms in sorted(ours.items()):
        before = stock[f].undefined if f in stock else set()
        for s in sorted(syms.undefined - before):
            if s in layer:
                continue
            where = sorted(d for d in definers.get(s, []) if d != f)
            if not where:
                out.append("%s needs %s, which no converted file defines" % (f, s))
            elif len(where) > 1:
                out.append("%s needs %s, which %s all define" % (f, s, ", ".join(where)))
            elif module_of(where[0]) != module_of(f) and s not in ours[where[0]].exported:
                out.append("%s (module %s) needs %s from %s (module %s), which does not "
                           "export it" % (f, module_of(f), s, where[0], module_of(where[0])))
    return out
