// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark of the locked ioctl wrappers: one ioctl handler, locked five
 * ways, for an in-kernel loop and for the userspace round trip.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * The variants, each with LITB_NR_DEVS devices /dev/litb_<variant>N:
 *
 * - bare: the handler is the unlocked_ioctl, no lock;
 * - hand: a mutex per device, taken by a wrapper written by hand, the
 *   baseline the generic wrapper must match;
 * - generic: the same mutex, through DEFINE_LOCKED_IOCTL();
 * - bkl: DEFINE_BKL_IOCTL() around an old-style handler;
 * - shim: the old-style handler as .locked_ioctl behind deprecated_ioctl.
 *
 * The module builds out of tree against a kernel without the layer too, with
 * -DLITB_NO_LAYER (bare and hand only, the baseline of a kernel without it),
 * and without the BKL (no bkl, no shim).  With kernel_iters set, loading it
 * first calls each variant's unlocked_ioctl directly kernel_iters times,
 * kernel_reps times over, variants interleaved, and logs one line per variant
 * and repetition:
 *
 *	locked_ioctl_bench: kernel <variant> rep <r> iters <n> ns <total>
 *
 * tools/testing/locked-ioctl/bench runs it and the userspace side.  See
 * Documentation/dev-tools/locked-ioctl-bench.rst.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

/* LITB_NO_LAYER: built out of tree against a kernel without the layer */
#ifndef LITB_NO_LAYER
#include <linux/locked_ioctl.h>
#define LITB_HAVE_LAYER		1
#endif

#include "locked_ioctl_bench.h"

static unsigned int kernel_iters;
module_param(kernel_iters, uint, 0444);
MODULE_PARM_DESC(kernel_iters, "calls per variant and repetition of the in-kernel loop (0: none)");

static unsigned int kernel_reps = 5;
module_param(kernel_reps, uint, 0444);
MODULE_PARM_DESC(kernel_reps, "repetitions of the in-kernel loop");

/**
 * struct litb_dev - one benchmark device
 * @misc: its character device, /dev/litb_<variant>N
 * @lock: the device's mutex, held by the hand and generic variants
 * @work: the state the handler works on
 * @name: the device's name
 */
struct litb_dev {
	struct miscdevice misc;
	struct mutex lock;	/* serialises the handler of a hand/generic device */
	unsigned long work;
	char name[24];
};

static inline struct litb_dev *litb_dev_of(struct file *file)
{
	return container_of(file->private_data, struct litb_dev, misc);
}

/* The handler's body, the same for every variant. */
static __always_inline long litb_do(struct file *file, unsigned int cmd,
				    unsigned long arg)
{
	struct litb_dev *dev = litb_dev_of(file);
	unsigned long i;

	if (cmd != LITB_WORK)
		return -ENOTTY;
	if (arg > LITB_MAX_WORK)
		return -EINVAL;
	for (i = 0; i < arg; i++)
		WRITE_ONCE(dev->work, READ_ONCE(dev->work) + 1);
	return 0;
}

/* Out of line, so that every variant pays one call to its handler. */
static noinline long litb_ioctl(struct file *file, unsigned int cmd,
				unsigned long arg)
{
	return litb_do(file, cmd, arg);
}

static const struct file_operations litb_bare_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= litb_ioctl,
};

/* What a driver writes by hand once it has a lock of its own. */
static long litb_hand_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	struct litb_dev *dev = litb_dev_of(file);
	long ret;

	mutex_lock(&dev->lock);
	ret = litb_ioctl(file, cmd, arg);
	mutex_unlock(&dev->lock);
	return ret;
}

static const struct file_operations litb_hand_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= litb_hand_ioctl,
};

#ifdef LITB_HAVE_LAYER
DEFINE_LOCKED_IOCTL(litb_generic_ioctl, litb_ioctl, &litb_dev_of(file)->lock);

static const struct file_operations litb_generic_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= litb_generic_ioctl,
};
#endif

#if IS_ENABLED(CONFIG_BKL)
static noinline int litb_old_ioctl(struct inode *inode, struct file *file,
				   unsigned int cmd, unsigned long arg)
{
	return litb_do(file, cmd, arg);
}

DEFINE_BKL_IOCTL(litb_bkl_ioctl, litb_old_ioctl);

