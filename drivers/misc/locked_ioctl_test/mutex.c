// SPDX-License-Identifier: GPL-2.0
/*
 * Test devices for the generic wrappers: /dev/lit_mutex runs its handler
 * under the device's own mutex with DEFINE_LOCKED_IOCTL(), /dev/lit_mutex_intr
 * with DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(), both with their compat forms, and
 * /dev/lit_nolock runs it without any lock, the control against which a
 * test sees that the others serialise.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */

#include <linux/locked_ioctl.h>
#include <linux/module.h>

#include "lit.h"

DEFINE_LOCKED_IOCTL(lit_mutex_unlocked_ioctl, lit_ioctl,
		    &lit_dev_of(file)->lock);
DEFINE_LOCKED_COMPAT_IOCTL(lit_mutex_compat_ioctl, lit_ioctl,
			   &lit_dev_of(file)->lock);

const struct file_operations lit_mutex_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= lit_mutex_unlocked_ioctl,
	.compat_ioctl	= lit_mutex_compat_ioctl,
};

DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(lit_mutex_intr_unlocked_ioctl, lit_ioctl,
				  &lit_dev_of(file)->lock, -ERESTARTSYS);
DEFINE_LOCKED_COMPAT_IOCTL_INTERRUPTIBLE(lit_mutex_intr_compat_ioctl,
					 lit_ioctl, &lit_dev_of(file)->lock,
					 -ERESTARTSYS);

const struct file_operations lit_mutex_intr_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= lit_mutex_intr_unlocked_ioctl,
	.compat_ioctl	= lit_mutex_intr_compat_ioctl,
};

static long lit_nolock_compat_ioctl(struct file *file, unsigned int cmd,
				    unsigned long arg)
{
	return lit_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}

const struct file_operations lit_nolock_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= lit_ioctl,
	.compat_ioctl	= lit_nolock_compat_ioctl,
};
