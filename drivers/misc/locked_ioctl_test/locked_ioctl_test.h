/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The ioctl ABI of the locked-ioctl test drivers, shared by the drivers and
 * by the userspace tests in tools/testing/selftests/locked_ioctl/.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * Each test device answers the same commands; what differs is how its ioctl
 * is locked (see enum lit_kind).  The handlers let a test see which lock is
 * held, sleep under it, fail from different paths and copy to and from user
 * memory, natively and from a 32-bit process.
 */
#ifndef _LOCKED_IOCTL_TEST_H
#define _LOCKED_IOCTL_TEST_H

#include <linux/ioctl.h>
#include <linux/types.h>

/* How a device's ioctl is locked. */
enum lit_kind {
	LIT_KIND_SHIM = 1,	/* .locked_ioctl run by deprecated_ioctl() */
	LIT_KIND_LEGACY,	/* only .locked_ioctl: the VFS fallback */
	LIT_KIND_BKL,		/* DEFINE_BKL_IOCTL() */
	LIT_KIND_MUTEX,		/* DEFINE_LOCKED_IOCTL(), a mutex per device */
	LIT_KIND_MUTEX_INTR,	/* DEFINE_LOCKED_IOCTL_INTERRUPTIBLE() */
	LIT_KIND_NOLOCK,	/* no lock: the control the others must beat */
};

/**
 * struct lit_state - what the handler saw while it ran
 * @kind: the device's enum lit_kind
 * @bkl_held: the calling task held the BKL
 * @lock_held: the device's own mutex was held
 * @inside: handlers of the same lock domain running, this one included
 * @compat: the call came through the compat (32-bit) entry point
 */
struct lit_state {
	__u32 kind;
	__u32 bkl_held;
	__u32 lock_held;
	__u32 inside;
	__u32 compat;
};

/**
 * struct lit_stats - counters of a device's lock domain
 * @calls: handler calls since the last LIT_RESET_STATS
 * @overlaps: calls that found another handler of the domain inside
 * @max_inside: most handlers of the domain seen inside at once
 * @inside: handlers inside now (other than the LIT_GET_STATS call)
 */
struct lit_stats {
	__u64 calls;
	__u64 overlaps;
	__u64 max_inside;
	__u64 inside;
};

/**
 * struct lit_buf - a user buffer that LIT_REVERSE reverses in place
 * @data: user address of the buffer (a __u64: the same layout for 32-bit
 *	callers, only the pointer's width differs)
 * @len: its length, at most LIT_MAX_LEN
 * @flags: must be 0
 */
struct lit_buf {
	__u64 data;
	__u32 len;
	__u32 flags;
};

/**
 * struct lit_legacy_buf - as struct lit_buf, in the old style: a plain
 *	pointer, so the structure's size and layout differ for 32-bit callers
 *	and the compat path must translate it
 * @len: length of @data
 * @data: the buffer
 */
struct lit_legacy_buf {
	__u32 len;
	void *data;
};

/**
 * struct lit_fail - make the handler fail
 * @err: positive errno the handler returns: 1..511, or 515 (the kernel's
 *	ENOIOCTLCMD, which the VFS turns into ENOTTY)
 * @path: where it fails, an enum lit_fail_path
 */
struct lit_fail {
	__s32 err;
	__u32 path;
};

enum lit_fail_path {
	LIT_FAIL_AFTER_COPY,	/* right after copy_from_user() of the argument */
	LIT_FAIL_UNWIND,	/* from the goto-unwind of an allocation */
	LIT_FAIL_NESTED,	/* BKL devices: inside a recursive lock_kernel() */
	LIT_FAIL_NR_PATHS,
};

#define LIT_MAX_LEN		4096
#define LIT_MAX_SLEEP_MS	2000

#define LIT_IOC_MAGIC		0xB1

#define LIT_GET_STATE		_IOR(LIT_IOC_MAGIC, 1, struct lit_state)
#define LIT_SLEEP		_IOW(LIT_IOC_MAGIC, 2, __u32)
#define LIT_FAIL		_IOW(LIT_IOC_MAGIC, 3, struct lit_fail)
#define LIT_REVERSE		_IOWR(LIT_IOC_MAGIC, 4, struct lit_buf)
#define LIT_LEGACY_REVERSE	_IOWR(LIT_IOC_MAGIC, 5, struct lit_legacy_buf)
#define LIT_GET_STATS		_IOR(LIT_IOC_MAGIC, 6, struct lit_stats)
#define LIT_RESET_STATS		_IO(LIT_IOC_MAGIC, 7)

#endif /* _LOCKED_IOCTL_TEST_H */
