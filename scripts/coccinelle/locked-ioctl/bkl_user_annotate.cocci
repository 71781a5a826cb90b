// SPDX-License-Identifier: GPL-2.0-only
/// Declare the direct users of the Big Kernel Lock: a function that calls
/// lock_kernel()/unlock_kernel() itself, typically an ioctl that takes the
/// BKL only around some commands (seed 006's nvram and dtlk), is not turned
/// into a wrapper; its calls become lock_kernel_user(&fn_bkl) and
/// unlock_kernel_user(&fn_bkl), so that lockdep, the tracepoints,
/// /sys/kernel/debug/bkl/ and scripts/bkl-users name it.
/// scripts/bkl-migrate puts DEFINE_BKL_USER(fn_bkl, fn) before the function
/// (BKL_MIGRATE_USER names it: Coccinelle cannot add a declaration there).
///
// Confidence: High
// Copyright: (C) 2026 The locked-ioctl authors
// URL: Documentation/locking/locked-ioctl.rst
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@annotate depends on patch@
identifier f;
fresh identifier u = f ## "_bkl";
position p;
@@
f@p(...) {
<+...
(
- lock_kernel()
+ lock_kernel_user(&u)
|
- unlock_kernel()
+ unlock_kernel_user(&u)
)
...+>
}

@script:python depends on annotate@
f << annotate.f;
u << annotate.u;
p << annotate.p;
@@
import os
with open(os.environ.get("BKL_MIGRATE_LOG", "/dev/null"), "a") as log:
    log.write("BKL_MIGRATE_USER %s %s %s\n" % (f, u, p[0].line))

@depends on context@
@@
* lock_kernel()

@c depends on org || report@
identifier f;
position p;
@@
f(...) {
<+...
 lock_kernel@p()
...+>
}

@script:python depends on org@
f << c.f;
p << c.p;
@@
coccilib.org.print_todo(p[0], "%s takes the BKL itself: declare it with DEFINE_BKL_USER() and lock_kernel_user()" % f)

@script:python depends on report@
f << c.f;
p << c.p;
@@
coccilib.report.print_report(p[0], "%s takes the BKL itself: declare it with DEFINE_BKL_USER() and lock_kernel_user()" % f)
