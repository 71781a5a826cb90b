#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/bkl-migrate: its preprocessor reading, the verdicts on
drivers written for many kernel versions, its writes and its self-check,
and the whole tool on fixtures, in each way a user may name the files.

Run by "make check" (tier unittest), or alone:
    python3 -m unittest discover -s tools/testing/locked-ioctl -p '*_test.py'
The tests that run the tool need spatch (coccinelle, libpython3-dev)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "scripts", "lib"))

from bkl_migrate import (  # noqa: E402
    build, cocci, convert, entrypoints, files, preprocessor, selfcheck, versions)

MIGRATE = os.path.join(REPO, "scripts", "bkl-migrate")
MULTIVERSION = os.path.join(HERE, "fixtures", "multiversion")
# a handler that several files share, in a core file with a change of its
# own, as 2.6.34's dvbdev.c
GROUP = os.path.join(HERE, "fixtures", "group")
GROUP_FILES = ("grp_core.c", "grp_core.h", "grp_dev.c")
# files of the bash tier's fixtures with BKL calls to annotate
ANNOTATED = os.path.join(HERE, "fixtures", "migrate", "before")
ANNOTATED_FILES = ("comment_ioctl.c", "narrow_ioctl.c", "syscall_bkl.c")


def tree_of(path):
    """{relative path: bytes} of every file under path."""
    out = {}
    for d, _, names in os.walk(path):
        for n in names:
            p = os.path.join(d, n)
            with open(p, "rb") as f:
                out[os.path.relpath(p, path)] = f.read()
    return out


