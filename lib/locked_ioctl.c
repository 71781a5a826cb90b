// SPDX-License-Identifier: GPL-2.0
/*
 * The lock hooks of the generic locked ioctl wrappers: they take a driver's
 * own lock for a BKL replacement user, count it, give the user its lockdep
 * identity and fire the tracepoints.  Also the home of those tracepoints.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * See Documentation/locking/locked-ioctl.rst and include/linux/locked_ioctl_hooks.h.
 */
#include <linux/atomic.h>
#include <linux/bkl_user.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/locked_ioctl_hooks.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/sched/clock.h>

#define CREATE_TRACE_POINTS
#include <trace/events/bkl.h>

EXPORT_TRACEPOINT_SYMBOL_GPL(lock_kernel);
EXPORT_TRACEPOINT_SYMBOL_GPL(lock_kernel_contended);
EXPORT_TRACEPOINT_SYMBOL_GPL(unlock_kernel);
EXPORT_TRACEPOINT_SYMBOL_GPL(driver_lock);
EXPORT_TRACEPOINT_SYMBOL_GPL(driver_lock_contended);
EXPORT_TRACEPOINT_SYMBOL_GPL(driver_unlock);

/*
 * The static keys of the inline callers of the tracepoints, on while any
 * tracepoint of their group is: the BKL's fast path and the generic
 * wrappers test one branch instead of one per tracepoint.  The tracepoint
 * core calls these with tracepoints_mutex held, when a tracepoint gets its
 * first probe and after it lost its last.
 */
DEFINE_STATIC_KEY_FALSE(bkl_traced);
EXPORT_SYMBOL_GPL(bkl_traced);
DEFINE_STATIC_KEY_FALSE(locked_ioctl_traced);
EXPORT_SYMBOL_GPL(locked_ioctl_traced);

int bkl_trace_reg(void)
{
	static_branch_inc(&bkl_traced);
	return 0;
}

void bkl_trace_unreg(void)
{
	static_branch_dec(&bkl_traced);
}

int locked_ioctl_trace_reg(void)
{
	static_branch_inc(&locked_ioctl_traced);
	return 0;
}

void locked_ioctl_trace_unreg(void)
{
	static_branch_dec(&locked_ioctl_traced);
}

/* With counters or lockdep the hooks are out of line; see <linux/locked_ioctl_hooks.h>. */
#if defined(CONFIG_BKL_USER_STATS) || defined(CONFIG_DEBUG_LOCK_ALLOC)

/* The clock is read only when something will use what it says. */
static u64 locked_ioctl_clock(void)
{
	if (IS_ENABLED(CONFIG_BKL_USER_STATS) || trace_driver_unlock_enabled())
		return local_clock();
	return 0;
}

static u64 locked_ioctl_enter(struct bkl_user *user, unsigned long ip)
{
	bkl_user_count_hit(user);
	bkl_user_map_acquire(user, ip);
	trace_driver_lock(user, 1, 0, ip);
	return locked_ioctl_clock();
}

static void locked_ioctl_exit(struct bkl_user *user, u64 t0, unsigned long ip)
{
	u64 held = t0 ? locked_ioctl_clock() - t0 : 0;

	if (IS_ENABLED(CONFIG_BKL_USER_STATS))
		__bkl_user_account_hold(user, held);
	bkl_user_map_release(user, ip);
	trace_driver_unlock(user, 0, held, ip);
}

/**
 * __locked_ioctl_enter() - begin a section of a replacement user
 * @user: the user, defined by the wrapper
 *
 * Called by the wrapper with the driver's lock held.
 *
 * Context: Process context.
 * Return: the start time, for __locked_ioctl_exit().
 */
u64 __locked_ioctl_enter(struct bkl_user *user)
{
	return locked_ioctl_enter(user, _RET_IP_);
}
EXPORT_SYMBOL_GPL(__locked_ioctl_enter);

/**
 * __locked_ioctl_exit() - end a section that __locked_ioctl_enter() began
 * @user: the user
 * @t0: what __locked_ioctl_enter() returned
 *
 * Called by the wrapper with the driver's lock still held.
 *
 * Context: Process context.
 */
