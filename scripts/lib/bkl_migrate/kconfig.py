# SPDX-License-Identifier: GPL-2.0
"""The Kconfig entry of a converted file: "depends on BKL"."""
import glob
import os
import re

from bkl_users.kbuild import Kbuild

from .files import read


def needs_bkl(how):
    return any(h.startswith(("DEFINE_BKL_IOCTL", "DEFINE_BKL_UNLOCKED_IOCTL",
                             "DEFINE_BKL_SHIM_USER", "DEFINE_BKL_USER")) for h in how)


def kconfig_symbol(path):
    """The Kconfig symbol that builds path, read from the Makefiles the way
    scripts/bkl-users reads them."""
    directory, base = os.path.split(os.path.abspath(path))
    kbuild = Kbuild(directory)
    obj = os.path.splitext(base)[0] + ".o"
    # a part of a composite object that has its own option
    # (pcmcia-$(CONFIG_PCMCIA_IOCTL) += pcmcia_ioctl.o) depends on that
    for target, sym, items in kbuild.rules(""):
        if sym and obj in items and target not in ("obj", "lib", "ccflags", "subdir"):
            return sym
    symbol, _ = kbuild.lookup(base)
    return symbol or None


def find_kconfig(directory, symbol, tree):
    """The Kconfig file that defines symbol: in directory (Kconfig, or a
    Kconfig.* it sources) or, as for a subsystem's core, in a parent up to
    tree; None if there is none."""
    entry = re.compile(r"^(?:menu)?config %s\s*$" % re.escape(symbol), re.M)
    top = os.path.realpath(tree)
    d = os.path.realpath(directory)
    while True:
        # its own Kconfig files, then those of its subdirectories, which a
        # Kconfig here may source (drivers/scsi/megaraid/Kconfig.megaraid)
        for pattern in ("Kconfig*", os.path.join("*", "Kconfig*")):
            for kc in sorted(glob.glob(os.path.join(d, pattern))):
                if os.path.isfile(kc) and entry.search(read(kc)):
                    return kc
        if d == top or os.path.dirname(d) == d or not d.startswith(top):
            return None
        d = os.path.dirname(d)


def add_depends_on_bkl(kconfig, symbol):
    """Kconfig text with "depends on BKL" in symbol's entry, or None."""
    m = re.search(r"^(?:menu)?config %s\n((?:[ \t]+[^\n]*\n|\n)*)" % re.escape(symbol),
                  kconfig, re.M)
    if not m:
        return None
    entry = m.group(0)
    if re.search(r"^\s*depends on (.*\b)?BKL\b", entry, re.M):
        return kconfig
    t = re.search(r"^([ \t]+)(bool|tristate|def_bool|def_tristate)\b[^\n]*\n", entry, re.M)
    if not t:
        return None
    at = m.start() + t.end()
    return kconfig[:at] + t.group(1) + "depends on BKL\n" + kconfig[at:]
