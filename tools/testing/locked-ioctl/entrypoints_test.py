#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of bkl-migrate's model of the ioctl entry points
(scripts/lib/bkl_migrate/entrypoints.py): which members each era of kernels
compiles for each initialiser, a vendor's feature tests, the handlers that
today's kernels name, and what a conversion must never lose.

Run by "make check" (tier unittest), or alone:
    python3 -m unittest discover -s tools/testing/locked-ioctl -p '*_test.py'"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "scripts", "lib"))

from bkl_migrate import entrypoints as ep  # noqa: E402

FOPS = """#include <linux/fs.h>

static const struct file_operations %s = {
%s
};
"""

A, N = ep.ALWAYS, ep.NEVER


def table(body, restored=(), name="f"):
    """{era name: (ioctl, unlocked_ioctl, compat_ioctl)} of one initialiser."""
    init, = ep.model(FOPS % (name, body), restored)
    return {e.name: tuple(init.state(e, m) for m in ep.MEMBERS) for e in ep.ERAS}


def row(old, unlocked, noioctl, today):
    return dict(zip((e.name for e in ep.ERAS), (old, unlocked, noioctl, today)))


class EraTest(unittest.TestCase):
    def test_the_eras_cover_every_kernel_once(self):
        for v in (ep.kernel_version(2, 6, 0), ep.kernel_version(2, 6, 10),
                  ep.kernel_version(2, 6, 11), ep.kernel_version(2, 6, 35),
                  ep.kernel_version(2, 6, 36), ep.kernel_version(5, 8, 18),
                  ep.kernel_version(5, 9, 0), ep.kernel_version(6, 12, 0)):
            self.assertEqual(len([e for e in ep.ERAS if v in e]), 1, ep.version_name(v))

    def test_samples_are_each_test_and_the_version_before(self):
        text = "#if LINUX_VERSION_CODE >= KERNEL_VERSION(3, 4, 0)\n#endif\n"
        points = ep.samples(text)
        self.assertIn(ep.kernel_version(3, 4, 0), points)
        self.assertIn(ep.kernel_version(3, 4, 0) - 1, points)


class TableTest(unittest.TestCase):
    def test_unconditional(self):
        self.assertEqual(table(".ioctl = h,"), row((A, N, N), (A, N, N), (A, N, N), (A, N, N)))

    def test_the_kernels_macros(self):
        body = ("#ifdef HAVE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n#else\n.ioctl = h,\n#endif\n"
                "#ifdef HAVE_COMPAT_IOCTL\n.compat_ioctl = u,\n#endif")
        self.assertEqual(table(body), row((A, N, N), (N, A, A), (N, A, A), (A, N, N)))
        # defined again from 5.9 on, 5.9 builds what 2.6.36 to 5.8 did
        self.assertEqual(table(body, ep.MACROS), row((A, N, N), (N, A, A), (N, A, A), (N, A, A)))
        # one of them only
        self.assertEqual(table(body, ("HAVE_COMPAT_IOCTL",)),
                         row((A, N, N), (N, A, A), (N, A, A), (A, N, A)))

    def test_versions_split_an_era(self):
        body = "#if LINUX_VERSION_CODE < KERNEL_VERSION(3, 0, 0)\n.ioctl = h,\n#endif"
        self.assertEqual(table(body)[ep.NO_IOCTL.name], (ep.SOMETIMES, N, N))
        self.assertEqual(table(body)[ep.TODAY.name], (N, N, N))

    def test_a_macro_nobody_knows_stays_open(self):
        body = "#ifdef CONFIG_COMPAT\n.compat_ioctl = c,\n#endif"
        self.assertEqual(table(body)[ep.TODAY.name], (N, N, ep.SOMETIMES))

    def test_a_vendors_feature_tests(self):
        self.assertEqual(ep.feature_member("HAVE_KMEMB_STRUCT_FILE_OPERATIONS_IOCTL"), "ioctl")
        self.assertEqual(ep.feature_member("HAVE_OLD_IOCTL"), "ioctl")
        self.assertEqual(ep.feature_member("HAVE_UNLOCKED_IOCTL_HANDLER"), "unlocked_ioctl")
        self.assertEqual(ep.feature_member("HAVE_KMEMB_STRUCT_FILE_OPERATIONS_COMPAT_IOCTL"),
                         "compat_ioctl")
        # the kernel's own, which 5.9 dropped though the members stayed
        self.assertIsNone(ep.feature_member("HAVE_UNLOCKED_IOCTL"))
        self.assertIsNone(ep.feature_member("HAVE_COMPAT_IOCTL"))
        self.assertIsNone(ep.feature_member("HAVE_IOCTL32_CONVERSION"))
        body = ("#ifdef HAVE_UNLOCKED_IOCTL_HANDLER\n.unlocked_ioctl = u,\n#else\n.ioctl = h,\n"
                "#endif")
        self.assertEqual(table(body), row((A, N, N), (N, A, N), (N, A, N), (N, A, N)))

    def test_a_file_that_defines_the_macros_itself(self):
        text = ("#ifndef HAVE_UNLOCKED_IOCTL\n#define HAVE_UNLOCKED_IOCTL 1\n#endif\n" +
                FOPS % ("f", "#ifdef HAVE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n#else\n"
                        ".ioctl = h,\n#endif"))
        init, = ep.model(text)
        self.assertEqual(init.state(ep.TODAY, "unlocked_ioctl"), A)
        self.assertEqual(init.state(ep.TODAY, "ioctl"), N)

    def test_gcc_designators_and_names(self):
        text = FOPS % ("one", "\tioctl: h,") + FOPS % ("two", ".unlocked_ioctl = u,")
        one, two = ep.model(text)
        self.assertEqual((one.name, two.name), ("one", "two"))
        self.assertEqual(one.handlers(ep.OLD, "ioctl"), ["h"])
        self.assertEqual(two.handlers(ep.TODAY, "unlocked_ioctl"), ["u"])


