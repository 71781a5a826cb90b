/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interface of the locked-ioctl test drivers.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */
#ifndef _LIT_H
#define _LIT_H

#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>

#include "locked_ioctl_test.h"

/**
 * struct lit_domain - the handlers that one lock serialises
 * @inside: handlers running now
 * @calls: see &struct lit_stats
 * @overlaps: see &struct lit_stats
 * @max_inside: see &struct lit_stats
 *
 * The BKL devices share one domain, since the BKL serialises them all; each
 * mutex device has its own.
 */
struct lit_domain {
	atomic_t inside;
	atomic64_t calls;
	atomic64_t overlaps;
	atomic64_t max_inside;
};

/**
 * struct lit_dev - one test device
 * @misc: its character device, /dev/lit_<name>
 * @kind: how its ioctl is locked
 * @lock: the device's own mutex, held by the DEFINE_LOCKED_IOCTL*() devices
 * @domain: the domain its handlers count in
 */
struct lit_dev {
	struct miscdevice misc;
	enum lit_kind kind;
	struct mutex lock;	/* serialises the handlers of a mutex device */
	struct lit_domain *domain;
};

static inline struct lit_dev *lit_dev_of(struct file *file)
{
	return container_of(file->private_data, struct lit_dev, misc);
}

extern struct lit_domain lit_bkl_domain;

/* The file operations of each kind of device: shim.c, bkl.c, mutex.c. */
extern const struct file_operations lit_shim_fops, lit_legacy_fops;
extern const struct file_operations lit_bkl_fops;
extern const struct file_operations lit_mutex_fops, lit_mutex_intr_fops;
extern const struct file_operations lit_nolock_fops;

long lit_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
long lit_fail_nested(struct lit_dev *dev, int err);

#endif /* _LIT_H */
