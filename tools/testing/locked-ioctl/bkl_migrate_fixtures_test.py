#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/bkl-migrate on fixtures/migrate/, one file per pattern
of the seeds and of 2.6.34: before/ must become after/ (after-shim/ with
--shim, after-annotate/ with --annotate-driver-locks), look-alikes must not
change, a second run changes nothing, --dry-run writes nothing, a file
converts the same alone as with the others, and a refused run changes
nothing.

What needs a kernel tree or build (checkpatch, the converted files built
against 6.12, --build, make coccicheck) is the migrate tier of
tools/testing/locked-ioctl/check.  The tests need spatch."""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)

from bkl_migrate_test import MIGRATE, migrate, tree_of  # noqa: E402

FIXTURES = os.path.join(HERE, "fixtures", "migrate")
BEFORE = os.path.join(FIXTURES, "before")
EXTERN_FAILED = (r"^extern_ioctl.c: failed, left as it was: a group: extern_ioctl is "
                 r"defined in no file under .*: convert it by hand")


class MigrateFixtureTest(unittest.TestCase):
    """Each test works on its own copy of before/."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bkl-migrate-fixtures.")
        self.tree = os.path.join(self.tmp, "tree")
        shutil.copytree(BEFORE, self.tree)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def assertTreeIs(self, expected):
        """The copy is the fixture directory EXPECTED, file for file."""
        got, want = tree_of(self.tree), tree_of(os.path.join(FIXTURES, expected))
        self.assertEqual(sorted(got), sorted(want))
        differ = [name for name in want if got[name] != want[name]]
        self.assertEqual(differ, [], "files that differ from %s/" % expected)

    def assertLines(self, out, patterns):
        for pattern in patterns:
            self.assertRegex(out, re.compile(pattern, re.M))


class GoldenTest(MigrateFixtureTest):
    def convert(self, expected, *args):
        rc, out = migrate(*args, "--tree", self.tree)
        self.assertEqual(rc, 1, out)
        self.assertLines(out, [EXTERN_FAILED])
        self.assertTreeIs(expected)
        rc, out = migrate(*args, "--tree", self.tree)
        self.assertIn(" 0 converted, 1 failed", out)
        self.assertTreeIs(expected)

    def test_before_becomes_after_and_stays(self):
        self.convert("after")

    def test_shim_before_becomes_after_shim_and_stays(self):
        self.convert("after-shim", "--shim")

    def test_a_file_converts_the_same_alone(self):
        # a group goes together: the file of its handler and those of its users
        group = sorted(os.path.join(self.tree, f) for f in os.listdir(self.tree)
                       if f.startswith("group_"))
        for f in sorted(os.listdir(self.tree)):
            if f.endswith(".c") and not f.startswith("group_"):
                migrate("--tree", self.tree, os.path.join(self.tree, f))
        migrate("--tree", self.tree, *group)
        self.assertTreeIs("after")

    def test_a_group_without_the_handler_file_is_left(self):
        rc, out = migrate("--tree", self.tree, os.path.join(self.tree, "group_dev.c"))
        self.assertEqual(rc, 1, out)
        self.assertLines(out, [r"^group_dev.c: failed, left as it was: a group: "
                               r"group_generic_ioctl is defined in group_core.c, which is "
                               r"not among the paths given"])
        self.assertTreeIs("before")


