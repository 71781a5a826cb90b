/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What Linux 2.6.34 lacks of the kernel API that our headers use, for
 * make check-legacy only: it compiles the files bkl-migrate converted in a
 * 2.6.34 tree against our headers (-include this file, our include/ and
 * this directory's include/ first on the path).  Never part of the layer.
 */
#ifndef _LOCKED_IOCTL_LEGACY_COMPAT_H
#define _LOCKED_IOCTL_LEGACY_COMPAT_H

/* Read first, before the configuration: macros only, no header. */
/* a false assertion is an array of negative size, as BUILD_BUG_ON() made it */
#ifndef static_assert
#define static_assert(expr, ...)	extern int __bkl_legacy_assert[(expr) ? 1 : -1]
#endif

#define file_inode(f)	((f)->f_path.dentry->d_inode)

/*
 * The layer as a kernel with CONFIG_BKL=y builds it (the check passes
 * -DCONFIG_BKL -DCONFIG_BKL_REGISTRY), counters off; <linux/kconfig.h>'s
 * IS_ENABLED() came later, and only ours are asked.
 */
#define IS_ENABLED(CONFIG_option)	__bkl_legacy_##CONFIG_option
#define __bkl_legacy_CONFIG_BKL		1
#define __bkl_legacy_CONFIG_BKL_USER_STATS	0

/* 2.6.34 has ACCESS_ONCE(), which became these */
#define READ_ONCE(x)		ACCESS_ONCE(x)
#define WRITE_ONCE(x, val)	(ACCESS_ONCE(x) = (val))

#endif
