// SPDX-License-Identifier: GPL-2.0
/*
 * Test drivers for the locked-ioctl layer: the commands every test device
 * answers, and the module that registers the devices.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * Each device is a misc character device, /dev/lit_<name>, whose ioctl runs
 * lit_ioctl() under one form of the layer (shim.c, bkl.c, mutex.c).  The
 * handler counts how many handlers of its lock domain are inside at once, so
 * that a userspace test can see whether the lock serialises them, and it
 * answers commands that report the lock held, sleep under it, fail from
 * several paths and copy to and from user memory (see locked_ioctl_test.h).
 * The userspace side is tools/testing/selftests/locked_ioctl/.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/smp_lock.h>
#include <linux/uaccess.h>

#include "lit.h"

struct lit_domain lit_bkl_domain;

#ifdef CONFIG_COMPAT
/* struct lit_legacy_buf as a 32-bit process lays it out. */
struct lit_legacy_buf32 {
	u32 len;
	compat_uptr_t data;
};

#define LIT_LEGACY_REVERSE32	_IOWR(LIT_IOC_MAGIC, 5, struct lit_legacy_buf32)
#endif

static void lit_enter(struct lit_domain *d, int *inside)
{
	s64 max;

	*inside = atomic_inc_return(&d->inside);
	atomic64_inc(&d->calls);
	if (*inside > 1)
		atomic64_inc(&d->overlaps);
	max = atomic64_read(&d->max_inside);
	while (*inside > max && !atomic64_try_cmpxchg(&d->max_inside, &max, *inside))
		;
}

static int lit_get_state(struct lit_dev *dev, int inside, void __user *argp)
{
	struct lit_state st = {
		.kind = dev->kind,
		.bkl_held = kernel_locked(),
		.lock_held = mutex_is_locked(&dev->lock),
		.inside = inside,
		.compat = in_compat_syscall(),
	};

	return copy_to_user(argp, &st, sizeof(st)) ? -EFAULT : 0;
}

static int lit_get_stats(struct lit_dev *dev, void __user *argp)
{
	struct lit_domain *d = dev->domain;
	struct lit_stats st = {
		.calls = atomic64_read(&d->calls),
		.overlaps = atomic64_read(&d->overlaps),
		.max_inside = atomic64_read(&d->max_inside),
		/* not counting this call */
		.inside = atomic_read(&d->inside) - 1,
	};

	return copy_to_user(argp, &st, sizeof(st)) ? -EFAULT : 0;
}

static void lit_reset_stats(struct lit_dev *dev)
{
	struct lit_domain *d = dev->domain;

	atomic64_set(&d->calls, 0);
	atomic64_set(&d->overlaps, 0);
	atomic64_set(&d->max_inside, 0);
}

static int lit_sleep(void __user *argp)
{
	u32 ms;

	if (get_user(ms, (u32 __user *)argp))
		return -EFAULT;
	if (ms > LIT_MAX_SLEEP_MS)
		return -EINVAL;
	msleep(ms);
	return 0;
}

/* Reverse @len bytes at @ubuf in place, through a kernel copy. */
static int lit_reverse_user(void __user *ubuf, u32 len)
{
	char *buf;
	int ret = 0;
	u32 i;

	if (len > LIT_MAX_LEN)
		return -EINVAL;
	if (!len)
		return 0;
	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if (copy_from_user(buf, ubuf, len)) {
		ret = -EFAULT;
		goto out_free;
	}
	for (i = 0; i < len / 2; i++)
		swap(buf[i], buf[len - 1 - i]);
	if (copy_to_user(ubuf, buf, len))
		ret = -EFAULT;
out_free:
	kfree(buf);
	return ret;
}

static int lit_reverse(void __user *argp)
{
	struct lit_buf b;

	if (copy_from_user(&b, argp, sizeof(b)))
		return -EFAULT;
	if (b.flags)
		return -EINVAL;
	return lit_reverse_user(u64_to_user_ptr(b.data), b.len);
}

static int lit_legacy_reverse(void __user *argp)
{
	struct lit_legacy_buf b;

	if (copy_from_user(&b, argp, sizeof(b)))
		return -EFAULT;
	return lit_reverse_user((void __user *)b.data, b.len);
}

#ifdef CONFIG_COMPAT
static int lit_legacy_reverse32(void __user *argp)
{
	struct lit_legacy_buf32 b;

	if (copy_from_user(&b, argp, sizeof(b)))
		return -EFAULT;
	return lit_reverse_user(compat_ptr(b.data), b.len);
}
#endif