def migrate(*args, cwd=None):
    """scripts/bkl-migrate ARGS: (exit code, output)."""
    proc = subprocess.run([MIGRATE, "-j2"] + list(args), cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace", check=False)
    return proc.returncode, proc.stdout


class PreprocessorTest(unittest.TestCase):
    TEXT = ("#include <linux/fs.h>\n"          # 1
            "#ifdef A\n"                        # 2
            "int a;\n"                          # 3
            "#elif defined(B) && \\\n"          # 4
            "      B > 2\n"                     # 5
            "int b;\n"                          # 6
            "#else\n"                           # 7
            "/* #endif in a comment */\n"       # 8
            "int c;\n"                          # 9
            "#endif\n"                          # 10
            "int d;\n")                         # 11

    def offset(self, line):
        return len("".join(text + "\n" for text in self.TEXT.split("\n")[:line - 1]))

    def test_branches(self):
        cond = preprocessor.Conditionals(self.TEXT)
        self.assertEqual(cond.branches_at(self.offset(1)), [])
        self.assertEqual([b.kind for b in cond.branches_at(self.offset(3))], ["ifdef"])
        self.assertEqual([b.kind for b in cond.branches_at(self.offset(6))], ["elif"])
        self.assertEqual([b.kind for b in cond.branches_at(self.offset(9))], ["else"])
        self.assertEqual(cond.branches_at(self.offset(11)), [])
        self.assertTrue(cond.exclusive(self.offset(3), self.offset(9)))
        self.assertFalse(cond.exclusive(self.offset(3), self.offset(11)))
        self.assertTrue(cond.tests("B") and cond.tests("A") and not cond.tests("C"))

    def test_include_guard_is_file_scope(self):
        text = ("/* x */\n#ifndef _X_H\n#define _X_H\n#include <a.h>\n#ifdef A\nint a;\n"
                "#endif\n#endif\n")
        cond = preprocessor.Conditionals(text)
        self.assertEqual(cond.branches_at(text.index("#include")), [])
        self.assertEqual([b.expr for b in cond.branches_at(text.index("int a"))], ["A"])
        # not a guard: code after its #endif
        cond = preprocessor.Conditionals(text + "int b;\n")
        self.assertEqual(len(cond.branches_at(text.index("#include"))), 1)

    def test_branch_conditions(self):
        cond = preprocessor.Conditionals(self.TEXT)
        elif_ = cond.branches_at(self.offset(6))[0]
        self.assertEqual(elif_.conditions(), [("defined(A)", False),
                                              ("defined(B) &&        B > 2", True)])
        ev = preprocessor.Evaluator({"A": False, "B": 3})
        self.assertEqual(preprocessor.taken([elif_], ev), 1)
        self.assertEqual(preprocessor.taken(cond.branches_at(self.offset(9)), ev), 0)
        # B unknown: the #elif may or may not be taken, #if A is not
        ev = preprocessor.Evaluator({"A": False})
        self.assertIsNone(preprocessor.taken([elif_], ev))
        self.assertEqual(preprocessor.taken(cond.branches_at(self.offset(3)), ev), 0)

    def test_evaluator(self):
        ev = preprocessor.Evaluator({"LINUX_VERSION_CODE": entrypoints.kernel_version(2, 6, 35),
                                     "GONE": False},
                                    entrypoints.FUNCTIONS,
                                    {"NEWER": [("LINUX_VERSION_CODE > 0x20623", ())]})
        for expr, want in (("LINUX_VERSION_CODE < KERNEL_VERSION(2,6,36)", 1),
                           ("KERNEL_VERSION(2, 6, 35) <= LINUX_VERSION_CODE", 1),
                           ("(LINUX_VERSION_CODE > KERNEL_VERSION(2,6,35))", 0),
                           ("!defined(GONE) && GONE == 0", 1),
                           ("defined UNKNOWN", None), ("UNKNOWN || 1", 1),
                           ("0 && UNKNOWN", 0), ("UNKNOWN ? 2 : 2", 2), ("NEWER", 0),
                           ("RHEL_RELEASE_VERSION(7, 2)", None), ("1 +", None),
                           ("0x10 >> 4 == 1UL", 1), ("-1 < 0", 1)):
            self.assertEqual(ev.evaluate(expr), want, expr)


def verdicts(text, kernel=None):
    sites, restore = versions.assess(text, kernel)
    return restore, [s.verdict for s in sites]


FOPS = """#include <linux/fs.h>

static const struct file_operations f = {
%s
};
"""


class VersionsTest(unittest.TestCase):
    def test_verdicts(self):
        for body, restore, verdict in (
                ("#ifdef HAVE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n#else\n.ioctl = h,\n#endif",
                 ["HAVE_UNLOCKED_IOCTL"], versions.RESTORE),
                # 2.6.11 to 5.8 had only the compat entry point, which 5.9
                # gets back; the old handler, which only kernels before
                # 2.6.11 built, gives 5.9 the one no kernel since had
                ("#if !defined(HAVE_UNLOCKED_IOCTL)\n.ioctl = h,\n#endif\n"
                 "#ifdef HAVE_COMPAT_IOCTL\n.compat_ioctl = c,\n#endif",
                 ["HAVE_COMPAT_IOCTL"], versions.CONVERT),
                ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,36)\n.ioctl = h,\n#else\n"
                 ".unlocked_ioctl = u,\n#endif", [], versions.OLD_ONLY),
                ("#if LINUX_VERSION_CODE <= KERNEL_VERSION(2,6,35)\n\tioctl: h,\n#else\n"
                 "\tunlocked_ioctl: u,\n#endif", [], versions.OLD_ONLY),
                ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,37)\n.ioctl = h,\n#endif",
                 [], versions.GAP),
                ("#if 0\n.ioctl = h,\n#endif", [], versions.NEVER_BUILT),
                ("#ifdef CONFIG_FOO\n.ioctl = h,\n#endif", [], versions.CONVERT),
                ("#if LINUX_VERSION_CODE < KERNEL_VERSION(99,0,0)\n.ioctl = h,\n#endif",
                 [], versions.CONVERT),
                # 2.6.36 to 5.8 had no entry point: one would vanish
                ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,36)\n.ioctl = h,\n#endif",
                 [], versions.NO_ENTRY),
                # a vendor's test of the old member: no kernel from 2.6.36
                # builds it, and 5.9 gets back the entry point of 2.6.36
                ("#ifdef HAVE_OLD_IOCTL\n.ioctl = h,\n#endif\n"
                 "#ifdef HAVE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n#endif",
                 ["HAVE_UNLOCKED_IOCTL"], versions.OLD_ONLY),
                # an autoconf test of the new member: configure decides
                ("#ifdef HAVE_UNLOCKED_IOCTL_HANDLER\n.unlocked_ioctl = u,\n#else\n.ioctl = h,"
                 "\n#endif", [], versions.OLD_ONLY),
                # beside the entry point of every kernel from 2.6.11: kept
                # for kernels before 2.6.36 only, the macros defined again
                (".ioctl = h,\n#ifdef HAVE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n#endif",
                 ["HAVE_UNLOCKED_IOCTL"], versions.GUARD)):
            self.assertEqual(verdicts(FOPS % body), (restore, [verdict]), body)

    def test_shadowed(self):
        # 2.6.34's fs/bad_inode.c: both members in one initialiser, in a
        # kernel tree: said, as the VFS never called it
        both = FOPS % ".ioctl = h,\n.unlocked_ioctl = u,"
        self.assertEqual(verdicts(both, entrypoints.kernel_version(2, 6, 34)),
                         ([], [versions.SHADOWED]))
        # in a driver's own directory, for today's kernels: guarded
        self.assertEqual(verdicts(both), ([], [versions.GUARD]))
        self.assertEqual(verdicts(FOPS % "#if 0\n.ioctl = h,\n#endif\n.unlocked_ioctl = u,"),
                         ([], [versions.NEVER_BUILT]))
        self.assertEqual(verdicts(FOPS % "#ifdef A\n.ioctl = h,\n#else\n.unlocked_ioctl = u,"
                                  "\n#endif"), ([], [versions.CONVERT]))

    def test_gap_names_the_kernels(self):
        text = FOPS % "#if LINUX_VERSION_CODE < KERNEL_VERSION(3,0,0)\n.ioctl = h,\n#endif"
        sites, _ = versions.assess(text)
        self.assertIn("built for Linux 2.6.36 and later kernels before 3.0,", sites[0].why())

    def test_a_macro_of_the_file_defined_under_a_test(self):
        # a vendor driver's indirection: USE_UNLOCKED_IOCTL only where the
        # kernel defines HAVE_UNLOCKED_IOCTL as 1
        text = ("#ifdef HAVE_UNLOCKED_IOCTL\n#if HAVE_UNLOCKED_IOCTL\n#define USE_UNLOCKED_IOCTL\n"
                "#endif\n#endif\n" + FOPS % "#ifdef USE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n"
                "#else\n.ioctl = h,\n#endif")
        self.assertEqual(verdicts(text), (["HAVE_UNLOCKED_IOCTL"], [versions.RESTORE]))

    def test_own_define(self):
        text = ("#ifndef HAVE_UNLOCKED_IOCTL\n#define HAVE_UNLOCKED_IOCTL 1\n#endif\n" +
                FOPS % "#ifdef HAVE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n#else\n.ioctl = h,\n"
                "#endif")
        self.assertEqual(verdicts(text), ([], [versions.OLD_ONLY]))

    def test_restore_after_the_includes(self):
        text = FOPS % "#ifdef HAVE_UNLOCKED_IOCTL\n.unlocked_ioctl = u,\n#else\n.ioctl = h,\n#endif"
        out = versions.restore_macros(text, ["HAVE_UNLOCKED_IOCTL"])
        self.assertTrue(out.startswith("#include <linux/fs.h>\n#include <linux/version.h>\n\n"
                                       "/*\n"), out)
        self.assertIn("#if KERNEL_VERSION(5, 9, 0) <= LINUX_VERSION_CODE\n", out)
        self.assertIn("#ifndef HAVE_UNLOCKED_IOCTL\n#define HAVE_UNLOCKED_IOCTL 1\n#endif\n"
                      "#endif\n\nstatic const", out)

    def test_restore_before_the_outer_if(self):
        text = ("#ifdef __KERNEL__\n#ifdef HAVE_UNLOCKED_IOCTL\nint u;\n#endif\n#endif\n")
        out = versions.restore_macros(text, ["HAVE_UNLOCKED_IOCTL"])
        self.assertTrue(out.startswith("#include <linux/version.h>\n\n/*\n"), out)
        self.assertTrue(out.endswith("#endif\n#endif\n\n" + text), out)

    def test_prepare_hides_what_today_does_not_build(self):
        text = FOPS % ("#if LINUX_VERSION_CODE < KERNEL_VERSION(2,6,36)\n.ioctl = h,\n#else\n"
                       ".unlocked_ioctl = h,\n#endif")
        start, notes, restored, in_place, how = versions.prepare(text)
        self.assertNotIn(".ioctl", start)
        self.assertEqual(versions.unmask(start), text)
        self.assertEqual((restored, in_place, how), ([], [], []))
        self.assertEqual(len(notes), 1)
        self.assertTrue(notes[0].startswith("nothing to do:"))