void __locked_ioctl_exit(struct bkl_user *user, u64 t0)
{
	locked_ioctl_exit(user, t0, _RET_IP_);
}
EXPORT_SYMBOL_GPL(__locked_ioctl_exit);

static void __locked_ioctl_contended(struct bkl_user *user, struct mutex *lock,
				     unsigned long ip)
{
	if (!IS_ENABLED(CONFIG_BKL_USER_STATS) &&
	    !trace_driver_lock_contended_enabled())
		return;
	/* Sampled: a trylock would hide the lock's dependencies from lockdep. */
	if (!mutex_is_locked(lock))
		return;
	bkl_user_count_contended(user);
	trace_driver_lock_contended(user, 0, 0, ip);
}

/**
 * __locked_ioctl_lock() - take a replacement user's mutex and begin a section
 * @user: the user, defined by the wrapper
 * @lock: the driver's mutex
 *
 * Context: Process context; sleeps.
 * Return: the start time, for __locked_ioctl_unlock().
 */
u64 __locked_ioctl_lock(struct bkl_user *user, struct mutex *lock)
{
	__locked_ioctl_contended(user, lock, _RET_IP_);
	mutex_lock(lock);
	return locked_ioctl_enter(user, _RET_IP_);
}
EXPORT_SYMBOL_GPL(__locked_ioctl_lock);

/**
 * __locked_ioctl_lock_interruptible() - as __locked_ioctl_lock(), unless a
 *					 signal interrupts the wait
 * @user: the user, defined by the wrapper
 * @lock: the driver's mutex
 * @t0: set to the start time, for __locked_ioctl_unlock()
 *
 * Context: Process context; sleeps.
 * Return: 0 with @lock held, -EINTR without it.
 */
int __locked_ioctl_lock_interruptible(struct bkl_user *user,
				      struct mutex *lock, u64 *t0)
{
	int ret;

	__locked_ioctl_contended(user, lock, _RET_IP_);
	ret = mutex_lock_interruptible(lock);
	if (ret)
		return ret;
	*t0 = locked_ioctl_enter(user, _RET_IP_);
	return 0;
}
EXPORT_SYMBOL_GPL(__locked_ioctl_lock_interruptible);

/**
 * __locked_ioctl_unlock() - end a section and drop the replacement user's mutex
 * @user: the user
 * @lock: the driver's mutex
 * @t0: the start time the lock function gave
 *
 * Context: Process context, with @lock held.
 */
void __locked_ioctl_unlock(struct bkl_user *user, struct mutex *lock, u64 t0)
{
	locked_ioctl_exit(user, t0, _RET_IP_);
	mutex_unlock(lock);
}
EXPORT_SYMBOL_GPL(__locked_ioctl_unlock);

#else /* !(CONFIG_BKL_USER_STATS || CONFIG_DEBUG_LOCK_ALLOC) */

/**
 * __locked_ioctl_trace_enter() - fire the driver_lock tracepoint
 * @user: the user whose section begins
 * @ip: the wrapper
 *
 * Called by the inline lock hooks of <linux/locked_ioctl_hooks.h>, with
 * the driver's lock held, only while the tracepoint is on.
 *
 * Context: Process context.
 * Return: the start time, for __locked_ioctl_trace_exit().
 */
u64 __locked_ioctl_trace_enter(struct bkl_user *user, unsigned long ip)
{
	trace_driver_lock(user, 1, 0, ip);
	return local_clock();
}
EXPORT_SYMBOL_GPL(__locked_ioctl_trace_enter);

/**
 * __locked_ioctl_trace_exit() - fire the driver_unlock tracepoint
 * @user: the user whose section ends
 * @t0: what __locked_ioctl_trace_enter() returned, 0 if it did not run
 * @ip: the wrapper
 *
 * Context: Process context, with the driver's lock still held.
 */
void __locked_ioctl_trace_exit(struct bkl_user *user, u64 t0, unsigned long ip)
{
	trace_driver_unlock(user, 0, t0 ? local_clock() - t0 : 0, ip);
}
EXPORT_SYMBOL_GPL(__locked_ioctl_trace_exit);

#endif /* CONFIG_BKL_USER_STATS || CONFIG_DEBUG_LOCK_ALLOC */
