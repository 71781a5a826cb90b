/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The ioctls of the legacy_ioctl sample driver, shared with its userspace
 * test.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */
#ifndef _LEGACY_IOCTL_H
#define _LEGACY_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * struct legacy_state - what LEGACY_GET_STATE reports
 * @bkl_held: 1 if the handler ran with the BKL held
 * @opens: how many times the device was opened
 * @value: the value last set with LEGACY_SET_VALUE
 * @minor: the minor number of the device, from the handler's inode
 */
struct legacy_state {
	__u32 bkl_held;
	__u32 opens;
	__s32 value;
	__u32 minor;
};

#define LEGACY_IOC_MAGIC	0xb2
#define LEGACY_GET_STATE	_IOR(LEGACY_IOC_MAGIC, 1, struct legacy_state)
#define LEGACY_SET_VALUE	_IOW(LEGACY_IOC_MAGIC, 2, __s32)

#endif /* _LEGACY_IOCTL_H */
