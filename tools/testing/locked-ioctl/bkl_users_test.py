#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/bkl-users' reading of C source: blanking, the functions
of a file, the file-scope mutexes, the tests that rule a file out before
it is parsed, and the grep that lists the files, each against what a plain
(slower) reading gives.

Run by "make check" (tier unittest), or alone:
    python3 -m unittest discover -s tools/testing/locked-ioctl -p '*_test.py'"""
import os
import re
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "scripts", "lib"))

from bkl_users import api, candidates, csource, sources  # noqa: E402

# C that trips a careless reader: braces, quotes and "#" in literals and
# comments, continued directives, unterminated things at the end.
# (indented with tabs, as the kernel is)
TRICKY = r'''#include <linux/fs.h>
#define BRACE "{"
#define LONG(x) \
    do { x; } \
    while (0)
/* a comment with { and "quotes" and '
 * a second line } ** */
static DEFINE_MUTEX(one_lock);
static
struct mutex two_lock;
struct priv {
    struct mutex member_lock;
    int (*fn)(int a, void (*b)(int));
};
static const char *s = "a \" { // not a comment";
static char c = '{', d = '\'', e = '"';
static long one_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
    long ret;

    mutex_lock(&one_lock);
    if (cmd == '}') {
        ret = 0; /* } */
    } else {
        ret = -ENOTTY; // }
    }
    mutex_unlock(&one_lock);
    return ret;
}
#if 0
}
#endif
int two(void) { return 0; }
static const struct file_operations one_fops = {
    .unlocked_ioctl = one_ioctl,
};
/* unterminated'''.replace("    ", "\t")


def reference_blank(text):
    """Blanking one character at a time: a small scanner of C."""
    out, i, n = list(text), 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                # unterminated: left as it is, as the pattern does
                i += 1
                continue
            end += 2
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] not in (c, "\n"):
                j += 2 if text[j] == "\\" else 1
            if j >= n or text[j] != c:
                i += 1
                continue
            end = j + 1
        elif c == "#" and line_start:
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text.startswith("\\\n", j) else 1
            end = j
        else:
            if c == "\n":
                line_start = True
            elif c not in " \t":
                line_start = False
            i += 1
            continue
        for k in range(i, end):
            if out[k] != "\n":
                out[k] = " "
        line_start = False
        i = end
    return "".join(out)


def reference_functions(code):
    """functions() as a loop over every character."""
    result, depth, header_start, func = [], 0, 0, None
    for i, c in enumerate(code):
        if c not in "{};":
            continue
        if func is not None:
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    result.append(func + (i + 1,))
                    func, header_start = None, i + 1
            continue
        if c == "{":
            if depth == 0:
                fn = csource.function_name(code, header_start, i)
                if fn:
                    func, depth = fn + (i,), 1
                    continue
            depth += 1
        elif c == "}":
            depth = max(depth - 1, 0)
            if depth == 0:
                header_start = i + 1
        elif depth == 0:
            header_start = i + 1
    if func is not None:
        result.append(func + (len(code),))
    return result


class BlankTest(unittest.TestCase):
    def test_blank_as_a_scanner(self):
        got = csource.blank(TRICKY)
        self.assertEqual(len(got), len(TRICKY))
        self.assertEqual(got.count("\n"), TRICKY.count("\n"))
        self.assertEqual(got.replace("\t", " "), reference_blank(TRICKY).replace("\t", " "))

    def test_blank_keeps_code(self):
        got = csource.blank(TRICKY)
        self.assertIn("static DEFINE_MUTEX(one_lock);", got)
        self.assertIn("mutex_lock(&one_lock);", got)
        self.assertNotIn("{", got[:got.index("static DEFINE_MUTEX")])
        self.assertNotIn("not a comment", got)
        self.assertNotIn("while (0)", got)

    def test_blank_of_every_prefix(self):
        # an edit cut short anywhere: nothing raises, offsets stay
        for end in range(0, len(TRICKY), 7):
            text = TRICKY[:end]
            self.assertEqual(len(csource.blank(text)), len(text))


class FunctionsTest(unittest.TestCase):
    def test_functions_of_tricky(self):
        code = csource.blank(TRICKY)
        got = csource.functions(code)
        self.assertEqual([f[0] for f in got], ["one_ioctl", "two"])
        name, at, start, end = got[0]
        self.assertEqual(code[at:at + len(name)], name)
        self.assertEqual((code[start], code[end - 1]), ("{", "}"))

    def test_functions_as_a_loop(self):
        code = csource.blank(TRICKY)
        # unbalanced braces of #if branches that blanking cannot see
        for text in (code, code + "\n}\n}\nint z(void) { {", "}{;" * 5 + code):
            self.assertEqual(csource.functions(text), reference_functions(text))

    def test_block_end(self):
        code = "f() { { } { { } } } tail"
        self.assertEqual(csource.block_end(code, 4), code.index(" tail"))
        self.assertEqual(csource.block_end("{ {", 0), 3)


class MutexTest(unittest.TestCase):
    OLD_RE = re.compile(r"^[ \t]*(?:static\s+)?struct\s+mutex\s+(\w+)\s*;", re.M)

    def test_file_scope_struct_mutexes(self):
        cases = ["static struct mutex a;", "  static\n\tstruct mutex b;",
                 "x static struct mutex c;", "int x; struct mutex d;", "\tstruct  mutex\ne ;",
                 "nonstatic struct mutex f;",
                 "static  struct mutex g;", "struct mutex h;", csource.blank(TRICKY)]
        for code in cases:
            with self.subTest(code=code[:30]):
                self.assertEqual(candidates.file_scope_struct_mutexes(code),
                                 set(self.OLD_RE.findall(code)))

    def test_candidate_found(self):
        code = csource.blank(TRICKY)
        self.assertEqual([c[0] for c in candidates.candidates(code)], ["one_ioctl"])
        # parsed on demand, once
        calls = []

        def funcs():
            calls.append(1)
            return csource.functions(code)
        self.assertEqual(candidates.candidates(code, funcs), candidates.candidates(code))
        self.assertEqual(len(calls), 1)


class WordsTest(unittest.TestCase):
    """The pattern-free helpers against the patterns they replace."""

    def test_word_offsets_as_the_pattern(self):
        texts = ["lk", "lk lk", "xlk lkx lk_ _lk (lk)", "lklk lk", "a\u00e9lk lk\u00e9 \u00e9",
                 "lk2 2lk lk;", csource.blank(TRICKY), TRICKY]
        for word in ("lk", "one_lock", "two_lock", "a"):
            for text in texts:
                with self.subTest(word=word, text=text[:20]):
                    expect = [m.start() for m in re.finditer(r"\b%s\b" % re.escape(word), text)]
                    self.assertEqual(list(csource.word_offsets(text, word)), expect)

    def test_relative_to_as_relpath(self):
        cwd = os.getcwd()
        paths = ["./a/b.c", "a/../c.h", os.path.join(cwd, "d.c"), "/elsewhere/e.c", ".", "f"]
        for root in (".", cwd, cwd + "/", "a", "/", os.path.dirname(cwd)):
            rel = sources.relative_to(root)
            for path in paths:
                with self.subTest(root=root, path=path):
                    self.assertEqual(rel(path), os.path.relpath(os.path.abspath(path), root))


class RuleOutTest(unittest.TestCase):
    """The tests on raw text must let through every file the scan records."""

    def scan(self, text, name="x.c"):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            records = []
            sources.scan_file(path, name, sources.Kbuild(d), records)
            return records

    def test_other_uses(self):
        self.assertFalse(sources.other_uses(".unlocked_ioctl = f, .compat_ioctl = g"))
        self.assertTrue(sources.other_uses(".unlocked_ioctl = f, .locked_ioctl = g"))
        self.assertTrue(sources.other_uses("unlock_kernel();"))
        self.assertTrue(sources.other_uses("DEFINE_LOCKED_IOCTL(a, b, &c);"))

    def test_could_be_candidate(self):
        self.assertTrue(sources.could_be_candidate(TRICKY))
        self.assertFalse(sources.could_be_candidate(TRICKY.replace("mutex_lock", "spin_lock")))
        no_ioctl = TRICKY.replace("unlocked_ioctl", "read").replace("DEFINE_MUTEX", "X")
        self.assertFalse(sources.could_be_candidate(no_ioctl.replace("struct mutex", "int")))
        self.assertTrue(sources.could_be_candidate(no_ioctl.replace("DEFINE_MUTEX(", "x(")
                                                   + "\nstatic DEFINE_MUTEX(m);"))

    def test_ruled_out_files_record_nothing(self):
        # each variant that the tests rule out gives no record when scanned
        self.assertEqual([r["name"] for r in self.scan(TRICKY)], ["x:one_ioctl"])
        for variant in (TRICKY.replace("mutex_lock", "spin_lock"),
                        TRICKY.replace("DEFINE_MUTEX(one_lock)", "int one_lock")
                              .replace("struct mutex", "int")):
            self.assertFalse(sources.could_be_candidate(variant))
            self.assertEqual(self.scan(variant), [])


class GrepTest(unittest.TestCase):
    def test_fixed_strings_as_the_pattern(self):
        with tempfile.TemporaryDirectory() as d:
            texts = {"a.c": "lock_kernel();", "b.h": "static DEFINE_MUTEX(x);",
                     "c.c": "DEFINE_MUTEX_LOCKED", "d.c": "unlock_kernel", "e.txt": "lock_kernel",
                     "sub/f.c": ".unlocked_ioctl = f", "sub/g.c": "nothing here",
                     "h.c": "DEFINE_BKL\n_IOCTL", "i.c": "DEFINE_GUARDED_IOCTL("}
            for name, text in texts.items():
                os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            fixed = sources.candidate_files([d])
            regex = sources.candidate_files([d], api.PREFILTER)
            self.assertEqual(fixed, regex)
            self.assertEqual(sorted(os.path.relpath(f, d) for f in fixed),
                             ["a.c", "b.h", "c.c", "d.c", "i.c", "sub/f.c"])
            # a file named and a directory holding it: once
            self.assertEqual(sources.candidate_files([d, os.path.join(d, "a.c")]), fixed)

    def test_grep_r_when_git_grep_fails(self):
        # a git on PATH that lists one file, then fails as a git that cannot
        # read the tree does: grep -r lists the files again, each once
        with tempfile.TemporaryDirectory() as d:
            tree, bindir = os.path.join(d, "tree"), os.path.join(d, "bin")
            os.makedirs(tree)
            os.makedirs(bindir)
            for name in ("a.c", "b.c", "c.c"):
                with open(os.path.join(tree, name), "w") as f:
                    f.write("lock_kernel();" if name != "c.c" else "nothing")
            git = os.path.join(bindir, "git")
            with open(git, "w") as f:
                f.write("#!/bin/sh\nprintf 'a.c\\0'\nexit 128\n")
            os.chmod(git, 0o755)
            path = os.environ["PATH"]
            os.environ["PATH"] = bindir + os.pathsep + path
            try:
                found = sources.candidate_files([tree])
            finally:
                os.environ["PATH"] = path
            self.assertEqual([os.path.relpath(f, tree) for f in found], ["a.c", "b.c"])

    def test_words_as_the_pattern(self):
        self.assertEqual(set(api.USES_WORDS) - set(api.PREFILTER_WORDS), {"unlocked_ioctl"})
        for w in api.USES_WORDS:
            self.assertTrue(any(p in w for p in api.PREFILTER_WORDS), w)


if __name__ == "__main__":
    unittest.main()