class BuildCheckTest(unittest.TestCase):
    """--check-build's judge of a compiler's errors: this tool's kind (an
    ioctl member, the BKL, the layer, an entry point's handler, and what
    follows from one on its line) apart from the others."""
    OUT = ("/t/src/x.c:26:10: error: 'const struct file_operations' has no member named "
           "'ioctl'\n"
           "/t/src/x.c:26:19: error: initialization of 'loff_t (*)(struct file *, loff_t,  "
           "int)' from incompatible pointer type [-Werror=incompatible-pointer-types]\n"
           "/t/src/x.c:30:2: error: 'x_unlocked_ioctl' undeclared here (not in a function)\n"
           "/t/src/x.c:40:9: error: implicit declaration of function 'lock_kernel'\n"
           "/t/src/x.c:50:15: error: 'struct file' has no member named 'f_dentry'\n"
           "/t/src/x.c:51:1: warning: 'x_old' defined but not used [-Wunused-function]\n"
           "/t/src/y.c:9:1: error: 'struct file' has no member named 'f_dentry'\n")

    def test_ours_and_the_rest(self):
        tmp = tempfile.mkdtemp(prefix="bkl-migrate-test.")
        self.addCleanup(shutil.rmtree, tmp)
        path = os.path.join(tmp, "x.c")
        with open(path, "w") as f:
            f.write(FOPS % ".unlocked_ioctl = x_unlocked_ioctl,")
        mine, other = build.classify(self.OUT, path, False)
        self.assertEqual([e.split(":")[0] for e in mine], ["26", "26", "30", "40"])
        self.assertEqual(other, ["50: 'struct file' has no member named 'f_dentry'"])

    def test_a_header_s_errors_are_its_includers(self):
        # a driver's header that needs its configure's output: the error is
        # the compilation's of x.c, which kbuild named before it
        out = ("  CC [M]  /t/src/y.o\n"
               "  CC [M]  /t/src/x.o\n"
               "/t/src/backport.h:5:10: fatal error: config.h: No such file or directory\n"
               "compilation terminated.\n")
        tmp = tempfile.mkdtemp(prefix="bkl-migrate-test.")
        self.addCleanup(shutil.rmtree, tmp)
        for name in ("x.c", "y.c"):
            with open(os.path.join(tmp, name), "w") as f:
                f.write("int v;\n")
        self.assertEqual(build.classify(out, os.path.join(tmp, "x.c"), False),
                         ([], ["backport.h:5: config.h: No such file or directory"]))
        self.assertEqual(build.classify(out, os.path.join(tmp, "y.c"), True), ([], []))

    def test_curly_quotes(self):
        self.assertTrue(build.ours("\u2018struct file_operations\u2019 has no member named "
                                   "\u2018ioctl\u2019", set()))
        self.assertTrue(build.ours("\u2018x_bkl\u2019 undeclared", set()))
        self.assertTrue(build.ours("\u2018u\u2019 undeclared", {"u"}))
        self.assertFalse(build.ours("\u2018v\u2019 undeclared", {"u"}))

    def test_a_file_that_does_not_compile_says_so(self):
        tmp = tempfile.mkdtemp(prefix="bkl-migrate-test.")
        self.addCleanup(shutil.rmtree, tmp)
        path = os.path.join(tmp, "z.c")
        with open(path, "w") as f:
            f.write("int z;\n")
        mine, other = build.classify("make: *** No rule to make target 'z.o'.", path, False)
        self.assertEqual(mine, [])
        self.assertTrue(other and other[0].startswith("does not compile: "), other)
        self.assertEqual(build.classify("", path, True), ([], []))


class TreeWritesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bkl-migrate-test.")
        self.tree = os.path.join(self.tmp, "tree")
        os.makedirs(os.path.join(self.tree, "d"))
        for name in ("a.c", "d/b.c"):
            with open(os.path.join(self.tree, name), "w") as f:
                f.write("old %s\n" % name)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_rollback(self):
        backup = os.path.join(self.tmp, "backup")
        os.makedirs(os.path.join(backup, "d"))
        with open(os.path.join(backup, "d", "b.c"), "w") as f:
            f.write("an older original\n")
        before = tree_of(self.tree)
        w = files.TreeWrites(self.tree, backup)
        w.write(os.path.join(self.tree, "a.c"), "new\n")
        w.write(os.path.join(self.tree, "d", "..", "a.c"), "newer\n")
        w.write(os.path.join(self.tree, "d", "b.c"), "new b\n")
        self.assertEqual(w.written(), [os.path.join(os.path.realpath(self.tree), p)
                                       for p in ("a.c", "d/b.c")])
        self.assertEqual(tree_of(backup)["a.c"], b"old a.c\n")
        w.rollback()
        self.assertEqual(tree_of(self.tree), before)
        # the backup of this run is gone, the older one is kept
        self.assertEqual(tree_of(backup), {"d/b.c": b"an older original\n"})

    def test_same_text_is_no_write(self):
        w = files.TreeWrites(self.tree)
        w.write(os.path.join(self.tree, "a.c"), "old a.c\n")
        self.assertEqual(w.originals, {})


