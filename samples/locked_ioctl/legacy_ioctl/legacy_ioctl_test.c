// SPDX-License-Identifier: GPL-2.0
/*
 * Checks the sample legacy driver after scripts/bkl-migrate ported it: each
 * ioctl, native and (built with -m32) compat, still runs under the BKL, sees
 * its inode, reports bad input as the old driver did, and open() still
 * counts under the BKL.  Prints one "ok"/"not ok" line per check, then
 * "N passed, N failed"; exits 1 if a check failed.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "legacy_ioctl.h"

#define DEV "/dev/legacy_ioctl"

static int passed, failed;

static void check(int ok, const char *what)
{
	printf("%s - %s%s\n", ok ? "ok" : "not ok", what,
	       sizeof(long) == 4 ? " (32-bit)" : "");
	if (ok)
		passed++;
	else
		failed++;
}

int main(void)
{
	struct legacy_state st1, st2;
	struct stat sb;
	int fd, fd2, v = 42;

	fd = open(DEV, O_RDWR);
	if (fd < 0 || fstat(fd, &sb)) {
		printf("not ok - open %s: %s\n", DEV, strerror(errno));
		return 1;
	}
	check(ioctl(fd, LEGACY_GET_STATE, &st1) == 0 && st1.bkl_held == 1,
	      "LEGACY_GET_STATE runs under the BKL");
	check(st1.minor == minor(sb.st_rdev), "the handler gets the file's inode");
	check(ioctl(fd, LEGACY_SET_VALUE, &v) == 0 &&
	      ioctl(fd, LEGACY_GET_STATE, &st1) == 0 && st1.value == 42,
	      "LEGACY_SET_VALUE, then LEGACY_GET_STATE, gives the value back");
	fd2 = open(DEV, O_RDWR);
	check(fd2 >= 0 && ioctl(fd2, LEGACY_GET_STATE, &st2) == 0 &&
	      st2.opens == st1.opens + 1, "open() counts under the BKL");
	check(ioctl(fd, _IO(LEGACY_IOC_MAGIC, 99)) == -1 && errno == ENOTTY,
	      "an unknown command fails with ENOTTY");
	check(ioctl(fd, LEGACY_GET_STATE, (void *)8) == -1 && errno == EFAULT,
	      "a bad pointer fails with EFAULT");
	check(ioctl(fd, LEGACY_SET_VALUE, (void *)8) == -1 && errno == EFAULT &&
	      ioctl(fd, LEGACY_GET_STATE, &st1) == 0 && st1.value == 42,
	      "a bad pointer changes nothing");
	if (fd2 >= 0)
		close(fd2);
	close(fd);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
