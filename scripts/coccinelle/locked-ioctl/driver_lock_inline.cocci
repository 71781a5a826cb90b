// SPDX-License-Identifier: GPL-2.0-only
/// Turn an ioctl that holds a file-scope driver mutex across its whole body
/// into the generic locked ioctl wrapper, keeping the driver's lock.  The
/// 2010 pushdown put such a mutex where the BKL had been (3w-xxxx, 3w-9xxx,
/// 3w-sas): after the declarations, and a debug print at most,
///
///	static long foo_ioctl(struct file *file, unsigned int cmd,
///			      unsigned long arg)
///	{
///		void __user *argp = (void __user *)arg;
///		long ret;
///
///		mutex_lock(&foo_mutex);
///		...
///		mutex_unlock(&foo_mutex);
///		return ret;
///	}
///
/// becomes foo_ioctl_locked, the same body without the two lock calls, and
/// DEFINE_LOCKED_IOCTL(foo_ioctl, foo_ioctl_locked, &foo_mutex); the form
/// "if (mutex_lock_interruptible(&foo_mutex)) return err;" becomes
/// DEFINE_LOCKED_IOCTL_INTERRUPTIBLE() with that err.  Only when that is the
/// same locking: no statement before the lock but a debug print, maybe
/// under an if (moving declarations and a print under the lock orders
/// nothing), the mutex not
/// taken or dropped again inside, and every path ends in mutex_unlock();
/// return.  A function whose statements before the lock do something (copy
/// from user space, take another lock, return early) is left alone, and
/// scripts/bkl-migrate reports it.  Only a function that a struct
/// file_operations uses as .unlocked_ioctl or .compat_ioctl, and a mutex of
/// file scope (DEFINE_MUTEX() or a struct mutex defined at the start of a
/// line; not one reached through the file) are taken.
///
// Confidence: High
// Copyright: (C) 2026 The locked-ioctl authors
// URL: Documentation/locking/locked-ioctl.rst
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

ioctls = set()

def file_scope_mutex(path, lk):
    with open(path, errors="replace") as f:
        text = f.read()
    lk = re.escape(lk)
    return re.search(r"^(?:static\s+)?(?:DEFINE_MUTEX\(\s*%s\s*\)|struct\s+mutex\s+%s\s*;)"
                     % (lk, lk), text, re.M) is not None

@native@
identifier ops, fn;
@@
struct file_operations ops = {
	...,
	.unlocked_ioctl = fn,
	...
};

@script:python@
fn << native.fn;
@@
ioctls.add(fn)

@compat@
identifier ops, fn;
@@
struct file_operations ops = {
	...,
	.compat_ioctl = fn,
	...
};

@script:python@
fn << compat.fn;
@@
ioctls.add(fn)

// The one statement that may come before the lock: a debug print.
@plain@
identifier wrapper, file, cmd, arg, lk;
identifier print =~ "^(dprintk|DPRINTK|pr_debug|pr_devel|dev_dbg|printk|[a-z0-9_]+_dbg|[a-z0-9_]+_debug)$";
type T1, T2, T3;
expression E, C;
statement S;
position p;
@@
wrapper@p(T1 file, T2 cmd, T3 arg)
{
	... when != S
?	if (C) print(...);
?	print(...);
	mutex_lock(&lk);
	... when != mutex_lock(&lk)
	    when != mutex_lock_interruptible(&lk)
	    when != mutex_unlock(&lk)
	    when strict
	mutex_unlock(&lk);
	return E;
}

@intr@
identifier wrapper, file, cmd, arg, lk;
identifier print =~ "^(dprintk|DPRINTK|pr_debug|pr_devel|dev_dbg|printk|[a-z0-9_]+_dbg|[a-z0-9_]+_debug)$";
type T1, T2, T3;
expression E, C, err;
statement S;
position p;
@@
wrapper@p(T1 file, T2 cmd, T3 arg)
{
	... when != S
?	if (C) print(...);
?	print(...);
	if (mutex_lock_interruptible(&lk))
		return err;
	... when != mutex_lock(&lk)
	    when != mutex_lock_interruptible(&lk)
	    when != mutex_unlock(&lk)
	    when strict
	mutex_unlock(&lk);
	return E;
}

// Only ioctls, and only a mutex of file scope (a local one is no driver's).
@script:python onlyplain@
wrapper << plain.wrapper;
lk << plain.lk;
p << plain.p;
@@
if wrapper not in ioctls or not file_scope_mutex(p[0].file, lk):
    cocci.include_match(False)

@script:python onlyintr@
wrapper << intr.wrapper;
lk << intr.lk;
p << intr.p;
@@
if wrapper not in ioctls or not file_scope_mutex(p[0].file, lk):
    cocci.include_match(False)

@depends on patch@
identifier plain.wrapper, file, cmd, arg, plain.lk;
identifier plain.print;
fresh identifier inner = wrapper ## "_locked";
type T1, T2, T3;
expression E, C;
statement S;
@@
- wrapper
+ inner
  (T1 file, T2 cmd, T3 arg)
  {
  ... when != S
? if (C) print(...);
? print(...);
- mutex_lock(&lk);
  ... when != mutex_lock(&lk)
      when != mutex_lock_interruptible(&lk)
      when != mutex_unlock(&lk)
      when strict
- mutex_unlock(&lk);
  return E;
  }
+ DEFINE_LOCKED_IOCTL(wrapper, inner, &lk);

@depends on patch@
identifier intr.wrapper, file, cmd, arg, intr.lk;
identifier intr.print;
fresh identifier inner = wrapper ## "_locked";
type T1, T2, T3;
expression E, C, intr.err;
statement S;
@@
- wrapper
+ inner
  (T1 file, T2 cmd, T3 arg)
  {
  ... when != S
? if (C) print(...);
? print(...);
- if (mutex_lock_interruptible(&lk))
-	return err;
  ... when != mutex_lock(&lk)
      when != mutex_lock_interruptible(&lk)
      when != mutex_unlock(&lk)
      when strict
- mutex_unlock(&lk);
  return E;
  }
+ DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(wrapper, inner, &lk, err);

@depends on context@
identifier wrapper;
position p = {plain.p, intr.p};
@@
* wrapper@p(...) {...}

@script:python depends on org@
wrapper << plain.wrapper;
p << plain.p;
@@
coccilib.org.print_todo(p[0], "%s holds a driver mutex across its body: use DEFINE_LOCKED_IOCTL()" % wrapper)

@script:python depends on report@
wrapper << plain.wrapper;
p << plain.p;
@@
coccilib.report.print_report(p[0], "%s holds a driver mutex across its body: use DEFINE_LOCKED_IOCTL()" % wrapper)

@script:python depends on org@
wrapper << intr.wrapper;
p << intr.p;
@@
coccilib.org.print_todo(p[0], "%s holds a driver mutex across its body: use DEFINE_LOCKED_IOCTL_INTERRUPTIBLE()" % wrapper)

@script:python depends on report@
wrapper << intr.wrapper;
p << intr.p;
@@
coccilib.report.print_report(p[0], "%s holds a driver mutex across its body: use DEFINE_LOCKED_IOCTL_INTERRUPTIBLE()" % wrapper)
