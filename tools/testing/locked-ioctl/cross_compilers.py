# SPDX-License-Identifier: GPL-2.0
"""The cross root's compilers: the list in the file cross-compilers beside
this one, which tools/testing/locked-ioctl/cross-root installs and
check-cross reads too."""
import os

LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cross-compilers")


def cross_compilers(path=LIST):
    """{kernel ARCH: compiler prefix} of each line "ARCH PREFIX" of path."""
    prefixes = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if fields and not fields[0].startswith("#"):
                arch, prefix = fields
                prefixes[arch] = prefix
    return prefixes
