# SPDX-License-Identifier: GPL-2.0
"""The records of the running kernel: /sys/kernel/debug/bkl/users."""

from . import UsageError


DEBUGFS_USERS = "/sys/kernel/debug/bkl/users"


def from_runtime(path):
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise UsageError("%s: %s (is debugfs mounted, and the kernel built with "
                         "CONFIG_BKL_REGISTRY and CONFIG_DEBUG_FS?)"
                         % (path, e.strerror))
    if not lines or not lines[0].startswith("# name\t"):
        raise UsageError("%s: not a /sys/kernel/debug/bkl/users listing" % path)
    keys = lines[0][2:].split("\t")
    records = []
    for line in lines[1:]:
        values = line.split("\t")
        if len(values) != len(keys):
            raise UsageError("%s: malformed line: %r" % (path, line))
        rec = dict(zip(keys, values))
        for k in ("line", "hits", "contended", "max_hold_ns"):
            rec[k] = int(rec[k])
        rec["module"] = rec["name"].split(":", 1)[0]
        records.append(rec)
    return records
