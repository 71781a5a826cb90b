// SPDX-License-Identifier: GPL-2.0-only
/// Declare a driver mutex that replaced the BKL where no wrapper can take it:
/// in the functions scripts/bkl-migrate names (an ioctl that takes a
/// file-scope mutex for some commands only, or after work the mutex must
/// not order: applicom, hpet, dtlk), mutex_lock(&m), mutex_unlock(&m) and
/// mutex_lock_interruptible(&m) become driver_lock_user(&fn_lock, &m),
/// driver_unlock_user(&fn_lock, &m) and
/// driver_lock_user_interruptible(&fn_lock, &m): the same lock around the
/// same code, now named in lockdep reports, the tracepoints and
/// scripts/bkl-users.  bkl-migrate puts DEFINE_DRIVER_LOCK_USER(fn_lock,
/// fn, &m) before the function.  Which (function, mutex) pairs to take
/// comes from the environment (BKL_MIGRATE_DRIVER_LOCKS, "fn:mutex ..."):
/// a mutex is a BKL replacement by its history, which a pattern cannot see.
///
// Confidence: Moderate
// Copyright: (C) 2026 The locked-ioctl authors
// URL: Documentation/locking/locked-ioctl.rst
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os

wanted = set(tuple(pair.split(":", 1))
             for pair in os.environ.get("BKL_MIGRATE_DRIVER_LOCKS", "").split())

// Each call on its own, the function taken from its position, as in
// bkl_user_annotate.cocci: the body's control flow does not matter.
@call@
identifier lk;
position p;
@@
(
mutex_lock@p(&lk)
|
mutex_unlock@p(&lk)
|
mutex_lock_interruptible@p(&lk)
)

@script:python user depends on call@
p << call.p;
lk << call.lk;
u;
@@
fn = p[0].current_element
if (fn, lk) not in wanted:
    cocci.include_match(False)
else:
    coccinelle.u = cocci.make_ident(fn + "_lock")
    with open(os.environ.get("BKL_MIGRATE_LOG", "/dev/null"), "a") as log:
        log.write("BKL_MIGRATE_DRIVER_LOCK %s %s_lock %s\n" % (fn, fn, lk))

@depends on patch@
position call.p;
identifier call.lk;
identifier user.u;
@@
(
- mutex_lock@p(&lk)
+ driver_lock_user(&u, &lk)
|
- mutex_unlock@p(&lk)
+ driver_unlock_user(&u, &lk)
|
- mutex_lock_interruptible@p(&lk)
+ driver_lock_user_interruptible(&u, &lk)
)

@depends on context@
position call.p;
identifier user.u;
@@
* mutex_lock@p(...)

@script:python depends on org@
p << call.p;
u << user.u;
@@
coccilib.org.print_todo(p[0], "a driver mutex that replaced the BKL: declare it with DEFINE_DRIVER_LOCK_USER(%s, ...)" % u)

@script:python depends on report@
p << call.p;
u << user.u;
@@
coccilib.report.print_report(p[0], "a driver mutex that replaced the BKL: declare it with DEFINE_DRIVER_LOCK_USER(%s, ...)" % u)
