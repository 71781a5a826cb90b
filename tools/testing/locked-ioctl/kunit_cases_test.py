#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of kunit_cases.py, the reader of kunit.py's JSON that the kunit
tiers count their checks from."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)

import kunit_cases  # noqa: E402


def group(name, cases=(), subs=()):
    """A group as kunit_json.py writes it (its common fields left out)."""
    return {"name": name, "sub_groups": list(subs),
            "test_cases": [{"name": n, "status": s} for n, s in cases]}


# One run: a suite of plain cases, a suite with a parameterised case whose
# second parameter failed, a crashed case, a skipped one.
RUN = group("KUnit Test Group", subs=[
    group("bkl", cases=[("bkl_test_lock", "PASS"), ("bkl_test_skip", "SKIP")]),
    group("locked_ioctl", cases=[("lit_test_crash", "ERROR")], subs=[
        group("lit_test_table", cases=[("per-device arg", "PASS"),
                                       ("per-device efault", "FAIL")]),
        group("lit_test_ok_table", cases=[("one", "PASS")]),
    ]),
])


class CasesTest(unittest.TestCase):
    def test_every_case_once_with_its_status(self):
        got = kunit_cases.cases(RUN)
        self.assertEqual(sorted(got), sorted([
            ("PASS", "bkl_test_lock"), ("SKIP", "bkl_test_skip"),
            ("ERROR", "lit_test_crash"),
            ("PASS", "per-device arg"), ("FAIL", "per-device efault"),
            ("PASS", "one"),
        ]))

    def test_groups_give_no_line(self):
        names = [name for _, name in kunit_cases.cases(RUN)]
        for group in ("bkl", "locked_ioctl", "KUnit Test Group", "lit_test_table",
                      "lit_test_ok_table"):
            self.assertNotIn(group, names)

    def test_the_command_prints_tab_separated_lines(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(RUN, f)
        try:
            p = subprocess.run([sys.executable, os.path.join(HERE, "kunit_cases.py"), f.name],
                               capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("FAIL\tper-device efault", p.stdout.splitlines())
        self.assertEqual(len(p.stdout.splitlines()), 6)

    def test_a_file_that_is_not_the_json_is_refused(self):
        for text in ("not json", "[1, 2]"):
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                f.write(text)
            try:
                p = subprocess.run([sys.executable, os.path.join(HERE, "kunit_cases.py"),
                                    f.name], capture_output=True, text=True)
            finally:
                os.unlink(f.name)
            self.assertEqual(p.returncode, 2, text)
            self.assertIn("not kunit.py's JSON", p.stderr)
            self.assertEqual(p.stdout, "")


if __name__ == "__main__":
    unittest.main()