static int lit_fail(struct lit_dev *dev, void __user *argp)
{
	struct lit_fail f;
	void *scratch;
	int ret;

	if (copy_from_user(&f, argp, sizeof(f)))
		return -EFAULT;
	/* plain errnos, and the one kernel-internal code the VFS translates */
	if (f.err < 1 || (f.err >= ERESTARTSYS && f.err != ENOIOCTLCMD) ||
	    f.path >= LIT_FAIL_NR_PATHS)
		return -EINVAL;

	switch (f.path) {
	case LIT_FAIL_AFTER_COPY:
		return -f.err;
	case LIT_FAIL_NESTED:
		return lit_fail_nested(dev, f.err);
	}

	/* LIT_FAIL_UNWIND: a step after an allocation fails */
	scratch = kzalloc(LIT_MAX_LEN, GFP_KERNEL);
	if (!scratch)
		return -ENOMEM;
	if (f.err) {
		ret = -f.err;
		goto out_free;
	}
	ret = 0;
out_free:
	kfree(scratch);
	return ret;
}

static long lit_dispatch(struct lit_dev *dev, int inside, unsigned int cmd,
			 void __user *argp)
{
	switch (cmd) {
	case LIT_GET_STATE:
		return lit_get_state(dev, inside, argp);
	case LIT_SLEEP:
		return lit_sleep(argp);
	case LIT_FAIL:
		return lit_fail(dev, argp);
	case LIT_REVERSE:
		return lit_reverse(argp);
	case LIT_GET_STATS:
		return lit_get_stats(dev, argp);
	case LIT_RESET_STATS:
		lit_reset_stats(dev);
		return 0;
	case LIT_LEGACY_REVERSE:
		if (in_compat_syscall())
			break;
		return lit_legacy_reverse(argp);
#ifdef CONFIG_COMPAT
	case LIT_LEGACY_REVERSE32:
		if (!in_compat_syscall())
			break;
		return lit_legacy_reverse32(argp);
#endif
	}
	return -ENOTTY;
}

/**
 * lit_ioctl() - the ioctl handler of every test device
 * @file: the open device
 * @cmd: a LIT_* command
 * @arg: its argument, a user pointer (already through compat_ptr() on the
 *	compat path)
 *
 * Counts the call in the device's lock domain while it runs the command.
 *
 * Context: process context, under the device's lock (none for lit_nolock).
 * Return: 0, or a negative errno: -ENOTTY for an unknown command, -EFAULT
 * for a bad pointer, -EINVAL for a bad value, what LIT_FAIL asked for.
 */
long lit_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct lit_dev *dev = lit_dev_of(file);
	int inside;
	long ret;

	lit_enter(dev->domain, &inside);
	ret = lit_dispatch(dev, inside, cmd, (void __user *)arg);
	atomic_dec(&dev->domain->inside);
	return ret;
}

static struct lit_domain lit_mutex_domain, lit_mutex_intr_domain;
static struct lit_domain lit_nolock_domain;

/* LIT_DEV(name, KIND, domain): /dev/lit_<name>, with lit_<name>_fops. */
#define LIT_DEV(_name, _kind, _domain)					\
	{								\
		.misc = {						\
			.minor	= MISC_DYNAMIC_MINOR,			\
			.name	= "lit_" #_name,			\
			.fops	= &lit_##_name##_fops,			\
		},							\
		.kind	= LIT_KIND_##_kind,				\
		.domain	= _domain,					\
	}

/*
 * Every test device: the BKL devices share the BKL's domain, each mutex
 * device has its own.  Out of tree (CONFIG_BKL_MODULE) the kernel has no
 * file_operations.locked_ioctl: the shim's devices (shim.c) are not built.
 */
static struct lit_dev lit_devs[] = {
#ifdef CONFIG_BKL
	LIT_DEV(shim, SHIM, &lit_bkl_domain),
	LIT_DEV(legacy, LEGACY, &lit_bkl_domain),
#endif
	LIT_DEV(bkl, BKL, &lit_bkl_domain),
	LIT_DEV(mutex, MUTEX, &lit_mutex_domain),
	LIT_DEV(mutex_intr, MUTEX_INTR, &lit_mutex_intr_domain),
	LIT_DEV(nolock, NOLOCK, &lit_nolock_domain),
};

static int __init lit_init(void)
{
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(lit_devs); i++) {
		mutex_init(&lit_devs[i].lock);
		ret = misc_register(&lit_devs[i].misc);
		if (ret) {
			pr_err("cannot register /dev/%s: %d\n",
			       lit_devs[i].misc.name, ret);
			goto err_deregister;
		}
	}
	return 0;

err_deregister:
	while (--i >= 0)
		misc_deregister(&lit_devs[i].misc);
	return ret;
}
module_init(lit_init);

static void __exit lit_exit(void)
{
	int i;

	for (i = ARRAY_SIZE(lit_devs) - 1; i >= 0; i--)
		misc_deregister(&lit_devs[i].misc);
}
module_exit(lit_exit);

MODULE_DESCRIPTION("Test drivers for the locked-ioctl layer");
MODULE_LICENSE("GPL");
