# SPDX-License-Identifier: GPL-2.0
"""Which Kconfig symbol builds a file, from the Makefiles of its tree."""
import os
import re


class Kbuild:
    """Which Kconfig symbol builds a file, and its KBUILD_MODNAME, from the
    Makefiles of the tree."""

    def __init__(self, root):
        self.root = root
        self.cache = {}

    def rules(self, directory):
        if directory in self.cache:
            return self.cache[directory]
        rules = []
        for mk in ("Kbuild", "Makefile"):
            path = os.path.join(self.root, directory, mk)
            if not os.path.isfile(path):
                continue
            with open(path, errors="replace") as f:
                text = f.read().replace("\\\n", " ")
            for line in text.splitlines():
                m = re.match(r"\s*([\w-]+?)-(y|m|objs|\$\(CONFIG_(\w+)\))\s*[:+]?=\s*(.*)",
                             line)
                if m:
                    target, sym, items = m.group(1), m.group(3), m.group(4)
                    rules.append((target, sym, items.split()))
            break
        self.cache[directory] = rules
        return rules

    def lookup(self, relpath):
        """(Kconfig symbol or "", module name) of a .c file."""
        directory, base = os.path.split(relpath)
        obj = os.path.splitext(base)[0] + ".o"
        module = os.path.splitext(base)[0]
        for _ in range(3):
            for target, sym, items in self.rules(directory):
                if obj in items and target not in ("obj", "lib", "ccflags",
                                                   "subdir"):
                    module, obj = target, target + ".o"
                    break
            else:
                break
        for target, sym, items in self.rules(directory):
            if target in ("obj", "lib") and obj in items:
                return (sym or self.dir_symbol(directory)), module
        return "", module

    def dir_symbol(self, directory):
        parent, name = os.path.split(directory)
        if not name:
            return ""
        for target, sym, items in self.rules(parent):
            if target == "obj" and (name + "/") in items:
                return sym or self.dir_symbol(parent)
        return ""


def find_root(path):
    """The kernel tree a path is in, or None.  (A tree that only mirrors a
    kernel's layout, as locked-ioctl's own does, has no arch/.)"""
    d = os.path.abspath(path if os.path.isdir(path) else os.path.dirname(path))
    while True:
        if all(os.path.exists(os.path.join(d, p))
               for p in ("Kconfig", "Makefile", "include/linux", "scripts", "arch")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent
