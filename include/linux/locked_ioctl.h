/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Locked ioctl wrappers: run an ioctl handler under the Big Kernel Lock or
 * under a lock the driver owns, for the native and the compat entry point.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * See Documentation/locking/locked-ioctl.rst.
 */
#ifndef _LINUX_LOCKED_IOCTL_H
#define _LINUX_LOCKED_IOCTL_H

#include <linux/bkl_user.h>
#include <linux/build_bug.h>
#include <linux/compat.h>
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/locked_ioctl_hooks.h>
#include <linux/mutex.h>
#if IS_ENABLED(CONFIG_BKL)
#include <linux/smp_lock.h>
#endif

/**
 * DOC: Locked ioctl wrappers
 *
 * Each DEFINE_*_IOCTL() generator below defines one ``static long`` function
 * (for DEFINE_BKL_IOCTL_GLOBAL() and the _EXPORT forms: one that other files
 * may call) with the signature of &file_operations.unlocked_ioctl and
 * .compat_ioctl, named by its first argument.  The function takes a lock,
 * calls the driver's handler with the arguments it expects, drops the lock
 * and returns the handler's return value unchanged.  The generated
 * function's parameters are called ``file``, ``cmd`` and ``arg``; a lock
 * expression may use ``file``.
 *
 * ========================================== ====== ==============================
 * generator                                  lock   handler signature
 * ========================================== ====== ==============================
 * DEFINE_BKL_IOCTL()                         BKL    int (inode, file, cmd, arg)
 * DEFINE_BKL_COMPAT_IOCTL()                  BKL    same, arg through compat_ptr()
 * DEFINE_BKL_UNLOCKED_IOCTL()                BKL    long (file, cmd, arg)
 * DEFINE_BKL_IOCTL_GLOBAL()                  BKL    int (inode, file, cmd, arg)
 * DEFINE_BKL_IOCTL_EXPORT[_GPL]()            BKL    int (inode, file, cmd, arg)
 * DEFINE_LOCKED_IOCTL()                      mutex  long (file, cmd, arg)
 * DEFINE_LOCKED_COMPAT_IOCTL()               mutex  same, arg through compat_ptr()
 * DEFINE_LOCKED_IOCTL_INTERRUPTIBLE()        mutex  long (file, cmd, arg)
 * DEFINE_LOCKED_COMPAT_IOCTL_INTERRUPTIBLE() mutex  same, arg through compat_ptr()
 * DEFINE_GUARDED_IOCTL()                     guard  long (file, cmd, arg)
 * ========================================== ====== ==============================
 *
 * The compat forms exist so that a driver never has a locked native path and
 * an unlocked compat path.  A driver whose ioctl ABI is the same for 32-bit
 * callers (only pointers differ) uses a ``_COMPAT`` form, which passes
 * compat_ptr(arg) to the same handler.  A driver with its own compat handler
 * wraps that with the ``_UNLOCKED``/generic form like any other handler.
 *
 * The BKL forms exist only with CONFIG_BKL=y, or out of tree with the BKL as a
 * module (CONFIG_BKL_MODULE); with CONFIG_BKL=n a remaining user fails to
 * compile with a message that names the fix.  The mutex and guard forms need
 * no BKL and are what a converted driver keeps.  The deprecated_ioctl shim
 * needs &file_operations.locked_ioctl, which only a kernel with the layer
 * applied has: out of tree, a use of it fails to compile with a message too.
 */

/*
 * The workers define the function as prefix##name with an empty prefix: the
 * paste marks them, for checkpatch too, as macros that define a function,
 * where a return statement is expected.  Each also defines the function's
 * BKL user record, __bkl_user_##name (see <linux/bkl_user.h>), with @handler
 * and the lock as written at the call site.
 */