class DryRunTest(MigrateFixtureTest):
    """--dry-run prints the change of each converted file and writes nothing;
    the summary notes a compat entry point that calls the old handler and
    now takes the BKL too (seed 004's mraid_mm had it without), the
    candidates the rules cannot take, ioctls that take a file-scope mutex
    after other work, an old .ioctl that is left, and one that today's
    kernels build only because 5.9 dropped HAVE_UNLOCKED_IOCTL."""

    def test_prints_the_diffs_writes_nothing(self):
        rc, out = migrate("--dry-run", "--tree", self.tree)
        self.assertEqual(rc, 1, out)
        self.assertTreeIs("before")
        self.assertLines(out, [
            r"^\+\+\+ b/old_ioctl.c", r"^\+\+\+ b/driver_lock.c", r"^\+\+\+ b/Kconfig",
            r"^\+DEFINE_LOCKED_IOCTL\(lock_ioctl, lock_do_ioctl, &lock_mutex\);",
            r"^old_ioctl.c: note: old_compat calls old_ioctl, which the native entry point "
            r"now runs under the BKL: it takes the BKL too \(DEFINE_BKL_IOCTL\)",
            r"^untouched.c: skipped: un_more_ioctl holds &un_mutex",
            r"^untouched.c: skipped: un_arg_ioctl holds &un_mutex",
            r"^untouched.c: skipped: un_not_ioctl takes &un_mutex",
            r"^prologue_mutex_ioctl.c: skipped: pro_copy_ioctl takes the file-scope mutex "
            r"&pro_mutex",
            r"^prologue_mutex_ioctl.c: skipped: pro_narrow_ioctl takes the file-scope mutex "
            r"&pro_mutex",
            r"^body_mutex_ioctl.c: converted: DEFINE_LOCKED_IOCTL\(body_ioctl\), "
            r"DEFINE_LOCKED_IOCTL_INTERRUPTIBLE\(body_intr_ioctl\)",
            r"^open_mutex.c: skipped: om_open takes &om_mutex, a file-scope mutex that only "
            r"the file.s operations take",
            r"^open_mutex.c: skipped: om_release takes &om_mutex",
            r"^open_mutex.c: skipped: om_set takes &om_mutex",
            r"^gnu_ioctl.c: converted: DEFINE_BKL_IOCTL\(gnu_unlocked_ioctl\)",
            r"^left_ioctl.c: left: an old .ioctl = left_ioctl is not converted",
            r"^multiver_ioctl.c: converted: HAVE_UNLOCKED_IOCTL defined again for Linux 5.9 "
            r"and later$",
            r"^multiver_ioctl.c: nothing to do: .ioctl = multiver_ioctl stays for kernels "
            r"before 2.6.11",
        ])
        for absent in (r"^\+\+\+ b/extern_ioctl.c", r"^\+\+\+ b/untouched.c"):
            self.assertNotRegex(out, re.compile(absent, re.M))
        self.assertEqual(len(re.findall(r": note: ", out)), 1)
        self.assertEqual(len(re.findall(r": skipped: ", out)), 8)
        self.assertEqual(len(re.findall(r": left: ", out)), 1)


class AnnotateDriverLocksTest(MigrateFixtureTest):
    """--annotate-driver-locks: the ioctls that take a file-scope mutex no
    wrapper can take, and open(), release() and an ioctl's helper that take
    a mutex as the BKL pushdown left one (and no look-alike: a mutex that
    registration takes too, or one only tried), get DEFINE_DRIVER_LOCK_USER()."""

    def setUp(self):
        super().setUp()
        shutil.rmtree(self.tree)
        os.makedirs(self.tree)
        self.files = sorted(f for f in os.listdir(os.path.join(FIXTURES, "after-annotate")))
        for f in self.files:
            shutil.copy(os.path.join(BEFORE, f), self.tree)

    def run_tool(self):
        return migrate("--annotate-driver-locks", "--tree", self.tree,
                       *(os.path.join(self.tree, f) for f in self.files))

    def test_before_becomes_after_annotate_and_stays(self):
        rc, out = self.run_tool()
        self.assertEqual(rc, 0, out)
        self.assertLines(out, [
            r"^prologue_mutex_ioctl.c: converted: DEFINE_DRIVER_LOCK_USER\(pro_copy_ioctl_lock, "
            r"pro_narrow_ioctl_lock\)$",
            r"^open_mutex.c: converted: DEFINE_DRIVER_LOCK_USER\(om_open_lock, om_release_lock, "
            r"om_set_lock\)$",
        ])
        self.assertTreeIs("after-annotate")
        self.run_tool()
        self.assertTreeIs("after-annotate")


