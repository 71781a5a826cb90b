// SPDX-License-Identifier: GPL-2.0-only
/// Push the Big Kernel Lock down into a driver's old-style .ioctl handler.
///
/// .ioctl = fn in a struct file_operations becomes .unlocked_ioctl =
/// fn_unlocked_ioctl (fn's name with "_ioctl" replaced), defined by
/// DEFINE_BKL_IOCTL(fn_unlocked_ioctl, fn) right after fn's definition; when
/// fn does not use its inode argument, the argument goes from fn, its
/// prototype and its callers, and the wrapper is DEFINE_BKL_UNLOCKED_IOCTL().
/// A handler that a macro names (FOO_IOCTL) gets a wrapper named in lower
/// case (foo_unlocked_ioctl); where the file has that name already, the
/// front end chooses fn_bkl_ioctl.
/// With -D shim the driver goes on the deprecated_ioctl shim instead:
/// .unlocked_ioctl = deprecated_ioctl, .locked_ioctl = fn, declared with
/// DEFINE_BKL_SHIM_USER(fn).  Only initialisers of struct file_operations
/// are touched: .ioctl of block_device_operations, tty_operations and the
/// like is not.
///
/// When fn has a prototype before the operations, the definition comes too
/// late for the generator; Coccinelle cannot add a declaration after a
/// prototype, so the rule names the prototype (BKL_MIGRATE_AFTER_PROTOTYPE)
/// and scripts/bkl-migrate puts the generator there.  Otherwise it names the
/// definition (BKL_MIGRATE_AFTER_DEFINITION) and scripts/bkl-migrate puts
/// the generator after it: a rule that adds after "fn(...) {...}" fails on
/// large handlers whose closing brace is reached by paths the rule does not
/// match (Coccinelle's "reachable by inconsistent control-flow paths").  scripts/bkl-migrate
/// also adds #include <linux/locked_ioctl.h> and "depends on BKL", and
/// reports a .compat_ioctl of the same operations that does not take the BKL
/// (BKL_MIGRATE_COMPAT).
///
// Confidence: High
// Copyright: (C) 2026 The locked-ioctl authors
// URL: Documentation/locking/locked-ioctl.rst
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report
virtual shim

@r depends on patch@
identifier fops, fn;
@@
struct file_operations fops = {
	...,
-	.ioctl = fn,
+	.unlocked_ioctl = fn,
	...
};

// A handler that a macro names (FOO_IOCTL) gets a wrapper named in lower
// case, as functions are.  scripts/bkl-migrate names the wrapper itself
// (BKL_MIGRATE_NAMES="fn:name ...") where this name is taken in the file.
@script:python mk depends on r@
fn << r.fn;
ufn;
@@
import os
base = fn.lower() if fn.isupper() else fn
base = base[:-len("_ioctl")] if base.endswith("_ioctl") else base
names = dict(e.split(":") for e in os.environ.get("BKL_MIGRATE_NAMES", "").split())
coccinelle.ufn = cocci.make_ident(names.get(fn, base + "_unlocked_ioctl"))

// The handler does not use its inode argument (seed 003): drop it from the
// handler, its prototype and its callers, and give it the unlocked_ioctl
// signature; the wrapper is then DEFINE_BKL_UNLOCKED_IOCTL().  Not with the
// shim, whose .locked_ioctl keeps the old signature.
@noinode depends on r && !shim@
identifier r.fn, inode, file, cmd, arg;
type T1, T2, T3, T4;
@@
fn(T1 inode, T2 file, T3 cmd, T4 arg)
{
	... when != inode
}

@depends on noinode@
identifier r.fn, noinode.inode, noinode.file, noinode.cmd, noinode.arg;
type noinode.T1, noinode.T2, noinode.T3, noinode.T4;
@@
- int
+ long
  fn(
-    T1 inode,
     T2 file, T3 cmd, T4 arg)
  {...}

@depends on noinode@
identifier r.fn;
parameter p1;
parameter list[3] ps;
@@
- int
+ long
  fn(
-    p1,
     ps);

