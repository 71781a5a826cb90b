# SPDX-License-Identifier: GPL-2.0
"""List the users of the Big Kernel Lock and of its replacements.

Sources of records (one of):
  PATH...              C sources of a kernel tree, or of an external module
                       directory (default: the current directory): every
                       annotated user, every unannotated BKL user
                       (lock_kernel(), .locked_ioctl = ...) and candidates
                       (an unlocked_ioctl that holds one global mutex
                       around its whole body), with the Kconfig symbol that
                       builds each file
  --objects FILE...    vmlinux, modules or objects: the records of their
                       __bkl_users_info section
  --runtime [FILE]     the running kernel: /sys/kernel/debug/bkl/users, or
                       FILE in that format

Record kinds: bkl-ioctl, bkl-shim, bkl-direct and unannotated depend on the
BKL; replacement is a driver lock through a locked ioctl wrapper; candidate
is code worth a look.

Exit codes: 0 success; 1 --check found BKL users; 2 usage error, or a path,
object or file that cannot be read as asked.
"""
import argparse
import json
import sys

from . import UsageError
from .api import BKL_KINDS
from .elf import from_objects
from .runtime import DEBUGFS_USERS, from_runtime
from .sources import from_source


ME = "bkl-users"


def table(records, columns):
    rows = [[c.upper() for c in columns]]
    for r in records:
        row = []
        for c in columns:
            if c == "location":
                row.append("%s:%s" % (r.get("file", "?"), r.get("line", "?")))
            else:
                row.append(str(r.get(c, "") or "-"))
        rows.append(row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(columns))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
                     for row in rows)


def main(argv):
    ap = argparse.ArgumentParser(
        prog=ME, description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", metavar="PATH",
                    help="sources to scan, or with --objects the objects")
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--objects", action="store_true",
                     help="read the records of built objects (PATH... are ELF files)")
    src.add_argument("--runtime", nargs="?", const=DEBUGFS_USERS, metavar="FILE",
                     help="read the running kernel's registry (default %s)"
                     % DEBUGFS_USERS)
    ap.add_argument("--tree", metavar="DIR",
                    help="the kernel tree the PATHs belong to (default: found above them)")
    ap.add_argument("--json", action="store_true", help="print JSON, one list of records")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 while any BKL user (not a replacement lock) remains")
    ap.add_argument("--kind", action="append", metavar="KIND",
                    help="only records of this kind (may be repeated)")
    args = ap.parse_args(argv)

    try:
        if args.objects:
            if not args.paths:
                raise UsageError("--objects needs at least one object")
            records, columns = from_objects(args.paths), \
                ["kind", "name", "location", "handler", "lock", "object"]
        elif args.runtime:
            if args.paths:
                raise UsageError("--runtime takes no PATH")
            records, columns = from_runtime(args.runtime), \
                ["kind", "name", "location", "handler", "lock", "hits",
                 "contended", "max_hold_ns"]
        else:
            records, columns = from_source(args.paths or ["."], args.tree), \
                ["kind", "name", "location", "handler", "lock", "config"]
    except UsageError as e:
        print("%s: %s" % (ME, e), file=sys.stderr)
        return 2
    except OSError as e:
        print("%s: %s: %s" % (ME, e.filename, e.strerror), file=sys.stderr)
        return 2

    if args.kind:
        records = [r for r in records if r.get("kind") in args.kind]
    records.sort(key=lambda r: (r.get("file", ""), r.get("line", 0), r.get("name", "")))
    if args.json:
        print(json.dumps(records, indent=1, sort_keys=True))
    else:
        print(table(records, columns))
    remaining = [r for r in records if r.get("kind") in BKL_KINDS]
    if args.check and remaining:
        print("%s: %d BKL user(s) remain" % (ME, len(remaining)), file=sys.stderr)
        return 1
    return 0
