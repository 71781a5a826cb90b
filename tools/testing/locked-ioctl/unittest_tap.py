#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the Python unittest tests of the locked-ioctl tools (the *_test.py
files beside this one) and print one "ok - NAME" or "not ok - NAME" line
per test case, and per subtest that fails, as tools/testing/locked-ioctl/check
counts them.  What a failure said follows its line, indented.

Usage: unittest_tap.py [PATTERN]   (default: *_test.py)
Exit codes: 0 every test passed; 1 a test failed or could not run."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class TapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.bad = 0

    @staticmethod
    def name(test):
        return "unittest: %s.%s" % (type(test).__name__, test._testMethodName)

    def say(self, ok, name, detail=""):
        print("%s - %s" % ("ok" if ok else "not ok", name), flush=True)
        if not ok:
            self.bad += 1
            for line in detail.rstrip().split("\n")[-25:]:
                print("    " + line)

    def addSuccess(self, test):
        if not getattr(test, "_tap_failed", False):
            self.say(True, self.name(test))

    def addFailure(self, test, err):
        self.say(False, self.name(test), self._exc_info_to_string(err, test))

    addError = addFailure

    def addSkip(self, test, reason):
        print("ok - %s # SKIP %s" % (self.name(test), reason), flush=True)

    def addSubTest(self, test, subtest, err):
        if err is not None:
            test._tap_failed = True
            self.say(False, "%s %s" % (self.name(test), subtest._subDescription()),
                     self._exc_info_to_string(err, test))


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    sys.dont_write_bytecode = True
    pattern = argv[0] if argv else "*_test.py"
    suite = unittest.TestLoader().discover(HERE, pattern=pattern, top_level_dir=HERE)
    result = TapResult()
    suite.run(result)
    if result.testsRun == 0:
        print("not ok - unittest: no test found for %s" % pattern)
        return 1
    return 1 if result.bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