class SelfCheckTest(unittest.TestCase):
    OPS = "static const struct file_operations f = {\n\t.unlocked_ioctl = w,\n};\n"

    def check(self, plan, disk=None):
        texts = dict(disk or {})
        texts.update({p: new for p, (_, new) in plan.items()})
        tmp = tempfile.mkdtemp(prefix="bkl-migrate-test.")
        self.addCleanup(shutil.rmtree, tmp)
        return selfcheck.check(tmp, plan, lambda p: texts[p])

    def test_a_lost_generator_is_found(self):
        problems = self.check({"x.c": ("", self.OPS)})
        self.assertEqual(len(problems), 1)
        self.assertIn("w (operations in x.c) is defined in no file under", problems[0])

    def test_a_generator_defines_it(self):
        plan = {"x.c": ("", "DEFINE_BKL_IOCTL(w, h);\n" + self.OPS)}
        self.assertEqual(self.check(plan), [])

    def test_twice_is_found_unless_exclusive(self):
        twice = "DEFINE_BKL_IOCTL(w, h);\nDEFINE_BKL_IOCTL(w, h);\n" + self.OPS
        self.assertEqual(self.check({"x.c": ("", twice)}), ["w is defined 2 times in x.c"])
        branches = "#ifdef A\nDEFINE_BKL_IOCTL(w, h);\n#else\nDEFINE_BKL_IOCTL(w, g);\n#endif\n"
        self.assertEqual(self.check({"x.c": ("", branches + self.OPS)}), [])

    def test_header_declaration_needs_one_external_definition(self):
        plan = {"x.h": ("", "long w(struct file *file, unsigned int cmd, unsigned long arg);\n"),
                "y.c": ("", "static long w(struct file *file, unsigned int c, unsigned long a)"
                            "\n{\n\treturn 0;\n}\n")}
        problems = self.check(plan)
        self.assertEqual(len(problems), 1)
        self.assertIn("w (declared in x.h) is defined in no file", problems[0])
        plan["y.c"] = ("", "DEFINE_BKL_IOCTL_EXPORT(w, h);\n")
        self.assertEqual(self.check(plan), [])


