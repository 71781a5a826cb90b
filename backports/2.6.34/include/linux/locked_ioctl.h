/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generic locked ioctl wrappers, for a kernel that still has the historical
 * Big Kernel Lock (Linux 2.6.x up to 2.6.38).
 *
 * This is the edition of <linux/locked_ioctl.h> that the first patch of a
 * series for such a tree adds (scripts/bkl-migrate --format-patch): the same
 * generators as today's header, on the tree's own lock_kernel() and
 * unlock_kernel(), so that a driver moves its .ioctl off the VFS's BKL with
 * one line and the later kernels' header takes the line unchanged.  There is
 * no registry and no lockdep class here: a user's name is for the reader of
 * the source and for scripts/bkl-users, which find the BKL users by it.
 */
#ifndef _LINUX_LOCKED_IOCTL_H
#define _LINUX_LOCKED_IOCTL_H

#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/smp_lock.h>

/**
 * struct bkl_user - a named section of code that takes the BKL
 * @name: the name given to DEFINE_BKL_USER()
 */
struct bkl_user {
	const char *name;
};

/**
 * DEFINE_BKL_USER - name a section of code that takes the BKL by hand
 * @name: the user, for lock_kernel_user() and unlock_kernel_user()
 * @func: the function the section is in
 */
#define DEFINE_BKL_USER(name, func)					\
	static struct bkl_user name __maybe_unused = { #func }

/**
 * lock_kernel_user - lock_kernel(), in a section DEFINE_BKL_USER() named
 * @user: the user
 */
#define lock_kernel_user(user)						\
	do { (void)(user); lock_kernel(); } while (0)

/**
 * unlock_kernel_user - unlock_kernel(), leaving a section of @user
 * @user: the user given to lock_kernel_user()
 */
#define unlock_kernel_user(user)					\
	do { (void)(user); unlock_kernel(); } while (0)

/*
 * The workers define the function as prefix##name with an empty prefix: the
 * paste marks them, for checkpatch too, as macros that define a function.
 */

/* Worker: an unlocked_ioctl that runs @call (of file/cmd/arg) under the BKL. */
#define __DEFINE_BKL_IOCTL(prefix, name, call)				\
static long prefix##name(struct file *file, unsigned int cmd,		\
			 unsigned long arg)				\
{									\
	long ret;							\
									\
	lock_kernel();							\
	ret = call;							\
	unlock_kernel();						\
	return ret;							\
}

/*
 * Worker: as __DEFINE_BKL_IOCTL(), and a function of external linkage,
 * prefix##name, that calls it, exported with @export: for a handler that
 * several files share.
 */
#define __DEFINE_BKL_IOCTL_EXPORT(prefix, name, call, export)		\
__DEFINE_BKL_IOCTL(__bkl_static_, name, call)				\
long prefix##name(struct file *file, unsigned int cmd,			\
		  unsigned long arg)					\
{									\
	return __bkl_static_##name(file, cmd, arg);			\
}									\
export(prefix##name)

/* The @export of a function that other built-in files call: a declaration. */
#define __BKL_NOT_EXPORTED(sym)						\
	long sym(struct file *file, unsigned int cmd, unsigned long arg)

#define __BKL_INODE(file)	((file)->f_path.dentry->d_inode)

/**
 * DEFINE_BKL_IOCTL - define an unlocked_ioctl that calls an old-style
 *		      .ioctl handler with the BKL held
 * @name: the function to define, for &file_operations.unlocked_ioctl
 * @fn: the handler, int (*)(struct inode *, struct file *, unsigned int,
 *	unsigned long), as &file_operations.ioctl took it
 *
 * Does what the VFS did around .ioctl, so that the driver stops relying on
 * it: @name takes the BKL, calls @fn and drops the BKL.
 */
#define DEFINE_BKL_IOCTL(name, fn)					\
	__DEFINE_BKL_IOCTL(, name, fn(__BKL_INODE(file), file, cmd, arg))

/**
 * DEFINE_BKL_COMPAT_IOCTL - as DEFINE_BKL_IOCTL(), for compat_ioctl
 * @name: the function to define, for &file_operations.compat_ioctl
 * @fn: the handler, as for DEFINE_BKL_IOCTL(); it gets compat_ptr(arg)
 */
#define DEFINE_BKL_COMPAT_IOCTL(name, fn)				\
	__DEFINE_BKL_IOCTL(, name, fn(__BKL_INODE(file), file, cmd,	\
				      (unsigned long)compat_ptr(arg)))

/**
 * DEFINE_BKL_UNLOCKED_IOCTL - define an unlocked_ioctl that calls a
 *			       handler of that type under the BKL
 * @name: the function to define
 * @fn: the handler, long (*)(struct file *, unsigned int, unsigned long)
 */
#define DEFINE_BKL_UNLOCKED_IOCTL(name, fn)				\
	__DEFINE_BKL_IOCTL(, name, fn(file, cmd, arg))

/**
 * DEFINE_BKL_IOCTL_GLOBAL - as DEFINE_BKL_IOCTL(), for other built-in files
 * @name: the function to define, of external linkage
 * @fn: the handler, as for DEFINE_BKL_IOCTL()
 */
#define DEFINE_BKL_IOCTL_GLOBAL(name, fn)				\
	__DEFINE_BKL_IOCTL_EXPORT(, name,				\
				  fn(__BKL_INODE(file), file, cmd, arg), \
				  __BKL_NOT_EXPORTED)

/**
 * DEFINE_BKL_IOCTL_EXPORT - as DEFINE_BKL_IOCTL_GLOBAL(), for modules too
 * @name: the function to define and export
 * @fn: the handler, as for DEFINE_BKL_IOCTL()
 */
#define DEFINE_BKL_IOCTL_EXPORT(name, fn)				\
	__DEFINE_BKL_IOCTL_EXPORT(, name,				\
				  fn(__BKL_INODE(file), file, cmd, arg), \
				  EXPORT_SYMBOL)

/**
 * DEFINE_BKL_IOCTL_EXPORT_GPL - as DEFINE_BKL_IOCTL_EXPORT(), GPL only
 * @name: the function to define and export
 * @fn: the handler, as for DEFINE_BKL_IOCTL()
 */
#define DEFINE_BKL_IOCTL_EXPORT_GPL(name, fn)				\
	__DEFINE_BKL_IOCTL_EXPORT(, name,				\
				  fn(__BKL_INODE(file), file, cmd, arg), \
				  EXPORT_SYMBOL_GPL)

#endif /* _LINUX_LOCKED_IOCTL_H */
