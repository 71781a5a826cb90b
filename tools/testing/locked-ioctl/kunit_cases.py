#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The test cases of a kunit.py run, from the JSON it writes (kunit.py run
--json=FILE), one line each: STATUS, a tab, the case's name.

  kunit_cases.py FILE

STATUS is PASS, FAIL, SKIP or ERROR (a crash), as kunit.py says it.  A
parameterised case gives one line per parameter (the JSON gives it no
status of its own), a suite none.

Exit codes: 0 the cases were listed; 2 FILE is missing or is not kunit.py's
JSON."""
import json
import sys


def cases(group):
    """(status, name) of each case under GROUP, the JSON of a run, a suite
    or a parameterised case: the cases of its sub-groups, then its own."""
    out = []
    for sub in group.get("sub_groups", []):
        out += cases(sub)
    out += [(case["status"], case["name"]) for case in group.get("test_cases", [])]
    return out


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stdout if len(argv) == 2 else sys.stderr)
        return 0 if len(argv) == 2 else 2
    try:
        with open(argv[1]) as f:
            run = json.load(f)
        found = cases(run)
    except (OSError, ValueError, KeyError, AttributeError, TypeError) as e:
        print("kunit_cases.py: %s: not kunit.py's JSON: %s" % (argv[1], e), file=sys.stderr)
        return 2
    for status, name in found:
        print("%s\t%s" % (status, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
