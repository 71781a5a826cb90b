/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the KUnit tests of the BKL layer (lib/bkl_kunit.c,
 * lib/bkl_users_kunit.c).
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */
#ifndef _LIB_BKL_KUNIT_H
#define _LIB_BKL_KUNIT_H

#include <kunit/test.h>
#include <linux/fs.h>

/**
 * bkl_kunit_file() - a file for calling ioctl entry points directly
 * @test: the test case, which owns the memory
 * @fops: the operations the file has, or NULL
 *
 * The file has an inode, as the old-style handlers expect, and nothing else.
 *
 * Return: the file; the test fails if it cannot be allocated.
 */
static inline struct file *bkl_kunit_file(struct kunit *test,
					  const struct file_operations *fops)
{
	struct file *file = kunit_kzalloc(test, sizeof(*file), GFP_KERNEL);
	struct inode *inode = kunit_kzalloc(test, sizeof(*inode), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_NOT_NULL(test, inode);
	file->f_op = fops;
	file->f_inode = inode;
	return file;
}

/*
 * Defined in lib/bkl_kunit.c by DEFINE_BKL_IOCTL_GLOBAL() and
 * DEFINE_BKL_IOCTL_EXPORT_GPL(), whose functions other files may call.
 */
long bkl_test_wrapped_global(struct file *file, unsigned int cmd,
			     unsigned long arg);
long bkl_test_wrapped_export(struct file *file, unsigned int cmd,
			     unsigned long arg);

#endif /* _LIB_BKL_KUNIT_H */
