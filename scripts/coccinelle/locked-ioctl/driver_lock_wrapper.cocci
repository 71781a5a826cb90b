// SPDX-License-Identifier: GPL-2.0-only
/// Turn an ioctl wrapper that holds one driver mutex around one call into
/// the generic locked ioctl wrapper, keeping the driver's own lock:
///
///	static long foo_ioctl(struct file *file, unsigned int cmd,
///			      unsigned long arg)
///	{
///		long ret;
///
///		mutex_lock(&foo_mutex);
///		ret = foo_do_ioctl(file, cmd, arg);
///		mutex_unlock(&foo_mutex);
///		return ret;
///	}
///
/// becomes DEFINE_LOCKED_IOCTL(foo_ioctl, foo_do_ioctl, &foo_mutex), and the
/// mutex_lock_interruptible() form DEFINE_LOCKED_IOCTL_INTERRUPTIBLE() with
/// the error it returned.  Such mutexes mostly replaced the BKL; the wrapper
/// records the driver as a BKL replacement (scripts/bkl-users).  The BKL is
/// never put back.  Only a wrapper used as .unlocked_ioctl or .compat_ioctl
/// of a struct file_operations (so with the ioctl signature), with the
/// arguments passed on unchanged and the mutex named, not reached through
/// the file, is rewritten.  Coccinelle 1.1 does not match the shape with
/// the parameter types spelt out, hence T1..T3.
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
wrappers = set()

@native@
identifier ops, wrapper;
@@
struct file_operations ops = {
	...,
	.unlocked_ioctl = wrapper,
	...
};

@script:python@
wrapper << native.wrapper;
@@
wrappers.add(wrapper)

@compat@
identifier ops, wrapper;
@@
struct file_operations ops = {
	...,
	.compat_ioctl = wrapper,
	...
};

@script:python@
wrapper << compat.wrapper;
@@
wrappers.add(wrapper)

@lockplain@
identifier wrapper, fn, file, cmd, arg, ret, lk;
type T1, T2, T3;
position p;
@@
wrapper@p(T1 file, T2 cmd, T3 arg)
{
\(long ret;\|int ret;\)
	mutex_lock(&lk);
	ret = fn(file, cmd, arg);
	mutex_unlock(&lk);
	return ret;
}

@lockintr@
identifier wrapper, fn, file, cmd, arg, ret, lk;
expression err;
type T1, T2, T3;
position p;
@@
wrapper@p(T1 file, T2 cmd, T3 arg)
{
\(long ret;\|int ret;\)
	if (mutex_lock_interruptible(&lk))
		return err;
	ret = fn(file, cmd, arg);
	mutex_unlock(&lk);
	return ret;
}

// Only wrappers that a struct file_operations uses as an ioctl.
@script:python onlyplain@
wrapper << lockplain.wrapper;
@@
if wrapper not in wrappers:
    cocci.include_match(False)

@script:python onlyintr@
wrapper << lockintr.wrapper;
@@
if wrapper not in wrappers:
    cocci.include_match(False)

@depends on patch@
identifier lockplain.wrapper, lockplain.fn, lockplain.lk;
@@
+DEFINE_LOCKED_IOCTL(wrapper, fn, &lk);
-static long wrapper(...) {...}

@depends on patch@
identifier lockintr.wrapper, lockintr.fn, lockintr.lk;
expression lockintr.err;
@@
+DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(wrapper, fn, &lk, err);
-static long wrapper(...) {...}

@depends on context@
identifier wrapper;
position p = {lockplain.p, lockintr.p};
@@
*static long wrapper@p(...) {...}

@script:python depends on org@
p << lockplain.p;
wrapper << lockplain.wrapper;
@@
coccilib.org.print_todo(p[0], "%s holds one driver mutex around its handler: use DEFINE_LOCKED_IOCTL()" % wrapper)

@script:python depends on report@
p << lockplain.p;
wrapper << lockplain.wrapper;
@@
coccilib.report.print_report(p[0], "%s holds one driver mutex around its handler: use DEFINE_LOCKED_IOCTL()" % wrapper)

@script:python depends on org@
p << lockintr.p;
wrapper << lockintr.wrapper;
@@
coccilib.org.print_todo(p[0], "%s holds one driver mutex around its handler: use DEFINE_LOCKED_IOCTL_INTERRUPTIBLE()" % wrapper)

@script:python depends on report@
p << lockintr.p;
wrapper << lockintr.wrapper;
@@
coccilib.report.print_report(p[0], "%s holds one driver mutex around its handler: use DEFINE_LOCKED_IOCTL_INTERRUPTIBLE()" % wrapper)
