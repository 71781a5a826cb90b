// SPDX-License-Identifier: GPL-2.0
/*
 * The Big Kernel Lock: a recursive, sleeping, lockdep-visible lock for the
 * drivers that still depend on it.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * See Documentation/locking/locked-ioctl.rst and include/linux/smp_lock.h.
 */
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/debug.h>
#include <linux/smp_lock.h>

/*
 * The mutex gives the BKL its lockdep class ("kernel_lock_mutex") and its
 * sleeping wait; sparse knows the lock as the context "kernel_lock", from the
 * annotations of the declarations in <linux/smp_lock.h>, which it trusts.
 * Recursion is counted beside it: only the owner ever writes
 * kernel_lock_owner to itself or kernel_lock_depth, so the owner reads both
 * without further locking and other tasks only ever compare the owner with
 * themselves.
 */
static DEFINE_MUTEX(kernel_lock_mutex);
static struct task_struct *kernel_lock_owner;
static unsigned int kernel_lock_depth;
static atomic_long_t kernel_lock_misuse = ATOMIC_LONG_INIT(0);

static bool __kernel_lock_recurse(void)
{
	if (READ_ONCE(kernel_lock_owner) != current)
		return false;
	if (WARN_ON_ONCE(kernel_lock_depth == UINT_MAX))
		return false;
	kernel_lock_depth++;
	return true;
}

static void __kernel_lock_set_owner(unsigned int depth)
{
	WRITE_ONCE(kernel_lock_owner, current);
	kernel_lock_depth = depth;
}

/**
 * _lock_kernel() - take the Big Kernel Lock; use lock_kernel()
 * @ip: the call site
 *
 * Context: Process context; may sleep.  Not from interrupt or atomic context.
 */
void __sched _lock_kernel(unsigned long ip)
{
	might_sleep();
	if (__kernel_lock_recurse())
		return;
	mutex_lock(&kernel_lock_mutex);
	__kernel_lock_set_owner(1);
}
EXPORT_SYMBOL_GPL(_lock_kernel);

/**
 * _lock_kernel_interruptible() - take the Big Kernel Lock unless signalled
 * @ip: the call site
 *
 * Use lock_kernel_interruptible(), which tells sparse about the lock.
 *
 * Context: Process context; may sleep.
 * Return: 0 with the lock held, -EINTR when a signal interrupted the wait.
 */
int __sched _lock_kernel_interruptible(unsigned long ip)
{
	int ret;

	might_sleep();
	if (__kernel_lock_recurse())
		return 0;
	ret = mutex_lock_interruptible(&kernel_lock_mutex);
	if (ret)
		return ret;
	__kernel_lock_set_owner(1);
	return 0;
}
EXPORT_SYMBOL_GPL(_lock_kernel_interruptible);

/**
 * _unlock_kernel() - drop one level of the Big Kernel Lock; use unlock_kernel()
 * @ip: the call site, named in the warning about an unbalanced unlock
 *
 * Context: Process context, with the BKL held by the current task.
 */
void __sched _unlock_kernel(unsigned long ip)
{
	if (WARN_ONCE(READ_ONCE(kernel_lock_owner) != current,
		      "BKL: unlock at %pS by %s/%d, which does not hold the lock\n",
		      (void *)ip, current->comm, task_pid_nr(current))) {
		atomic_long_inc(&kernel_lock_misuse);
		return;
	}
	if (--kernel_lock_depth)
		return;
	WRITE_ONCE(kernel_lock_owner, NULL);
	mutex_unlock(&kernel_lock_mutex);
}
EXPORT_SYMBOL_GPL(_unlock_kernel);

/**
 * kernel_locked() - does the current task hold the Big Kernel Lock?
 *
 * Context: Any context.
 * Return: true when the current task holds the BKL at any depth.
 */
bool kernel_locked(void)
{
	return READ_ONCE(kernel_lock_owner) == current;
}
EXPORT_SYMBOL_GPL(kernel_locked);

/**
 * _bkl_release_all() - drop every level of the BKL; use bkl_release_all()
 * @ip: the call site
 *
 * Context: Process context.
 * Return: the recursion depth that was dropped, or 0.
 */
unsigned int __sched _bkl_release_all(unsigned long ip)
{
	unsigned int depth;

	if (!kernel_locked())
		return 0;
	depth = kernel_lock_depth;
	kernel_lock_depth = 0;
	WRITE_ONCE(kernel_lock_owner, NULL);
	mutex_unlock(&kernel_lock_mutex);
	return depth;
}
EXPORT_SYMBOL_GPL(_bkl_release_all);

/**
 * _bkl_reacquire() - take back the BKL after bkl_release_all(); use
 *		      bkl_reacquire()
 * @depth: the value bkl_release_all() returned
 * @ip: the call site
 *
 * Context: Process context; may sleep.  The current task must not hold the BKL.
 */
void __sched _bkl_reacquire(unsigned int depth, unsigned long ip)
{
	might_sleep();
	if (!depth)
		return;
	if (WARN_ON_ONCE(kernel_locked()))
		return;
	mutex_lock(&kernel_lock_mutex);
	__kernel_lock_set_owner(depth);
}
EXPORT_SYMBOL_GPL(_bkl_reacquire);

/**
 * bkl_misuse_count() - how many unlock_kernel() calls found the lock not held
 *
 * Context: Any context.
 * Return: the number of unbalanced or foreign unlock_kernel() calls since boot.
 */
unsigned long bkl_misuse_count(void)
{
	return atomic_long_read(&kernel_lock_misuse);
}
EXPORT_SYMBOL_GPL(bkl_misuse_count);

MODULE_DESCRIPTION("The Big Kernel Lock, for drivers that still depend on it");
MODULE_LICENSE("GPL");