static const struct file_operations litb_bkl_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= litb_bkl_ioctl,
};
#endif

#ifdef CONFIG_BKL
static noinline int litb_shim_ioctl(struct inode *inode, struct file *file,
				    unsigned int cmd, unsigned long arg)
{
	return litb_do(file, cmd, arg);
}

DEFINE_BKL_SHIM_USER(litb_shim_ioctl);

static const struct file_operations litb_shim_fops = {
	.owner		= THIS_MODULE,
	.locked_ioctl	= litb_shim_ioctl,
	.unlocked_ioctl	= deprecated_ioctl,
};
#endif

struct litb_variant {
	const char *name;
	const struct file_operations *fops;
};

static const struct litb_variant litb_variants[] = {
	{ "bare", &litb_bare_fops },
	{ "hand", &litb_hand_fops },
#ifdef LITB_HAVE_LAYER
	{ "generic", &litb_generic_fops },
#endif
#if IS_ENABLED(CONFIG_BKL)
	{ "bkl", &litb_bkl_fops },
#endif
#ifdef CONFIG_BKL
	{ "shim", &litb_shim_fops },
#endif
};

#define LITB_NR_VARIANTS	ARRAY_SIZE(litb_variants)

static struct litb_dev litb_devs[LITB_NR_VARIANTS][LITB_NR_DEVS];

/*
 * Call each variant's unlocked_ioctl on a file of its first device, the way
 * the VFS would but without the system call around it.
 */
static int litb_run_kernel(void)
{
	struct file *files;
	unsigned int v, rep, i;
	long ret = 0;
	u64 t0, ns;

	files = kcalloc(LITB_NR_VARIANTS, sizeof(*files), GFP_KERNEL);
	if (!files)
		return -ENOMEM;
	for (v = 0; v < LITB_NR_VARIANTS; v++) {
		files[v].f_op = litb_variants[v].fops;
		files[v].private_data = &litb_devs[v][0].misc;
	}
	for (rep = 0; rep < kernel_reps; rep++) {
		for (v = 0; v < LITB_NR_VARIANTS; v++) {
			long (*fn)(struct file *, unsigned int, unsigned long) =
				files[v].f_op->unlocked_ioctl;

			t0 = ktime_get_ns();
			for (i = 0; i < kernel_iters; i++)
				ret |= fn(&files[v], LITB_WORK, 0);
			ns = ktime_get_ns() - t0;
			if (ret) {
				pr_err("kernel %s: the handler failed: %ld\n",
				       litb_variants[v].name, ret);
				goto out_free;
			}
			pr_info("kernel %s rep %u iters %u ns %llu\n",
				litb_variants[v].name, rep, kernel_iters, ns);
			cond_resched();
		}
	}
out_free:
	kfree(files);
	return ret ? -EIO : 0;
}

static void litb_deregister(unsigned int n)
{
	while (n--)
		misc_deregister(&litb_devs[n / LITB_NR_DEVS][n % LITB_NR_DEVS].misc);
}

static int __init litb_init(void)
{
	unsigned int n, v, d;
	int ret;

	for (n = 0; n < LITB_NR_VARIANTS * LITB_NR_DEVS; n++) {
		struct litb_dev *dev;

		v = n / LITB_NR_DEVS;
		d = n % LITB_NR_DEVS;
		dev = &litb_devs[v][d];
		mutex_init(&dev->lock);
		snprintf(dev->name, sizeof(dev->name), "litb_%s%u",
			 litb_variants[v].name, d);
		dev->misc.minor = MISC_DYNAMIC_MINOR;
		dev->misc.name = dev->name;
		dev->misc.fops = litb_variants[v].fops;
		ret = misc_register(&dev->misc);
		if (ret) {
			pr_err("cannot register /dev/%s: %d\n", dev->name, ret);
			goto err_deregister;
		}
	}
	if (kernel_iters) {
		ret = litb_run_kernel();
		if (ret)
			goto err_deregister;
	}
	return 0;

err_deregister:
	litb_deregister(n);
	return ret;
}
module_init(litb_init);

static void __exit litb_exit(void)
{
	litb_deregister(LITB_NR_VARIANTS * LITB_NR_DEVS);
}
module_exit(litb_exit);

MODULE_DESCRIPTION("Benchmark of the locked ioctl wrappers");
MODULE_LICENSE("GPL");
