// SPDX-License-Identifier: GPL-2.0-only
/// Declare the direct users of the Big Kernel Lock: a function that calls
/// lock_kernel()/unlock_kernel() itself, typically an ioctl that takes the
/// BKL only around some commands (seed 006's nvram and dtlk), is not turned
/// into a wrapper; its calls become lock_kernel_user(&fn_bkl) and
/// unlock_kernel_user(&fn_bkl), so that lockdep, the tracepoints,
/// /sys/kernel/debug/bkl/ and scripts/bkl-users name it.
/// scripts/bkl-migrate puts DEFINE_BKL_USER(fn_bkl, fn) before the function
/// (BKL_MIGRATE_USER names it: Coccinelle cannot add a declaration there),
/// and names the record fn_bkl_user where the file has fn_bkl already
/// (BKL_MIGRATE_NAMES, or with BKL_MIGRATE_PER_FILE, FILE.names and
/// FILE.log beside each file of a run over many).
///
// Confidence: High
// Copyright: (C) 2026 The locked-ioctl authors
// URL: Documentation/locking/locked-ioctl.rst
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

// Each call is matched on its own, with the function it is in taken from its
// position: a rule that matched the whole body (f(...) { <+... ...+> })
// failed on large handlers whose calls are reached by paths it does not
// match ("reachable by inconsistent control-flow paths": 2.6.34's vt_ioctl,
// cyclades, ppp_generic) and took minutes on tty_io.c.
@call depends on patch@
position p;
@@
(
lock_kernel@p()
|
unlock_kernel@p()
)

@script:python user depends on call@
p << call.p;
u;
@@
import os
fn = p[0].current_element
# scripts/bkl-migrate names the record where fn_bkl is taken in the file,
# and runs one spatch on many files: then the names and the log of each
# are files beside it
log_file = os.environ.get("BKL_MIGRATE_LOG", "/dev/null")
names = os.environ.get("BKL_MIGRATE_NAMES", "")
if os.environ.get("BKL_MIGRATE_PER_FILE"):
    log_file = p[0].file + ".log"
    with open(p[0].file + ".names") as f:
        names = f.read()
names = dict(e.split(":") for e in names.split())
name = names.get(fn, fn + "_bkl")
coccinelle.u = cocci.make_ident(name)
with open(log_file, "a") as log:
    log.write("BKL_MIGRATE_USER %s %s -\n" % (fn, name))

@depends on patch@
position call.p;
identifier user.u;
@@
(
- lock_kernel@p()
+ lock_kernel_user(&u)
|
- unlock_kernel@p()
+ unlock_kernel_user(&u)
)

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