@depends on noinode@
identifier r.fn;
expression E1, E2, E3, E4;
@@
  fn(
-    E1,
     E2, E3, E4)

@proto depends on r@
identifier r.fn;
type T;
position p;
@@
T fn@p(...);

@script:python depends on proto && !noinode@
fn << r.fn;
ufn << mk.ufn;
@@
import os
with open(os.environ.get("BKL_MIGRATE_LOG", "/dev/null"), "a") as log:
    log.write("BKL_MIGRATE_AFTER_PROTOTYPE %s %s\n" % (fn, ufn))

@script:python depends on proto && noinode@
fn << r.fn;
ufn << mk.ufn;
@@
import os
with open(os.environ.get("BKL_MIGRATE_LOG", "/dev/null"), "a") as log:
    log.write("BKL_MIGRATE_AFTER_PROTOTYPE_UNLOCKED %s %s\n" % (fn, ufn))

// The compat entry point of the same operations does not take the BKL that
// the native one now takes (it never did: the VFS called .compat_ioctl
// without it).  Named for scripts/bkl-migrate, which reports it.
@compat depends on r@
identifier r.fops, cfn;
@@
struct file_operations fops = {
	...,
	.compat_ioctl = cfn,
	...
};

@script:python depends on compat@
fops << r.fops;
cfn << compat.cfn;
@@
import os
with open(os.environ.get("BKL_MIGRATE_LOG", "/dev/null"), "a") as log:
    log.write("BKL_MIGRATE_COMPAT %s %s\n" % (fops, cfn))

// DEFINE_BKL_IOCTL() form: the wrapper replaces the handler in the fops.
@rename depends on r && !shim@
identifier r.fops, r.fn, mk.ufn;
@@
struct file_operations fops = {
	...,
	.unlocked_ioctl =
-		fn
+		ufn
	,...
};

@script:python depends on rename && !proto && !noinode@
fn << r.fn;
ufn << mk.ufn;
@@
import os
with open(os.environ.get("BKL_MIGRATE_LOG", "/dev/null"), "a") as log:
    log.write("BKL_MIGRATE_AFTER_DEFINITION %s %s\n" % (fn, ufn))

@script:python depends on rename && !proto && noinode@
fn << r.fn;
ufn << mk.ufn;
@@
import os
with open(os.environ.get("BKL_MIGRATE_LOG", "/dev/null"), "a") as log:
    log.write("BKL_MIGRATE_AFTER_DEFINITION_UNLOCKED %s %s\n" % (fn, ufn))

// Shim form: the old handler stays, as .locked_ioctl.
@shimmed depends on r && shim@
identifier r.fops, r.fn;
@@
struct file_operations fops = {
	...,
	.unlocked_ioctl =
-		fn
+		deprecated_ioctl
	,
+	.locked_ioctl = fn,
	...
};

@script:python depends on shimmed && !proto@
fn << r.fn;
@@
import os
with open(os.environ.get("BKL_MIGRATE_LOG", "/dev/null"), "a") as log:
    log.write("BKL_MIGRATE_AFTER_DEFINITION %s %s\n" % (fn, fn))

// Reports: every .ioctl of a struct file_operations.
@depends on context@
identifier fops, fn;
@@
struct file_operations fops = {
	...,
*	.ioctl = fn,
	...
};

@c depends on org || report@
identifier fops, fn;
position p;
@@
struct file_operations fops = {
	...,
	.ioctl = fn@p,
	...
};

@script:python depends on org@
p << c.p;
fn << c.fn;
@@
coccilib.org.print_todo(p[0], "BKL-locked .ioctl handler %s: push the BKL down with DEFINE_BKL_IOCTL()" % fn)

@script:python depends on report@
p << c.p;
fn << c.fn;
@@
coccilib.report.print_report(p[0], "BKL-locked .ioctl handler %s: push the BKL down with DEFINE_BKL_IOCTL()" % fn)
