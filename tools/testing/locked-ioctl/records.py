# SPDX-License-Identifier: GPL-2.0
"""The listings of scripts/bkl-users as the tests read them (the thin
executable "records" beside this file runs main()).

  records expected DIR        the records the "expect:" comments of the
                              fixture sources in DIR announce, as JSON
  records kunit-dump LOG      the registry lines bkl_users_kunit printed
                              into a kernel log, as a debugfs listing
  records compare A B KEYS [--basename] [--kinds K,...] [--prefix P]
                              compare two JSON listings on the
                              comma-separated KEYS, only records of the
                              KINDS and whose name starts with P; exit 1
                              on a difference, which is printed
  records select JSON [KEY=VALUE]... [--print KEYS]
                              the records of a JSON listing that have
                              each KEY=VALUE, one line each: the values
                              of KEYS (default: name), tab-separated;
                              exit 1 when none has

Exit codes: 0 equal, found or done; 1 different or none found; 2 usage
error or a file that cannot be read.
"""
import argparse
import json
import os
import re
import sys

EXPECT_RE = re.compile(r"/\*\s*\*?\s*expect:(.*?)\*/", re.S)


def expected(directory):
    """The records that the "expect:" comments of DIR's sources announce:
    kind, name, handler, lock (any number of words) and config, the
    record's line being the one after the comment."""
    records = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith((".c", ".h")):
            continue
        with open(os.path.join(directory, name)) as f:
            text = f.read()
        for m in EXPECT_RE.finditer(text):
            words = re.sub(r"\s*\n\s*\*?", " ", m.group(1)).split()
            kind, rname, handler, config = words[0], words[1], words[2], words[-1]
            records.append({
                "kind": kind, "name": rname, "handler": handler,
                "lock": " ".join(words[3:-1]), "config": config, "file": name,
                "line": text.count("\n", 0, m.end()) + 2,
            })
    return records


def kunit_dump(lines):
    """The registry lines ("bkl-users-record\\t...") of a kernel log, as the
    debugfs listing's lines, its header first."""
    out = ["# name\tkind\tlock\thits\tcontended\tmax_hold_ns\tfile\tline\thandler"]
    for line in lines:
        _, sep, rest = line.rstrip("\n").partition("bkl-users-record\t")
        if sep:
            out.append(rest)
    return out


def load(path):
    with open(path) as f:
        return json.load(f)


def keyed(records, keys, basename=False, kinds=None, prefix=None):
    """The set of KEYS' values (as strings) of the records of KINDS whose
    name starts with PREFIX; with BASENAME, a file's name without its
    directory."""
    out = set()
    for r in records:
        if kinds and r.get("kind") not in kinds:
            continue
        if prefix and not r.get("name", "").startswith(prefix):
            continue
        if basename:
            r = dict(r, file=os.path.basename(r.get("file", "")))
        out.add(tuple(str(r.get(k)) for k in keys))
    return out


def compare(a, b, keys, basename=False, kinds=None, prefix=None):
    """The lines that tell how listings A and B (JSON files) differ on KEYS;
    none when they agree and are not empty."""
    sa = keyed(load(a), keys, basename, kinds, prefix)
    sb = keyed(load(b), keys, basename, kinds, prefix)
    if sa == sb and sa:
        return []
    out = ["%s: no records" % a] if not sa else []
    out += ["only in %s: %s" % (a, " | ".join(r)) for r in sorted(sa - sb)]
    out += ["only in %s: %s" % (b, " | ".join(r)) for r in sorted(sb - sa)]
    return out


def select(records, wanted, keys):
    """The KEYS' values of each record that has every (key, value) of
    WANTED, in the listing's order."""
    return [tuple(str(r.get(k)) for k in keys) for r in records
            if all(str(r.get(k)) == v for k, v in wanted)]


def key_value(arg):
    key, sep, value = arg.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError("%r: not KEY=VALUE" % arg)
    return key, value


def main(argv):
    ap = argparse.ArgumentParser(prog="records", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("expected")
    p.add_argument("dir")
    p = sub.add_parser("kunit-dump")
    p.add_argument("log")
    p = sub.add_parser("compare")
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("keys")
    p.add_argument("--basename", action="store_true")
    p.add_argument("--kinds")
    p.add_argument("--prefix")
    p = sub.add_parser("select")
    p.add_argument("json")
    p.add_argument("wanted", nargs="*", type=key_value, metavar="KEY=VALUE")
    p.add_argument("--print", dest="keys", default="name")
    args = ap.parse_args(argv)
    try:
        if args.command == "expected":
            json.dump(expected(args.dir), sys.stdout, indent=1, sort_keys=True)
            print()
            return 0
        if args.command == "kunit-dump":
            with open(args.log, errors="replace") as f:
                print("\n".join(kunit_dump(f)))
            return 0
        if args.command == "compare":
            diff = compare(args.a, args.b, args.keys.split(","), args.basename,
                           args.kinds.split(",") if args.kinds else None, args.prefix)
            print("\n".join(diff), end="\n" if diff else "")
            return 1 if diff else 0
        found = select(load(args.json), args.wanted, args.keys.split(","))
        for values in found:
            print("\t".join(values))
        return 0 if found else 1
    except (OSError, ValueError) as e:
        print("records: %s" % e, file=sys.stderr)
        return 2