/* Worker: run @call, which may use file/cmd/arg, under the BKL. */
#define __DEFINE_BKL_IOCTL(prefix, name, handler, call)			\
__DEFINE_BKL_USER(__bkl_user_, name, IOCTL, handler, "BKL", NONE);	\
static long prefix##name(struct file *file, unsigned int cmd, unsigned long arg)	\
{									\
	long ret;							\
									\
	__lock_kernel_user(&__bkl_user_##name, 0);			\
	ret = call;							\
	__unlock_kernel_user(&__bkl_user_##name, 0);			\
	return ret;							\
}

/*
 * Worker: run @call, which may use file/cmd/arg, under the mutex @lock; with
 * @intr true a signal aborts the wait, and the function returns @err.  Each
 * call asks __locked_ioctl_hooked() once: while nothing is hooked the lock
 * is a mutex_lock() and a mutex_unlock() around the call, as a driver
 * writes them (see <linux/locked_ioctl_hooks.h>).
 */
#define __DEFINE_LOCKED_IOCTL(prefix, name, handler, lock, intr, err, call) \
__DEFINE_BKL_USER(__bkl_user_, name, REPLACEMENT, handler, #lock, NONE); \
static long prefix##name(struct file *file, unsigned int cmd, unsigned long arg)	\
{									\
	struct mutex *__lock = (lock);					\
	const bool __hooked = __locked_ioctl_hooked();			\
	u64 __t0 = 0;							\
	long ret;							\
									\
	if (__locked_ioctl_mutex_lock(&__bkl_user_##name, __lock,	\
				      __hooked, intr, &__t0))		\
		return (err);						\
	ret = call;							\
	__locked_ioctl_mutex_unlock(&__bkl_user_##name, __lock,	\
				    __hooked, __t0);			\
	return ret;							\
}

/*
 * Worker: as __DEFINE_BKL_IOCTL(), and a function of external linkage,
 * prefix##name, that calls it, exported with @export: for a handler that
 * several files share.
 */
#define __DEFINE_BKL_IOCTL_EXPORT(prefix, name, handler, call, export)	\
__DEFINE_BKL_IOCTL(__bkl_static_, name, handler, call)			\
long prefix##name(struct file *file, unsigned int cmd, unsigned long arg)	\
{									\
	return __bkl_static_##name(file, cmd, arg);			\
}									\
export(prefix##name)

/*
 * The @export of a function that other built-in files call, not modules: in
 * place of the export, a check of its type.
 */
#define __BKL_NOT_EXPORTED(sym)						\
	static_assert(__same_type(&(sym), long (*)(struct file *,	\
						    unsigned int,	\
						    unsigned long)))

#define __LOCKED_IOCTL_COMPAT_ARG(arg)	((unsigned long)compat_ptr(arg))

#if IS_ENABLED(CONFIG_BKL)

/**
 * DEFINE_BKL_IOCTL() - define an unlocked_ioctl that calls an old-style
 *			handler under the Big Kernel Lock
 * @name: name of the function to define
 * @fn: the handler, ``int fn(struct inode *, struct file *, unsigned int,
 *	unsigned long)``, the signature of the old &file_operations.ioctl
 *
 * Defines ``static long name(struct file *file, unsigned int cmd, unsigned
 * long arg)``, which takes the BKL, calls @fn with file_inode(file) and its
 * own arguments, drops the BKL and returns what @fn returned.  This is the
 * locking the VFS did around .ioctl, pushed down into the driver, where it
 * can be found with grep and removed when the driver no longer needs it.
 * Use it once per handler; pair it with DEFINE_BKL_COMPAT_IOCTL() when the
 * driver has a 32-bit compat entry point.
 *
 * Example::
 *
 *	static int foo_ioctl(struct inode *inode, struct file *file,
 *			     unsigned int cmd, unsigned long arg);
 *	DEFINE_BKL_IOCTL(foo_unlocked_ioctl, foo_ioctl);
 *	DEFINE_BKL_COMPAT_IOCTL(foo_compat_ioctl, foo_ioctl);
 *
 *	static const struct file_operations foo_fops = {
 *		.unlocked_ioctl	= foo_unlocked_ioctl,
 *		.compat_ioctl	= foo_compat_ioctl,
 *	};
 *
 * Context: the generated function runs in process context and sleeps.
 */
#define DEFINE_BKL_IOCTL(name, fn)					\
	__DEFINE_BKL_IOCTL(, name, #fn, fn(file_inode(file), file, cmd, arg))

/**
 * DEFINE_BKL_COMPAT_IOCTL() - define a compat_ioctl that calls an old-style
 *			       handler under the Big Kernel Lock
 * @name: name of the function to define
 * @fn: the handler, as for DEFINE_BKL_IOCTL()
 *
 * As DEFINE_BKL_IOCTL(), but @fn gets compat_ptr(arg): for a driver whose
 * ioctl structures have the same layout for 32-bit and 64-bit callers, the
 * way compat_ptr_ioctl() serves an unlocked driver.
 *
 * Example::
 *
 *	DEFINE_BKL_COMPAT_IOCTL(foo_compat_ioctl, foo_ioctl);
 *	...
 *		.compat_ioctl	= foo_compat_ioctl,
 */
#define DEFINE_BKL_COMPAT_IOCTL(name, fn)				\
	__DEFINE_BKL_IOCTL(, name, #fn, fn(file_inode(file), file, cmd,	\
					 __LOCKED_IOCTL_COMPAT_ARG(arg)))

/**
 * DEFINE_BKL_UNLOCKED_IOCTL() - define an unlocked_ioctl that calls a handler
 *				 of the same signature under the BKL
 * @name: name of the function to define
 * @fn: the handler, ``long fn(struct file *, unsigned int, unsigned long)``
 *
 * For a handler that already has the unlocked_ioctl signature (no inode), and
 * for a driver's own compat handler, which has the same signature.
 *
 * Example::
 *
 *	static long foo_ioctl(struct file *file, unsigned int cmd,
 *			      unsigned long arg);
 *	static long foo_compat_handler(struct file *file, unsigned int cmd,
 *				       unsigned long arg);
 *	DEFINE_BKL_UNLOCKED_IOCTL(foo_unlocked_ioctl, foo_ioctl);
 *	DEFINE_BKL_UNLOCKED_IOCTL(foo_compat_ioctl, foo_compat_handler);
 */
#define DEFINE_BKL_UNLOCKED_IOCTL(name, fn)				\
	__DEFINE_BKL_IOCTL(, name, #fn, fn(file, cmd, arg))

/**
 * DEFINE_BKL_IOCTL_GLOBAL() - define an unlocked_ioctl that other files use,
 *			       calling an old-style handler under the BKL
 * @name: name of the function to define
 * @fn: the handler, as for DEFINE_BKL_IOCTL()
 *
 * As DEFINE_BKL_IOCTL(), but the function is not static: for a handler that
 * one file defines and the operations of several files use (a subsystem's
 * generic ioctl, declared in its header).  Use it where @fn is defined and
 * declare the function beside @fn's prototype, so that the handler is
 * wrapped once and every user of it takes the BKL the same way.  Where @fn
 * is exported, use DEFINE_BKL_IOCTL_EXPORT() or DEFINE_BKL_IOCTL_EXPORT_GPL()
 * instead, which export the function the same way.
 *
 * Example::
 *
 *	// foo_core.h
 *	int foo_generic_ioctl(struct inode *inode, struct file *file,
 *			      unsigned int cmd, unsigned long arg);
 *	long foo_generic_unlocked_ioctl(struct file *file, unsigned int cmd,
 *					unsigned long arg);
 *
 *	// foo_core.c, after foo_generic_ioctl()
 *	DEFINE_BKL_IOCTL_GLOBAL(foo_generic_unlocked_ioctl, foo_generic_ioctl);
 *
 *	// foo_dev.c
 *		.unlocked_ioctl	= foo_generic_unlocked_ioctl,
 *
 * Context: the generated function runs in process context and sleeps.
 */
#define DEFINE_BKL_IOCTL_GLOBAL(name, fn)				\
	__DEFINE_BKL_IOCTL_EXPORT(, name, #fn,				\
				  fn(file_inode(file), file, cmd, arg),	\
				  __BKL_NOT_EXPORTED)

/**
 * DEFINE_BKL_IOCTL_EXPORT() - DEFINE_BKL_IOCTL_GLOBAL() and EXPORT_SYMBOL()
 * @name: name of the function to define and export
 * @fn: the handler, as for DEFINE_BKL_IOCTL()
 *
 * For a handler exported with EXPORT_SYMBOL(): modules that used it in their
 * operations use @name.  Follows @fn's definition and its EXPORT_SYMBOL().
 */
#define DEFINE_BKL_IOCTL_EXPORT(name, fn)				\
	__DEFINE_BKL_IOCTL_EXPORT(, name, #fn,				\
				  fn(file_inode(file), file, cmd, arg),	\
				  EXPORT_SYMBOL)

/**
 * DEFINE_BKL_IOCTL_EXPORT_GPL() - DEFINE_BKL_IOCTL_GLOBAL() and
 *				   EXPORT_SYMBOL_GPL()
 * @name: name of the function to define and export
 * @fn: the handler, as for DEFINE_BKL_IOCTL()
 *
 * As DEFINE_BKL_IOCTL_EXPORT(), for a handler exported with
 * EXPORT_SYMBOL_GPL().
 */
#define DEFINE_BKL_IOCTL_EXPORT_GPL(name, fn)				\
	__DEFINE_BKL_IOCTL_EXPORT(, name, #fn,				\
				  fn(file_inode(file), file, cmd, arg),	\
				  EXPORT_SYMBOL_GPL)

#else /* !IS_ENABLED(CONFIG_BKL) */

#define __BKL_REMOVED_MSG						\
	"this code depends on the Big Kernel Lock: convert it (see "	\
	"Documentation/locking/locked-ioctl.rst) or enable CONFIG_BKL"

/*
 * No BKL: every BKL generator stops the build with the fix in the message.
 * They are used at file scope, where a static assertion is allowed.
 */
#define __BKL_REMOVED(name, fn)						\
	static_assert(sizeof(#name #fn) == 0, __BKL_REMOVED_MSG)
#define DEFINE_BKL_IOCTL(name, fn)		__BKL_REMOVED(name, fn)
#define DEFINE_BKL_COMPAT_IOCTL(name, fn)	__BKL_REMOVED(name, fn)
#define DEFINE_BKL_UNLOCKED_IOCTL(name, fn)	__BKL_REMOVED(name, fn)
#define DEFINE_BKL_IOCTL_GLOBAL(name, fn)	__BKL_REMOVED(name, fn)
#define DEFINE_BKL_IOCTL_EXPORT(name, fn)	__BKL_REMOVED(name, fn)
#define DEFINE_BKL_IOCTL_EXPORT_GPL(name, fn)	__BKL_REMOVED(name, fn)

#endif /* IS_ENABLED(CONFIG_BKL) */

#ifdef CONFIG_BKL
long deprecated_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
long deprecated_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg);
#else
/*
 * No shim: without the BKL, or out of tree (CONFIG_BKL_MODULE), where the
 * kernel has no &file_operations.locked_ioctl to call.  deprecated_ioctl is
 * used in initialisers, where an assertion is not allowed: declaring it
 * unavailable makes any use an error with the message.  Compilers without
 * the attribute report it as undeclared.
 */
#ifdef CONFIG_BKL_MODULE
#define __BKL_NO_SHIM_REASON	__BKL_NO_SHIM_MSG
#else
#define __BKL_NO_SHIM_REASON	__BKL_REMOVED_MSG
#endif
#if __has_attribute(__unavailable__)
long deprecated_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
	__attribute__((__unavailable__(__BKL_NO_SHIM_REASON)));
long deprecated_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
	__attribute__((__unavailable__(__BKL_NO_SHIM_REASON)));
#endif
#endif /* CONFIG_BKL */

/**
 * DEFINE_LOCKED_IOCTL() - define an unlocked_ioctl that calls a handler under
 *			   a mutex the driver owns
 * @name: name of the function to define
 * @fn: the handler, ``long fn(struct file *, unsigned int, unsigned long)``
 * @lock: expression for the ``struct mutex *`` to hold; evaluated once per
 *	call, and it may use the generated function's ``file`` argument
 *
 * Defines ``static long name(struct file *file, unsigned int cmd, unsigned
 * long arg)``, which holds @lock around @fn.  This is the form a driver keeps
 * once a lock of its own has replaced the BKL: it needs no CONFIG_BKL.  Use
 * it once per handler; wrap the compat entry point too, with
 * DEFINE_LOCKED_COMPAT_IOCTL() or another DEFINE_LOCKED_IOCTL() around the
 * driver's own compat handler.
 *
 * Example::
 *
 *	static DEFINE_MUTEX(foo_mutex);
 *	static long foo_ioctl(struct file *file, unsigned int cmd,
 *			      unsigned long arg);
 *	DEFINE_LOCKED_IOCTL(foo_unlocked_ioctl, foo_ioctl, &foo_mutex);
 *	DEFINE_LOCKED_COMPAT_IOCTL(foo_compat_ioctl, foo_ioctl, &foo_mutex);
 *
 * or, with one mutex per device::
 *
 *	DEFINE_LOCKED_IOCTL(bar_unlocked_ioctl, bar_ioctl,
 *			    &((struct bar_dev *)file->private_data)->lock);
 *
 * Context: the generated function runs in process context and sleeps.
 */
#define DEFINE_LOCKED_IOCTL(name, fn, lock)				\
	__DEFINE_LOCKED_IOCTL(, name, #fn, lock, false, 0, fn(file, cmd, arg))

/**
 * DEFINE_LOCKED_COMPAT_IOCTL() - define a compat_ioctl that calls a handler
 *				  under a mutex the driver owns
 * @name: name of the function to define
 * @fn: the handler, as for DEFINE_LOCKED_IOCTL()
 * @lock: as for DEFINE_LOCKED_IOCTL()
 *
 * As DEFINE_LOCKED_IOCTL(), but @fn gets compat_ptr(arg).
 *
 * Example::
 *
 *	DEFINE_LOCKED_COMPAT_IOCTL(foo_compat_ioctl, foo_ioctl, &foo_mutex);
 */
#define DEFINE_LOCKED_COMPAT_IOCTL(name, fn, lock)			\
	__DEFINE_LOCKED_IOCTL(, name, #fn, lock, false, 0,		\
			      fn(file, cmd, __LOCKED_IOCTL_COMPAT_ARG(arg)))

/**
 * DEFINE_LOCKED_IOCTL_INTERRUPTIBLE() - as DEFINE_LOCKED_IOCTL(), but a signal
 *					 may interrupt the wait for the lock
 * @name: name of the function to define
 * @fn: the handler, ``long fn(struct file *, unsigned int, unsigned long)``
 * @lock: as for DEFINE_LOCKED_IOCTL()
 * @err: what the function returns when a signal interrupts the wait, the
 *	value the driver returned before (usually -ERESTARTSYS or -EINTR)
 *
 * For drivers that took their lock with mutex_lock_interruptible().
 *
 * Example::
 *
 *	DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(foo_unlocked_ioctl, foo_ioctl,
 *					  &foo_mutex, -ERESTARTSYS);
 */
#define DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(name, fn, lock, err)		\
	__DEFINE_LOCKED_IOCTL(, name, #fn, lock, true, err, fn(file, cmd, arg))

/**
 * DEFINE_LOCKED_COMPAT_IOCTL_INTERRUPTIBLE() - compat form of
 *					DEFINE_LOCKED_IOCTL_INTERRUPTIBLE()
 * @name: name of the function to define
 * @fn: the handler, as for DEFINE_LOCKED_IOCTL()
 * @lock: as for DEFINE_LOCKED_IOCTL()
 * @err: as for DEFINE_LOCKED_IOCTL_INTERRUPTIBLE()
 *
 * Example::
 *
 *	DEFINE_LOCKED_COMPAT_IOCTL_INTERRUPTIBLE(foo_compat_ioctl, foo_ioctl,
 *						 &foo_mutex, -ERESTARTSYS);
 */
#define DEFINE_LOCKED_COMPAT_IOCTL_INTERRUPTIBLE(name, fn, lock, err)	\
	__DEFINE_LOCKED_IOCTL(, name, #fn, lock, true, err,		\
			      fn(file, cmd, __LOCKED_IOCTL_COMPAT_ARG(arg)))

#ifdef DEFINE_GUARD
/**
 * DEFINE_GUARDED_IOCTL() - define an unlocked_ioctl that calls a handler under
 *			    any lock that has a cleanup.h guard class
 * @name: name of the function to define
 * @fn: the handler, ``long fn(struct file *, unsigned int, unsigned long)``
 * @class: the guard class, for example ``mutex`` or ``rwsem_write``
 * @lock: expression for the lock, as the guard class expects it; it may use
 *	the generated function's ``file`` argument
 *
 * For a driver lock that is not a mutex.  The handler runs as if in
 * ``scoped_guard(class, lock)``.
 *
 * Example::
 *
 *	static DECLARE_RWSEM(foo_rwsem);
 *	DEFINE_GUARDED_IOCTL(foo_unlocked_ioctl, foo_ioctl, rwsem_write,
 *			     &foo_rwsem);
 */
#define DEFINE_GUARDED_IOCTL(name, fn, class, lock)			\
	__DEFINE_GUARDED_IOCTL(, name, fn, class, lock)

/*
 * Worker: as __DEFINE_LOCKED_IOCTL(), with the lock of a guard class held
 * by the guard, so that only the section's hooks are the layer's.
 */
#define __DEFINE_GUARDED_IOCTL(prefix, name, fn, class, lock)		\
__DEFINE_BKL_USER(__bkl_user_, name, REPLACEMENT, #fn,		\
		  #class "(" #lock ")", NONE);				\
static long prefix##name(struct file *file, unsigned int cmd, unsigned long arg)	\
{									\
	const bool __hooked = __locked_ioctl_hooked();			\
	u64 __t0 = 0;							\
	long ret;							\
									\
	guard(class)(lock);						\
	if (__hooked)							\
		__t0 = __locked_ioctl_enter(&__bkl_user_##name);	\
	ret = fn(file, cmd, arg);					\
	if (__hooked)							\
		__locked_ioctl_exit(&__bkl_user_##name, __t0);		\
	return ret;							\
}
#endif

/**
 * DEFINE_DRIVER_LOCK_USER() - declare a driver mutex that replaced the BKL
 *			       where no wrapper can take it
 * @name: name of the record to define, for driver_lock_user()
 * @func: the function that takes the mutex as this user
 * @lock: the mutex, as the calls name it (``&foo_mutex``)
 *
 * For a mutex that the BKL pushdown put where the BKL was, but that is not
 * held around a whole ioctl, so that no DEFINE_LOCKED_IOCTL() wrapper can
 * take it: a mutex held for some commands only, after work it must not
 * order, or in open().  Taking it with driver_lock_user() and
 * driver_unlock_user() instead of mutex_lock() and mutex_unlock() changes
 * nothing it protects, and gives the section the layer's identity: a
 * record that scripts/bkl-users lists with @lock, a lockdep map named after
 * the record, the ``bkl:driver_lock*`` tracepoints and, with
 * CONFIG_BKL_USER_STATS, the counters in /sys/kernel/debug/bkl/.
 *
 * @lock must be a mutex of file scope (one holder at a time): the record
 * keeps the start of the section that holds it, for the hold time.
 *
 * Example::
 *
 *	static DEFINE_MUTEX(foo_mutex);
 *	DEFINE_DRIVER_LOCK_USER(foo_ioctl_lock, foo_ioctl, &foo_mutex);
 *
 *	static long foo_ioctl(struct file *file, unsigned int cmd,
 *			      unsigned long arg)
 *	{
 *		if (cmd != FOO_RESET)
 *			return foo_query(file, cmd, arg);
 *		driver_lock_user(&foo_ioctl_lock, &foo_mutex);
 *		foo_reset();
 *		driver_unlock_user(&foo_ioctl_lock, &foo_mutex);
 *		return 0;
 *	}
 */
#define DEFINE_DRIVER_LOCK_USER(name, func, lock)			\
	__DEFINE_BKL_USER(, name, REPLACEMENT, #func, #lock, NONE)

/**
 * driver_lock_user() - take a driver mutex as a declared user
 * @user: the record, defined with DEFINE_DRIVER_LOCK_USER()
 * @lock: the mutex the record names
 *
 * mutex_lock(@lock), then the section of @user begins: its lockdep map is
 * held, the ``bkl:driver_lock`` tracepoint fires, its counters count.
 * Pair it with driver_unlock_user() on the same @user and @lock.
 *
 * Context: Process context; may sleep.
 */
static __always_inline void driver_lock_user(struct bkl_user *user,
					     struct mutex *lock)
{
	u64 t0 = __locked_ioctl_lock(user, lock);

	user->since = t0;
}

/**
 * driver_lock_user_interruptible() - as driver_lock_user(), unless a signal
 *				      comes
 * @user: the record, defined with DEFINE_DRIVER_LOCK_USER()
 * @lock: the mutex the record names
 *
 * For a driver that took the mutex with mutex_lock_interruptible().
 *
 * Context: Process context; may sleep.
 * Return: 0 with @lock held and the section begun, or -EINTR without.
 */
static __always_inline int __must_check
driver_lock_user_interruptible(struct bkl_user *user, struct mutex *lock)
{
	u64 t0;
	int ret = __locked_ioctl_lock_interruptible(user, lock, &t0);

	if (!ret)
		user->since = t0;
	return ret;
}

/**
 * driver_unlock_user() - end a section that driver_lock_user() began
 * @user: the record given to driver_lock_user()
 * @lock: the mutex given to driver_lock_user()
 *
 * Context: Process context, with @lock held by the current task.
 */
static __always_inline void driver_unlock_user(struct bkl_user *user,
					       struct mutex *lock)
{
	__locked_ioctl_unlock(user, lock, user->since);
}

#endif /* _LINUX_LOCKED_IOCTL_H */
