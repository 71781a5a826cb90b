#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of records.py, the reader of scripts/bkl-users' listings that the
bkl-users, migrate and qemu tiers check them with."""
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)

import records  # noqa: E402

SOURCE = """\
/* expect: bkl-ioctl m:a_unlocked_ioctl a_ioctl BKL CONFIG_A */
DEFINE_BKL_IOCTL(a_unlocked_ioctl, a_ioctl);
/*
 * expect: replacement m:b_unlocked_ioctl b_ioctl
 *	   &b_mutex (of b) CONFIG_B
 */
DEFINE_LOCKED_IOCTL(b_unlocked_ioctl, b_ioctl, &b_mutex);
"""

LISTING = [
    {"kind": "bkl-ioctl", "name": "m:a", "handler": "a_ioctl", "file": "d/a.c", "line": 2},
    {"kind": "replacement", "name": "m:b", "handler": "b_ioctl", "file": "d/b.c", "line": 7},
    {"kind": "candidate", "name": "m:c", "handler": "c_ioctl", "file": "d/c.c", "line": 9},
]


class RecordsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def listing(self, name, recs):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            json.dump(recs, f)
        return path

    def run_main(self, *argv):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            try:
                rc = records.main(list(argv))
            except SystemExit as e:
                rc = e.code
        return rc, out.getvalue(), err.getvalue()

    def test_expected_reads_each_comment(self):
        with open(os.path.join(self.dir.name, "x.c"), "w") as f:
            f.write(SOURCE)
        with open(os.path.join(self.dir.name, "notes.txt"), "w") as f:
            f.write(SOURCE)
        got = records.expected(self.dir.name)
        self.assertEqual([(r["kind"], r["name"], r["handler"], r["lock"], r["config"],
                           r["file"], r["line"]) for r in got],
                         [("bkl-ioctl", "m:a_unlocked_ioctl", "a_ioctl", "BKL", "CONFIG_A",
                           "x.c", 2),
                          ("replacement", "m:b_unlocked_ioctl", "b_ioctl", "&b_mutex (of b)",
                           "CONFIG_B", "x.c", 7)])

    def test_kunit_dump_keeps_the_registry_lines(self):
        log = ["[ 1.0] bkl-users-record\tm:a\tbkl-ioctl\tBKL\t3\n", "[ 1.1] other\n"]
        got = records.kunit_dump(log)
        self.assertTrue(got[0].startswith("# name\t"))
        self.assertEqual(got[1:], ["m:a\tbkl-ioctl\tBKL\t3"])

    def test_compare(self):
        a = self.listing("a.json", LISTING)
        b = self.listing("b.json", [dict(r, file="elsewhere/" + r["file"].split("/")[1])
                                    for r in LISTING[:2]])
        self.assertNotEqual(records.compare(a, b, ["name", "file"]), [])
        self.assertEqual(records.compare(a, b, ["name", "file"], basename=True,
                                         kinds=["bkl-ioctl", "replacement"]), [])
        self.assertEqual(records.compare(a, b, ["name"], prefix="m:b"), [])
        diff = records.compare(a, b, ["name"])
        self.assertEqual(diff, ["only in %s: m:c" % a])
        # two empty listings do not agree: a check on nothing is no check
        empty = self.listing("e.json", [])
        self.assertEqual(records.compare(empty, empty, ["name"]), ["%s: no records" % empty])
        self.assertEqual(self.run_main("compare", a, b, "name")[0], 1)
        self.assertEqual(self.run_main("compare", a, a, "name"), (0, "", ""))

    def test_select(self):
        path = self.listing("l.json", LISTING)
        self.assertEqual(records.select(LISTING, [("kind", "candidate")], ["name"]), [("m:c",)])
        self.assertEqual(records.select(LISTING, [("line", "7")], ["kind", "handler"]),
                         [("replacement", "b_ioctl")])
        self.assertEqual(records.select(LISTING, [], ["name"]), [("m:a",), ("m:b",), ("m:c",)])
        self.assertEqual(self.run_main("select", path, "kind=replacement",
                                       "--print", "name,file"), (0, "m:b\td/b.c\n", ""))
        self.assertEqual(self.run_main("select", path, "kind=unannotated")[:2], (1, ""))

    def test_bad_input(self):
        rc, _, err = self.run_main("select", os.path.join(self.dir.name, "missing.json"))
        self.assertEqual(rc, 2)
        self.assertIn("missing.json", err)
        self.assertEqual(self.run_main("select", self.listing("l.json", LISTING), "kind")[0], 2)
        self.assertEqual(self.run_main("frobnicate")[0], 2)

    def test_the_executable(self):
        path = self.listing("l.json", LISTING)
        r = subprocess.run([os.path.join(HERE, "records"), "select", path, "kind=bkl-ioctl"],
                           capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stdout), (0, "m:a\n"))


if __name__ == "__main__":
    unittest.main()
