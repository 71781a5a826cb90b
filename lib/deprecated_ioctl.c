// SPDX-License-Identifier: GPL-2.0
/*
 * deprecated_ioctl: the shim that keeps a driver with an old-style ioctl
 * handler, not yet pushed down, working under the Big Kernel Lock.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * See Documentation/locking/locked-ioctl.rst.
 */
#include <linux/bkl_user.h>
#include <linux/compat.h>
#include <linux/export.h>
#include <linux/fs.h>
#include <linux/locked_ioctl.h>
#include <linux/smp_lock.h>

static long __deprecated_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	const struct file_operations *fops = file->f_op;
	struct bkl_user *user;
	long ret;

	if (!fops || !fops->locked_ioctl)
		return -ENOTTY;

	/*
	 * A driver that declared itself with DEFINE_BKL_SHIM_USER() runs under
	 * its own name; any other is unannotated, and the warning about it
	 * names its handler rather than this function.
	 */
	user = bkl_user_find_handler(fops->locked_ioctl);
	__lock_kernel_user(user, (unsigned long)fops->locked_ioctl);
	ret = fops->locked_ioctl(file_inode(file), file, cmd, arg);
	__unlock_kernel_user(user, (unsigned long)fops->locked_ioctl);
	/* as the VFS does, for the fallback that calls this directly */
	return ret == -ENOIOCTLCMD ? -ENOTTY : ret;
}

/**
 * deprecated_ioctl() - call &file_operations.locked_ioctl under the BKL
 * @file: the file the ioctl was issued on
 * @cmd: the ioctl command
 * @arg: the ioctl argument
 *
 * An unconverted driver sets ``.unlocked_ioctl = deprecated_ioctl`` and
 * ``.locked_ioctl`` to its old handler; the VFS also sends ioctls here for a
 * file whose operations have only .locked_ioctl.  The handler runs under the
 * BKL, as .ioctl did before the BKL was pushed down.  Converting the driver
 * to DEFINE_BKL_IOCTL() or, better, to a lock of its own removes the need
 * for it.
 *
 * Context: Process context; sleeps.
 * Return: what .locked_ioctl returned, -ENOTTY for its -ENOIOCTLCMD, or
 * -ENOTTY when there is none.
 */
long deprecated_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return __deprecated_ioctl(file, cmd, arg);
}
EXPORT_SYMBOL_GPL(deprecated_ioctl);

/**
 * deprecated_compat_ioctl() - the compat entry point of deprecated_ioctl()
 * @file: the file the ioctl was issued on
 * @cmd: the ioctl command
 * @arg: the 32-bit ioctl argument
 *
 * As deprecated_ioctl(), with compat_ptr(@arg): for a driver whose ioctl
 * structures have the same layout for 32-bit and 64-bit callers.  It is never
 * set up by itself; a driver opts in with ``.compat_ioctl =
 * deprecated_compat_ioctl``, so that its compat path takes the BKL as its
 * native path does.
 *
 * Context: Process context; sleeps.
 * Return: what .locked_ioctl returned, -ENOTTY for its -ENOIOCTLCMD, or
 * -ENOTTY when there is none.
 */
long deprecated_compat_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	return __deprecated_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}
EXPORT_SYMBOL_GPL(deprecated_compat_ioctl);