class RefusalTest(MigrateFixtureTest):
    """Bad input: a clear message, a meaningful exit code, nothing changed."""

    def tearDown(self):
        self.assertTreeIs("before")
        super().tearDown()

    def refused(self, code, pattern, *args, env=None):
        p = subprocess.run([MIGRATE] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace",
                           check=False, env=env)
        self.assertEqual(p.returncode, code, p.stdout)
        self.assertRegex(p.stdout, re.compile(pattern, re.M))
        return p.stdout

    def test_a_directory_without_c_source(self):
        self.refused(2, "holds no C source", "--tree", self.tree, os.path.join(HERE, "kunit"))

    def test_a_missing_path(self):
        self.refused(2, "no such file", "--tree", self.tree,
                     os.path.join(self.tree, "no-such-file.c"))

    def test_a_tree_that_is_not_a_directory(self):
        self.refused(2, "not a directory", "--tree", os.path.join(self.tree, "Kconfig"))

    def test_a_path_that_is_neither_source_nor_header(self):
        self.refused(2, "Makefile: not a C source file or header", "--tree", self.tree,
                     os.path.join(self.tree, "Makefile"))

    def test_a_header_among_the_paths_is_taken(self):
        self.refused(0, r"^bkl-migrate: 2 file\(s\) scanned, 0 converted, 0 failed",
                     "--tree", self.tree, os.path.join(self.tree, "extern_ioctl.h"),
                     os.path.join(self.tree, "untouched.c"))

    def test_help(self):
        self.refused(0, "Exit codes", "--help")

    def test_a_spatch_past_the_timeout(self):
        self.refused(1, r"^old_ioctl.c: failed, left as it was: spatch ioctl_pushdown.cocci "
                     r"ran past 0.05 s", "--timeout", "0.05", "--tree", self.tree,
                     os.path.join(self.tree, "old_ioctl.c"))

    def test_progress_counts_each_file(self):
        self.refused(0, r"^bkl-migrate: \[1/1\] gnu_ioctl.c$", "--progress", "--dry-run",
                     "--tree", self.tree, os.path.join(self.tree, "gnu_ioctl.c"))

    def test_check_spatch(self):
        self.refused(0, "", "--check-spatch")

    def test_a_spatch_without_python_is_named_once(self):
        # Debian's coccinelle without libpython3-dev, as on a fresh machine:
        # a spatch on PATH that hands the real one an interpreter of a Python
        # version whose library does not exist, whatever it is given.
        fake = os.path.join(self.tmp, "no-python")
        os.makedirs(fake)
        real = shutil.which("spatch")
        self.assertIsNotNone(real, "no spatch on PATH")
        scripts = {
            "python3.99": '#!/bin/sh\ncase "$*" in *--version*) echo "Python 3.99.0" ;; '
                          '*) exec python3 "$@" ;; esac\n',
            "spatch": '#!/bin/bash\nargs=()\nwhile [ $# -gt 0 ]; do\n'
                      '\tif [ "$1" = --python ]; then shift 2; continue; fi\n'
                      '\targs+=("$1"); shift\ndone\n'
                      'exec %s --python %s/python3.99 "${args[@]}"\n' % (real, fake),
        }
        for name, text in scripts.items():
            path = os.path.join(fake, name)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        env = dict(os.environ, PATH=fake + os.pathsep + os.environ["PATH"])
        out = self.refused(2, "spatch cannot load Python: install libpython3-dev",
                           "--tree", self.tree, env=env)
        self.assertEqual(out.count("spatch cannot load Python: install libpython3-dev"), 1)
        self.assertNotIn("failed, left as it was", out)


if __name__ == "__main__":
    unittest.main()
