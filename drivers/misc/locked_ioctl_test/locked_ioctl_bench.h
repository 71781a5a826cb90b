/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The ioctl ABI of the locked-ioctl benchmark driver, shared by the driver
 * (bench.c) and by the userspace benchmark in
 * tools/testing/selftests/locked_ioctl/locked_ioctl_bench.c.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * The driver registers LITB_NR_DEVS devices per variant, /dev/litb_<variant>N;
 * every one answers LITB_WORK with the same handler, and the variants differ
 * only in how that handler is locked.
 */
#ifndef _LOCKED_IOCTL_BENCH_H
#define _LOCKED_IOCTL_BENCH_H

#include <linux/ioctl.h>

#define LITB_NR_DEVS		4
#define LITB_MAX_WORK		1000000

#define LITB_IOC_MAGIC		0xB2

/* Run the handler: argument = iterations of work on the device's state. */
#define LITB_WORK		_IO(LITB_IOC_MAGIC, 1)

#endif /* _LOCKED_IOCTL_BENCH_H */