class MacroMemberTest(unittest.TestCase):
    def test_a_member_a_macro_spells(self):
        # netmap's LIN_IOCTL_NAME, one #define per branch
        text = ("#ifdef HAVE_UNLOCKED_IOCTL\n#define M .unlocked_ioctl\n#else\n#define M .ioctl\n"
                "#endif\n" + FOPS % ("f", "\tM = h,"))
        init, = ep.model(text)
        self.assertEqual([(d.member, d.macro) for d in init.designators],
                         [("unlocked_ioctl", "M"), ("ioctl", "M")])
        self.assertEqual(init.state(ep.NO_IOCTL, "unlocked_ioctl"), A)
        self.assertEqual(init.state(ep.TODAY, "ioctl"), A)
        init, = ep.model(text, ep.MACROS)
        self.assertEqual(init.state(ep.TODAY, "unlocked_ioctl"), A)
        self.assertEqual(init.state(ep.TODAY, "ioctl"), N)

    def test_other_macros_are_no_members(self):
        text = "#define M 3\n" + FOPS % ("f", "\t.owner = THIS_MODULE,\n\tM = h,")
        init, = ep.model(text)
        self.assertEqual(init.designators, [])


class HandlersTest(unittest.TestCase):
    SPLIT = ("#include <linux/fs.h>\n"
             "#ifdef HAVE_UNLOCKED_IOCTL\n"
             "static long u(struct file *f, unsigned int c, unsigned long a)\n"
             "#else\n"
             "static int h(struct inode *i, struct file *f, unsigned int c, unsigned long a)\n"
             "#endif\n"
             "{\n\treturn 0;\n}\n\n"
             "static const struct file_operations f = {\n"
             "#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 6, 11)\n"
             "\t.unlocked_ioctl = u,\n#else\n\t.ioctl = h,\n#endif\n};\n")

    def test_a_handler_only_a_test_5_9_fails_defines(self):
        self.assertEqual(ep.undefined_today(self.SPLIT), [("f", "u")])
        self.assertEqual(ep.undefined_today(self.SPLIT, ("HAVE_UNLOCKED_IOCTL",)), [])

    def test_one_defined_elsewhere_is_not_asked_about(self):
        self.assertEqual(ep.undefined_today(FOPS % ("f", ".unlocked_ioctl = u,")), [])


class LostTest(unittest.TestCase):
    BEFORE = FOPS % ("f", "#ifdef HAVE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n#endif\n"
                     "#ifdef HAVE_COMPAT_IOCTL\n.compat_ioctl = u,\n#endif\n.ioctl = h,")

    def test_a_conversion_that_keeps_everything(self):
        after = self.BEFORE.replace(".ioctl = h,", "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)"
                                    "\n.ioctl = h,\n#endif").replace(
            "#ifdef HAVE_UNLOCKED_IOCTL", "#if 1").replace("#ifdef HAVE_COMPAT_IOCTL", "#if 1")
        self.assertEqual(ep.lost(self.BEFORE, after), [])

    def test_an_ioctl_left_where_the_member_is_gone(self):
        after = self.BEFORE.replace("#ifdef HAVE_UNLOCKED_IOCTL", "#if 1").replace(
            "#ifdef HAVE_COMPAT_IOCTL", "#if 1")
        problems = ep.lost(self.BEFORE, after)
        self.assertTrue(any("would build an .ioctl" in p for p in problems), problems)

    def test_an_entry_point_that_vanishes(self):
        after = self.BEFORE.replace(".ioctl = h,", "")
        problems = ep.lost(self.BEFORE, after)
        self.assertTrue(problems)
        self.assertTrue(all(p.startswith("f: ") for p in problems), problems)
        after = self.BEFORE.replace("#ifdef HAVE_COMPAT_IOCTL\n.compat_ioctl = u,\n#endif\n", "")
        self.assertIn("f: .compat_ioctl, which Linux 2.6.36 to 5.8 had (always), is never",
                      ep.lost(self.BEFORE, after))

    def test_one_kernels_tree(self):
        # a kernel tree of 2.6.34 builds its files for 2.6.34 alone
        before = FOPS % ("f", ".ioctl = h,")
        after = FOPS % ("f", ".unlocked_ioctl = w,")
        self.assertEqual(ep.lost(before, after, ep.kernel_version(2, 6, 34)), [])
        self.assertTrue(ep.lost(before, FOPS % ("f", ""), ep.kernel_version(2, 6, 34)))


if __name__ == "__main__":
    unittest.main()
