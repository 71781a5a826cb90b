// SPDX-License-Identifier: GPL-2.0
/*
 * Test device for DEFINE_BKL_IOCTL(): /dev/lit_bkl, an old-style handler
 * pushed down into the BKL wrappers, native and compat.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */

#include <linux/locked_ioctl.h>
#include <linux/module.h>
#include <linux/smp_lock.h>

#include "lit.h"

static int lit_bkl_ioctl(struct inode *inode, struct file *file,
			 unsigned int cmd, unsigned long arg)
{
	return lit_ioctl(file, cmd, arg);
}

DEFINE_BKL_IOCTL(lit_bkl_unlocked_ioctl, lit_bkl_ioctl);
DEFINE_BKL_COMPAT_IOCTL(lit_bkl_compat_ioctl, lit_bkl_ioctl);

const struct file_operations lit_bkl_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= lit_bkl_unlocked_ioctl,
	.compat_ioctl	= lit_bkl_compat_ioctl,
};

DEFINE_BKL_USER(lit_fail_nested_bkl, lit_fail_nested);

/**
 * lit_fail_nested() - fail from inside a recursive acquisition of the BKL
 * @dev: the device
 * @err: positive errno to return
 *
 * On a device that runs under the BKL, take it once more (it is recursive
 * per task) and fail with it held twice; elsewhere, fail at once.
 *
 * Return: -@err.
 */
long lit_fail_nested(struct lit_dev *dev, int err)
{
	long ret = -err;

	if (dev->domain != &lit_bkl_domain)
		return ret;
	lock_kernel_user(&lit_fail_nested_bkl);
	if (kernel_locked())
		goto out_unlock;
	ret = -EDEADLK;		/* the BKL is not held: should not happen */
out_unlock:
	unlock_kernel_user(&lit_fail_nested_bkl);
	return ret;
}
