// SPDX-License-Identifier: GPL-2.0
/*
 * Test devices for the deprecated_ioctl shim: /dev/lit_shim, a legacy-style
 * driver whose old .locked_ioctl handler deprecated_ioctl() and
 * deprecated_compat_ioctl() run under the BKL, and /dev/lit_legacy, which has
 * only .locked_ioctl and reaches the shim through the VFS fallback (and so
 * has no compat entry point: a 32-bit caller gets -ENOTTY).
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */

#include <linux/locked_ioctl.h>
#include <linux/module.h>

#include "lit.h"

static int lit_shim_ioctl(struct inode *inode, struct file *file,
			  unsigned int cmd, unsigned long arg)
{
	return lit_ioctl(file, cmd, arg);
}

DEFINE_BKL_SHIM_USER(lit_shim_ioctl);

const struct file_operations lit_shim_fops = {
	.owner		= THIS_MODULE,
	.locked_ioctl	= lit_shim_ioctl,
	.unlocked_ioctl	= deprecated_ioctl,
	.compat_ioctl	= deprecated_compat_ioctl,
};

static int lit_legacy_ioctl(struct inode *inode, struct file *file,
			    unsigned int cmd, unsigned long arg)
{
	return lit_ioctl(file, cmd, arg);
}

DEFINE_BKL_SHIM_USER(lit_legacy_ioctl);

const struct file_operations lit_legacy_fops = {
	.owner		= THIS_MODULE,
	.locked_ioctl	= lit_legacy_ioctl,
};
