// SPDX-License-Identifier: GPL-2.0
/*
 * legacy_ioctl: an out-of-tree character driver written the way drivers for
 * Linux 2.6.3x were, before the BKL was pushed down: the VFS calls its
 * .ioctl handler under the BKL with the file's inode, its open() takes the
 * BKL itself, and its compat handler takes the BKL around the native one.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * It does not build on a kernel without .ioctl (2.6.36 and later) as it is.
 * "scripts/bkl-migrate --tree ." in a copy of this directory ports it onto
 * the locked-ioctl layer; the result builds against a distribution kernel's
 * headers with the layer's bkl.ko (Documentation/locking/locked-ioctl.rst,
 * "Out of tree").  legacy_ioctl_test.c checks the result.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#include "legacy_ioctl.h"

/* Both protected by the BKL. */
static unsigned int legacy_opens;
static int legacy_value;

static int legacy_open(struct inode *inode, struct file *file)
{
	lock_kernel();
	legacy_opens++;
	unlock_kernel();
	return 0;
}

static int legacy_ioctl(struct inode *inode, struct file *file,
			unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;
	struct legacy_state st;
	int value;

	switch (cmd) {
	case LEGACY_GET_STATE:
		st.bkl_held = kernel_locked();
		st.opens = legacy_opens;
		st.value = legacy_value;
		st.minor = iminor(inode);
		if (copy_to_user(argp, &st, sizeof(st)))
			return -EFAULT;
		return 0;
	case LEGACY_SET_VALUE:
		/* get_user() zeroes its destination when it faults */
		if (get_user(value, (int __user *)argp))
			return -EFAULT;
		legacy_value = value;
		return 0;
	default:
		return -ENOTTY;
	}
}

#ifdef CONFIG_COMPAT
static long legacy_compat_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	long ret;

	lock_kernel();
	ret = legacy_ioctl(file->f_path.dentry->d_inode, file, cmd,
			   (unsigned long)compat_ptr(arg));
	unlock_kernel();
	return ret;
}
#endif

static const struct file_operations legacy_fops = {
	.owner		= THIS_MODULE,
	.open		= legacy_open,
	.ioctl		= legacy_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= legacy_compat_ioctl,
#endif
};

static struct miscdevice legacy_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "legacy_ioctl",
	.fops	= &legacy_fops,
};

static int __init legacy_init(void)
{
	return misc_register(&legacy_misc);
}
module_init(legacy_init);

static void __exit legacy_exit(void)
{
	misc_deregister(&legacy_misc);
}
module_exit(legacy_exit);

MODULE_DESCRIPTION("A driver in the style of Linux 2.6.3x, for bkl-migrate");
MODULE_LICENSE("GPL");
