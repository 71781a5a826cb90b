// SPDX-License-Identifier: GPL-2.0-only
/// Turn an inline BKL pushdown back into the wrapper form: an ioctl that takes
/// the BKL as its first statement and drops it right before every return
/// (seeds 002, 004 and 006) becomes fn_locked, the same body without the
/// lock calls, run under the BKL by DEFINE_BKL_UNLOCKED_IOCTL(fn, fn_locked).
/// Only when that is the same locking: nothing but declarations before
/// lock_kernel(), no other lock_kernel()/unlock_kernel(), and every path ends
/// in unlock_kernel(); return.  Anything else is left to
/// bkl_user_annotate.cocci, which declares the function as a BKL user.
/// Only a function that a struct file_operations uses as .unlocked_ioctl or
/// .compat_ioctl is rewritten.
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
ioctls = set()

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

@shape@
identifier wrapper, file, cmd, arg;
type T1, T2, T3;
expression E;
statement S;
position p;
@@
wrapper@p(T1 file, T2 cmd, T3 arg)
{
	... when != S
	lock_kernel();
	... when != lock_kernel()
	    when != unlock_kernel()
	    when strict
	unlock_kernel();
	return E;
}

@script:python only@
wrapper << shape.wrapper;
@@
if wrapper not in ioctls:
    cocci.include_match(False)

@depends on patch@
identifier shape.wrapper, file, cmd, arg;
fresh identifier inner = wrapper ## "_locked";
type T1, T2, T3;
expression E;
statement S;
@@
- wrapper
+ inner
  (T1 file, T2 cmd, T3 arg)
  {
  ... when != S
- lock_kernel();
  ... when != lock_kernel()
      when != unlock_kernel()
      when strict
- unlock_kernel();
  return E;
  }
+ DEFINE_BKL_UNLOCKED_IOCTL(wrapper, inner);

@depends on context@
identifier shape.wrapper;
position shape.p;
@@
* wrapper@p(...) {...}

@script:python depends on org@
wrapper << shape.wrapper;
p << shape.p;
@@
coccilib.org.print_todo(p[0], "%s pushes the BKL down inline: use DEFINE_BKL_UNLOCKED_IOCTL()" % wrapper)

@script:python depends on report@
wrapper << shape.wrapper;
p << shape.p;
@@
coccilib.report.print_report(p[0], "%s pushes the BKL down inline: use DEFINE_BKL_UNLOCKED_IOCTL()" % wrapper)