class FixtureTest(unittest.TestCase):
    """The whole tool on copies of fixtures."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="bkl-migrate-test.")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def copy(self, src, names=None):
        dst = os.path.join(self.tmp, "tree")
        if names is None:
            shutil.copytree(src, dst)
        else:
            os.makedirs(dst)
            for n in names:
                shutil.copy(os.path.join(src, n), dst)
        return dst


class AnnotateTest(FixtureTest):
    """ANNOTATE over many files in one spatch run is ANNOTATE on each."""

    def requests(self, sub):
        d = os.path.join(self.tmp, sub)
        os.makedirs(d)
        out = []
        for n in ANNOTATED_FILES:
            work = os.path.join(d, n)
            shutil.copy(os.path.join(ANNOTATED, n), work)
            # a record name taken in the file: the per-file names must reach it
            out.append(cocci.Annotation(work, {"comment_open": "comment_open_bkl_user"}
                                        if n == "comment_ioctl.c" else {}))
        return out

    def outcome(self, requests):
        return [(files.read(r.work), r.entries()) for r in requests]

    def test_batch_is_each_alone(self):
        cocci.check_spatch()
        alone = self.requests("alone")
        for r in alone:
            self.assertEqual(cocci.annotate([r]), [None])
        batch = self.requests("batch")
        self.assertEqual(cocci.annotate(batch, jobs=1), [None] * len(batch))
        self.assertEqual(self.outcome(batch), self.outcome(alone))
        for text, entries in self.outcome(batch):
            self.assertNotIn("lock_kernel()", text)
            self.assertTrue(entries)
        self.assertIn("lock_kernel_user(&comment_open_bkl_user)", self.outcome(batch)[0][0])

    def test_a_failed_batch_is_run_file_by_file(self):
        cocci.check_spatch()
        real, bad = cocci.run_spatch, ANNOTATED_FILES[1]

        def failing(sp, paths, *args):
            if any(p.endswith(bad) for p in paths):
                # a batch run that changed some files before it failed
                for p in paths:
                    files.write_file(p, "garbage\n")
                raise RuntimeError("spatch: it failed")
            return real(sp, paths, *args)
        batch = self.requests("batch")
        cocci.run_spatch = failing
        try:
            errors = cocci.annotate(batch, jobs=1)
        finally:
            cocci.run_spatch = real
        self.assertEqual([e is not None for e in errors],
                         [n == bad for n in ANNOTATED_FILES])
        alone = self.requests("alone")
        cocci.annotate(alone)
        for i, n in enumerate(ANNOTATED_FILES):
            if n != bad:
                self.assertEqual(self.outcome(batch)[i], self.outcome(alone)[i])

    def test_convert_alone_is_the_conversion_driven(self):
        cocci.check_spatch()
        work = self.copy(ANNOTATED, ANNOTATED_FILES[:1])
        path = os.path.join(work, ANNOTATED_FILES[0])
        steps = convert.conversion(path, False)
        request = next(steps)
        self.assertIsInstance(request, cocci.Annotation)
        self.assertEqual(cocci.annotate([request]), [None])
        with self.assertRaises(StopIteration) as done:
            steps.send(None)
        self.assertEqual(done.exception.value.text, convert.convert(path, False).text)


class MultiVersionTest(FixtureTest):
    def test_before_becomes_after(self):
        tree = self.copy(os.path.join(MULTIVERSION, "before"))
        rc, out = migrate("--tree", tree)
        self.assertEqual(rc, 0, out)
        self.assertEqual(tree_of(tree), tree_of(os.path.join(MULTIVERSION, "after")), out)
        for line in (
                "mv_have_ifdef.c: converted: HAVE_UNLOCKED_IOCTL defined again for Linux 5.9 "
                "and later",
                "mv_have_defined.c: converted: HAVE_UNLOCKED_IOCTL and HAVE_COMPAT_IOCTL "
                "defined again",
                "mv_have_lock_kernel.c: converted: HAVE_UNLOCKED_IOCTL defined again for "
                "Linux 5.9 and later, DEFINE_BKL_IOCTL(mvl_unlocked_ioctl)",
                "mv_version_lt.c: nothing to do: .ioctl = mvv_ioctl is built only for kernels "
                "before 2.6.36, which have .ioctl",
                "mv_own_define.c: nothing to do: .ioctl = mvo_ioctl is built only for kernels "
                "before 2.6.36",
                "mv_if0.c: nothing to do: .ioctl = mvz_old_ioctl is never built (#if 0)",
                "mv_version_gap.c: left: .ioctl = mvp_ioctl is built for Linux 2.6.36 and "
                "later kernels before 3.0, which have no .ioctl",
                "mv_macro_name.c: converted: DEFINE_BKL_IOCTL(mvm_unlocked_ioctl)",
                "mv_compat_direct.c: converted: DEFINE_BKL_IOCTL(mvc_unlocked_ioctl), "
                "DEFINE_BKL_COMPAT_IOCTL(mvc_compat_ioctl)",
                "mv_compat_bkl.c: converted: DEFINE_BKL_IOCTL(mvk_unlocked_ioctl), "
                "DEFINE_BKL_COMPAT_IOCTL(mvk_compat_ioctl)",
                "mv_bkl_version.c: nothing to do: lock_kernel() in mvb_unlocked_ioctl is built "
                "only for kernels before 2.6.39, which have the BKL",
                "mv_bkl_config.c: note: lock_kernel() in mva_unlocked_ioctl is under an #if of "
                "its own: declared where it is (DEFINE_BKL_USER()), not made a wrapper",
                "mv_use_macro.c: converted: HAVE_UNLOCKED_IOCTL defined again",
                "mv_include_ifdef.c: converted: DEFINE_BKL_IOCTL(mve_unlocked_ioctl)",
                "mv_split.h: converted: HAVE_COMPAT_IOCTL defined again for Linux 5.9 and "
                "later (as the other files of the run)",
                # a vendor's own test of the old member: 5.9 gets back the
                # entry point of 2.6.36 to 5.8 (HAVE_OLD_IOCTL, an autoconf
                # HAVE_KMEMB_STRUCT_FILE_OPERATIONS_IOCTL)
                "mv_old_feature.c: converted: HAVE_UNLOCKED_IOCTL defined again for Linux "
                "5.9 and later",
                "mv_autoconf_member.c: converted: HAVE_UNLOCKED_IOCTL and HAVE_COMPAT_IOCTL "
                "defined again for Linux 5.9 and later",
                # the old .ioctl beside the new entry point
                "mv_beside.c: converted: HAVE_UNLOCKED_IOCTL and HAVE_COMPAT_IOCTL defined "
                "again for Linux 5.9 and later, .ioctl = mvb_old_ioctl kept for kernels "
                "before 2.6.36 only, beside .unlocked_ioctl",
                "mv_shadow.c: converted: .ioctl = mvw_ioctl kept for kernels before 2.6.36 "
                "only, beside .unlocked_ioctl",
                # the handler's name differs by branch
                "mv_head_names.c: converted: HAVE_UNLOCKED_IOCTL defined again for Linux 5.9 "
                "and later",
                "mv_head_first.c: converted: DEFINE_BKL_IOCTL(mvg_unlocked_ioctl)",
                "mv_split_user.c: converted: HAVE_UNLOCKED_IOCTL defined again for Linux 5.9 "
                "and later, DEFINE_BKL_USER(mvx_ioctl_bkl)",
                # no entry point from 2.6.36 on: the BKL wrapper of the old
                # handler for them
                "mv_old_only.c: converted: .unlocked_ioctl = mvo2_unlocked_ioctl "
                "(DEFINE_BKL_IOCTL() of mvo2_ioctl) for 2.6.36 and later, which had no "
                "entry point",
                # the member spelt by a macro of the file
                "mv_member_macro.c: converted: HAVE_UNLOCKED_IOCTL defined again for Linux "
                "5.9 and later",
                # configure decides: nothing to do, and no "by hand"
                "mv_autoconf_unlocked.c: nothing to do: .ioctl = mva2_ioctl is built only for "
                "kernels before 2.6.36, which have .ioctl",
                "bkl-migrate: 35 file(s) scanned, 29 converted, 0 failed, 2 with something "
                "skipped or left"):
            self.assertIn("\n" + line, "\n" + out)
        # nothing in comments or #if 0 is said to be left: only the guard
        # that lets .ioctl reach 2.6.36
        self.assertEqual(out.count(": left: "), 1, out)
        self.assertNotIn("by hand", "".join(line for line in out.splitlines(True)
                                             if "mv_autoconf_unlocked.c" in line))
        rc, again = migrate("--tree", tree)
        self.assertEqual(tree_of(tree), tree_of(os.path.join(MULTIVERSION, "after")), again)

    def test_each_file_alone(self):
        # a vendor's files migrated one by one, each in a directory of its
        # own: the same result, though the compat handler of mv_elsewhere.c
        # is defined in a file the run does not see
        for name in ("mv_elsewhere.c", "mv_spread.c", "mv_split_user.c", "mv_beside.c"):
            tree = os.path.join(self.tmp, name)
            os.makedirs(tree)
            shutil.copy(os.path.join(MULTIVERSION, "before", name), tree)
            if name == "mv_elsewhere.c":
                shutil.copy(os.path.join(MULTIVERSION, "before", "mv_elsewhere.h"), tree)
            rc, out = migrate(".", cwd=tree)
            self.assertEqual(rc, 0, out)
            with open(os.path.join(tree, name)) as f, \
                    open(os.path.join(MULTIVERSION, "after", name)) as want:
                self.assertEqual(f.read(), want.read(), out)


class NamesTest(FixtureTest):
    def test_a_taken_wrapper_name_is_not_reused(self):
        # 2.6.34's v4l2-dev.c: v4l2_ioctl, and a v4l2_unlocked_ioctl of its own
        tree = os.path.join(self.tmp, "tree")
        os.makedirs(tree)
        with open(os.path.join(tree, "taken.c"), "w") as f:
            f.write("#include <linux/fs.h>\n\n"
                    "static int tk_ioctl(struct inode *inode, struct file *file,\n"
                    "\t\t    unsigned int cmd, unsigned long arg)\n"
                    "{\n\treturn iminor(inode);\n}\n\n"
                    "static long tk_unlocked_ioctl(struct file *file, unsigned int cmd,\n"
                    "\t\t\t      unsigned long arg)\n{\n\treturn 0;\n}\n\n"
                    "static const struct file_operations tk_new_fops = {\n"
                    "\t.unlocked_ioctl\t= tk_unlocked_ioctl,\n};\n\n"
                    "static const struct file_operations tk_old_fops = {\n"
                    "\t.ioctl\t\t= tk_ioctl,\n};\n")
        rc, out = migrate("--tree", tree)
        self.assertEqual(rc, 0, out)
        with open(os.path.join(tree, "taken.c")) as f:
            text = f.read()
        self.assertIn("DEFINE_BKL_IOCTL(tk_bkl_ioctl, tk_ioctl);", text)
        self.assertIn("\t.unlocked_ioctl\t= tk_unlocked_ioctl,\n};", text)
        self.assertIn("\t.unlocked_ioctl\t= tk_bkl_ioctl,\n};", text)

    DEAD = ("#include <linux/fs.h>\n\n"
            "static int bad_ioctl(struct inode *inode, struct file *file,\n"
            "\t\t     unsigned int cmd, unsigned long arg)\n{\n\treturn -EIO;\n}\n\n"
            "static long bad_unlocked_ioctl(struct file *file, unsigned int cmd,\n"
            "\t\t\t       unsigned long arg)\n{\n\treturn -EIO;\n}\n\n"
            "static const struct file_operations bad_fops = {\n"
            "\t.ioctl\t\t= bad_ioctl,\n\t.unlocked_ioctl\t= bad_unlocked_ioctl,\n};\n")

    def test_a_dead_ioctl_is_left_in_a_kernel_tree(self):
        # 2.6.34's fs/bad_inode.c: that kernel builds it, the VFS never
        # calls it, and a version test has no place in a kernel tree
        tree = os.path.join(self.tmp, "tree")
        os.makedirs(tree)
        makefile = "VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 34\n"
        for name, text in (("bad.c", self.DEAD), ("Makefile", makefile)):
            with open(os.path.join(tree, name), "w") as f:
                f.write(text)
        rc, out = migrate("--tree", tree, "bad.c")
        self.assertEqual(rc, 0, out)
        self.assertIn("bad.c: left: .ioctl = bad_ioctl is beside .unlocked_ioctl = "
                      "bad_unlocked_ioctl in the same operations", out)
        self.assertIn("0 converted, 0 failed, 1 with something skipped or left", out)
        self.assertEqual(tree_of(tree), {"bad.c": self.DEAD.encode(),
                                         "Makefile": makefile.encode()})

    def test_a_dead_ioctl_is_guarded_in_a_drivers_directory(self):
        # a driver for today's kernels: kept for kernels before 2.6.36, and
        # its handler, which nothing else uses, with it
        tree = os.path.join(self.tmp, "tree")
        os.makedirs(tree)
        with open(os.path.join(tree, "bad.c"), "w") as f:
            f.write(self.DEAD)
        rc, out = migrate("--tree", tree)
        self.assertEqual(rc, 0, out)
        self.assertIn("bad.c: converted: .ioctl = bad_ioctl kept for kernels before 2.6.36 "
                      "only, beside .unlocked_ioctl", out)
        guard = "#if LINUX_VERSION_CODE < KERNEL_VERSION(2, 6, 36)\n"
        want = ("#include <linux/fs.h>\n#include <linux/version.h>\n\n" + guard +
                self.DEAD[len("#include <linux/fs.h>\n\n"):].replace(
                    "}\n\nstatic long", "}\n#endif\n\nstatic long").replace(
                    "\t.ioctl\t\t= bad_ioctl,\n", guard + "\t.ioctl\t\t= bad_ioctl,\n#endif\n"))
        self.assertEqual(tree_of(tree), {"bad.c": want.encode()})


class InvocationTest(FixtureTest):
    """However the files of a group are named (relative to a tree given
    absolute, from inside it, with ./, twice, through a link, as a
    directory), each is one file, written once with every change: the
    2.6.34 dvbdev.c lost its generator to a second spelling of itself."""

    def expect_group_converted(self, tree, rc, out):
        self.assertEqual(rc, 0, out)
        self.assertEqual(tree_of(tree), tree_of(os.path.join(GROUP, "after")), out)
        self.assertIn("3 file(s) scanned, 3 converted, 0 failed", out)

    def test_forms(self):
        forms = (
            ("relative, from inside, --tree absolute",
             lambda t: (t, ["--tree", t] + list(GROUP_FILES))),
            ("absolute, ./ and twice", lambda t: (self.tmp, [
                "--tree", t, os.path.join(t, "grp_core.c"), "./tree/grp_core.c",
                "tree/grp_dev.c", os.path.join(t, ".", "grp_core.h"), "tree/grp_dev.c"])),
            ("relative to --tree from elsewhere",
             lambda t: ("/", ["--tree", t] + list(GROUP_FILES))),
            ("a directory and its files", lambda t: (t, ["--tree", ".", ".", "grp_core.c"])),
            ("through a link", lambda t: (self.tmp, [
                "--tree", t, os.path.join(self.tmp, "link", "grp_core.c"),
                os.path.join(t, "grp_core.h"), os.path.join(self.tmp, "link", "grp_dev.c")])),
        )
        for name, form in forms:
            with self.subTest(form=name):
                shutil.rmtree(self.tmp)
                os.makedirs(self.tmp)
                tree = self.copy(os.path.join(GROUP, "before"), GROUP_FILES)
                os.symlink(tree, os.path.join(self.tmp, "link"))
                cwd, args = form(tree)
                rc, out = migrate(*args, cwd=cwd)
                self.expect_group_converted(tree, rc, out)
                before = tree_of(tree)
                rc, again = migrate(*args, cwd=cwd)
                self.assertEqual(tree_of(tree), before, "a second run changed something")
                self.assertIn("0 converted, 0 failed", again)

    def test_self_check_undoes_the_run(self):
        tree = self.copy(os.path.join(GROUP, "before"), GROUP_FILES)
        # another file of the tree defines the wrapper the group would get
        with open(os.path.join(tree, "grp_other.c"), "w") as f:
            f.write("long grp_generic_unlocked_ioctl(struct file *file, unsigned int cmd,\n"
                    "\t\t\t       unsigned long arg)\n{\n\treturn 0;\n}\n")
        backup = os.path.join(self.tmp, "backup")
        before = tree_of(tree)
        rc, out = migrate("--tree", tree, "--backup", backup, *GROUP_FILES, cwd=tree)
        self.assertEqual(rc, 1, out)
        self.assertIn("bkl-migrate: self-check: grp_generic_unlocked_ioctl", out)
        self.assertIn("is defined 2 times: grp_core.c, grp_other.c", out)
        self.assertIn("the self-check failed, so every file of the run is as it was", out)
        self.assertEqual(tree_of(tree), before)
        self.assertEqual(tree_of(backup) if os.path.isdir(backup) else {}, {})


if __name__ == "__main__":
    unittest.main()
