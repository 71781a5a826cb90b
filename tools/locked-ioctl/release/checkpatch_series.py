# SPDX-License-Identifier: GPL-2.0
"""Run a kernel tree's own scripts/checkpatch.pl --strict on each patch of a
series and say which ones it flags, with one exception: CamelCase in a name
the driver already spells so (mISDN_unlocked_ioctl, where the stock file
has mISDN_...), which a conversion must keep, not rename.

  checkpatch-series TREE PATCH...

TREE is the tree the series applies to, unchanged (its checkpatch.pl, and
the stock files the CamelCase rule reads).  A checkpatch.pl older than Perl
5.26 allows (2.6.x: an unescaped "{" after "\\s" in a regular expression)
runs from a copy in a temporary directory with those braces escaped and
nothing else changed; a newer one runs in place, beside its spelling.txt.

Prints, for each patch it flags, its name and what checkpatch said.

Exit codes: 0 every patch passed; 1 checkpatch flagged a patch; 2 usage
error (TREE has no scripts/checkpatch.pl, a patch is missing).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

# Perl 5.26 rejects an unescaped "{" after "\s" and warns of two more;
# 2.6.34's checkpatch.pl has all three.
OLD_PERL_BRACES = [(r"\s{/", r"\s\{/"), (r"\){/", r"\)\{/"), ("/do{/", r"/do\{/")]

# "CHECK: Avoid CamelCase: <w>" (--show-types: "CHECK:CAMELCASE: ...")
# and the "#n: FILE: path:n:" line checkpatch puts under it
CAMELCASE = re.compile(r"^CHECK:(?:CAMELCASE:)? ?Avoid CamelCase: <(\w+)>\n#\d+: FILE: (\S+):\d+:",
                       re.M)
OTHER = re.compile(r"^(?:ERROR|WARNING|CHECK):(?!(?:CAMELCASE:)? ?Avoid CamelCase)", re.M)


def read(path):
    with open(path, errors="surrogateescape") as f:
        return f.read()


def own_camelcase(out, tree):
    """Is all checkpatch said in OUT CamelCase, and every such word the
    driver's own: its first part (mISDN of mISDN_unlocked_ioctl) already in
    the stock file of TREE?"""
    words = CAMELCASE.findall(out)
    if not words or OTHER.search(out):
        return False
    for word, path in words:
        path = os.path.join(tree, path)
        if not os.path.isfile(path) or \
                not re.search(r"\b" + re.escape(word.split("_")[0]), read(path)):
            return False
    return True


def flagged(tree, patches):
    """[(patch, what checkpatch said)] for each patch it flags, but for the
    driver's own CamelCase."""
    script = os.path.join(tree, "scripts", "checkpatch.pl")
    text = read(script)
    fixed = text
    for old, new in OLD_PERL_BRACES:
        fixed = fixed.replace(old, new)
    dirty = []
    with tempfile.TemporaryDirectory(prefix="checkpatch-series.") as tmp:
        if fixed != text:
            script = os.path.join(tmp, "checkpatch.pl")
            with open(script, "w", errors="surrogateescape") as f:
                f.write(fixed)
        for p in patches:
            r = subprocess.run(["perl", script, "--strict", "-q", "--root", tree,
                                os.path.abspath(p)], cwd=tree, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True,
                               errors="surrogateescape", check=False)
            out = r.stdout.strip()
            if (r.returncode or out) and not own_camelcase(out, tree):
                dirty.append((p, out))
    return dirty


def main(argv):
    ap = argparse.ArgumentParser(
        prog="checkpatch-series", description=__doc__.split("\n\n")[0],
        epilog="Exit codes: 0 every patch passed; 1 checkpatch flagged a patch; "
               "2 usage error.")
    ap.add_argument("tree", metavar="TREE", help="the unchanged tree the series applies to")
    ap.add_argument("patches", metavar="PATCH", nargs="+")
    args = ap.parse_args(argv)
    tree = os.path.abspath(args.tree)
    if not os.path.isfile(os.path.join(tree, "scripts", "checkpatch.pl")):
        print("checkpatch-series: %s: no scripts/checkpatch.pl: not a kernel tree" % args.tree,
              file=sys.stderr)
        return 2
    missing = [p for p in args.patches if not os.path.isfile(p)]
    if missing:
        print("checkpatch-series: no such patch: %s" % ", ".join(missing), file=sys.stderr)
        return 2
    dirty = flagged(tree, args.patches)
    for p, out in dirty:
        print("%s:\n%s" % (os.path.basename(p), out))
    return 1 if dirty else 0

