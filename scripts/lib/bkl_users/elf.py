# SPDX-License-Identifier: GPL-2.0
"""The records of built objects: their __bkl_users_info section."""
import os
import struct

from . import UsageError


INFO_SECTION = "__bkl_users_info"


def elf_section(path, wanted):
    """The contents of section wanted of an ELF file, or None if absent."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF":
        raise UsageError("%s: not an ELF object" % path)
    is64 = data[4] == 2
    end = "<" if data[5] == 1 else ">"
    if is64:
        shoff, = struct.unpack_from(end + "Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x3a)
        sh_fmt, name_off, off_off, size_off = end + "IIQQQQ", 0, 4, 5
    else:
        shoff, = struct.unpack_from(end + "I", data, 0x20)
        shentsize, shnum, shstrndx = struct.unpack_from(end + "HHH", data, 0x2e)
        sh_fmt, name_off, off_off, size_off = end + "IIIIII", 0, 4, 5
    sections = [struct.unpack_from(sh_fmt, data, shoff + i * shentsize)
                for i in range(shnum)]
    strtab = sections[shstrndx]
    names = data[strtab[off_off]:strtab[off_off] + strtab[size_off]]
    for sec in sections:
        name = names[sec[name_off]:names.index(b"\0", sec[name_off])].decode()
        if name == wanted:
            return data[sec[off_off]:sec[off_off] + sec[size_off]]
    return None


def from_objects(paths):
    records = []
    for path in paths:
        if not os.path.isfile(path):
            raise UsageError("%s: no such file" % path)
        info = elf_section(path, INFO_SECTION)
        if info is None:
            raise UsageError("%s: no %s section: built without the locked-ioctl "
                             "layer, or it has no BKL users" % (path, INFO_SECTION))
        rec = None
        for token in info.split(b"\0"):
            if not token:
                continue
            key, _, value = token.decode(errors="replace").partition("=")
            if key == "bkl_user":
                rec = {"name": value, "object": path}
                records.append(rec)
            elif rec is not None:
                rec[key] = int(value) if key == "line" else value
    return records
