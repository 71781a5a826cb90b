/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lock hooks of the generic locked ioctl wrappers, which
 * lib/locked_ioctl.c implements: a section of a replacement user begins
 * and ends through them, so that it is counted, has its lockdep identity
 * and fires the bkl:driver_lock* tracepoints.  The generators of
 * <linux/locked_ioctl.h> and driver_lock_user() call them; a driver never
 * does.  The records they take are those of <linux/bkl_user.h>.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */
#ifndef _LINUX_LOCKED_IOCTL_HOOKS_H
#define _LINUX_LOCKED_IOCTL_HOOKS_H

#include <linux/bkl_user.h>
#include <linux/compiler.h>
#include <linux/instruction_pointer.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/types.h>

/**
 * DOC: Lock hooks of the generic wrappers
 *
 * With counters (CONFIG_BKL_USER_STATS) or lockdep the hooks are the
 * functions of lib/locked_ioctl.c, and every section calls them.  Without,
 * there is nothing to do but take the lock and fire the tracepoints when
 * they are on: __locked_ioctl_hooked() is then one static branch, on while
 * a driver_lock tracepoint is, and a wrapper that tests it first compiles to
 * what a driver writes by hand, a mutex_lock() and a mutex_unlock() around
 * the call, plus that branch.  The hooks test it again, for the callers that
 * cannot test it once for a whole section (driver_lock_user()).
 */
/* On while a tracepoint of the BKL, or of the wrappers, is. */
DECLARE_STATIC_KEY_FALSE(bkl_traced);
DECLARE_STATIC_KEY_FALSE(locked_ioctl_traced);

#if defined(CONFIG_BKL_USER_STATS) || defined(CONFIG_DEBUG_LOCK_ALLOC)
#define __locked_ioctl_hooked()	true

u64 __locked_ioctl_lock(struct bkl_user *user, struct mutex *lock);
int __locked_ioctl_lock_interruptible(struct bkl_user *user,
				      struct mutex *lock, u64 *t0);
u64 __locked_ioctl_enter(struct bkl_user *user);
void __locked_ioctl_exit(struct bkl_user *user, u64 t0);
void __locked_ioctl_unlock(struct bkl_user *user, struct mutex *lock, u64 t0);
#else
#define __locked_ioctl_hooked()	static_branch_unlikely(&locked_ioctl_traced)

u64 __locked_ioctl_trace_enter(struct bkl_user *user, unsigned long ip);
void __locked_ioctl_trace_exit(struct bkl_user *user, u64 t0,
			       unsigned long ip);

static __always_inline u64 __locked_ioctl_enter(struct bkl_user *user)
{
	if (__locked_ioctl_hooked())
		return __locked_ioctl_trace_enter(user, _THIS_IP_);
	return 0;
}

static __always_inline void __locked_ioctl_exit(struct bkl_user *user, u64 t0)
{
	if (__locked_ioctl_hooked())
		__locked_ioctl_trace_exit(user, t0, _THIS_IP_);
}

static __always_inline u64 __locked_ioctl_lock(struct bkl_user *user,
					       struct mutex *lock)
{
	mutex_lock(lock);
	return __locked_ioctl_enter(user);
}

static __always_inline int
__locked_ioctl_lock_interruptible(struct bkl_user *user, struct mutex *lock,
				  u64 *t0)
{
	int ret = mutex_lock_interruptible(lock);

	if (ret)
		return ret;
	*t0 = __locked_ioctl_enter(user);
	return 0;
}

static __always_inline void __locked_ioctl_unlock(struct bkl_user *user,
						  struct mutex *lock, u64 t0)
{
	__locked_ioctl_exit(user, t0);
	mutex_unlock(lock);
}
#endif

/**
 * __locked_ioctl_mutex_lock() - begin a section of a mutex wrapper
 * @user: the wrapper's record
 * @lock: the mutex
 * @hooked: what __locked_ioctl_hooked() said at the start of the section
 * @intr: a signal may abort the wait for @lock
 * @t0: where the hooked path keeps the start of the section
 *
 * The two paths of a mutex wrapper's section are written here, and in
 * __locked_ioctl_mutex_unlock(), once: the plain one is mutex_lock() (or
 * mutex_lock_interruptible()), as a driver writes it; the hooked one goes
 * through the hooks above.  The wrapper asks __locked_ioctl_hooked() once
 * and passes the answer to both: a tracepoint turned on in the middle of
 * a section must not give a release without an acquire.
 *
 * Context: Process context; may sleep.
 * Return: 0 with @lock held and the section begun; with @intr, non-zero
 * (-EINTR) when a signal aborted the wait, and @lock is not held.
 */
static __always_inline int __locked_ioctl_mutex_lock(struct bkl_user *user,
						     struct mutex *lock,
						     bool hooked, bool intr,
						     u64 *t0)
{
	if (!hooked) {
		if (intr)
			return mutex_lock_interruptible(lock);
		mutex_lock(lock);
		return 0;
	}
	if (intr)
		return __locked_ioctl_lock_interruptible(user, lock, t0);
	*t0 = __locked_ioctl_lock(user, lock);
	return 0;
}

/**
 * __locked_ioctl_mutex_unlock() - end a section __locked_ioctl_mutex_lock() began
 * @user: the record given to __locked_ioctl_mutex_lock()
 * @lock: the mutex given to __locked_ioctl_mutex_lock()
 * @hooked: the same answer as was given to __locked_ioctl_mutex_lock()
 * @t0: the start it kept
 *
 * Context: Process context, with @lock held by the current task.
 */
static __always_inline void __locked_ioctl_mutex_unlock(struct bkl_user *user,
							struct mutex *lock,
							bool hooked, u64 t0)
{
	if (hooked)
		__locked_ioctl_unlock(user, lock, t0);
	else
		mutex_unlock(lock);
}

#endif /* _LINUX_LOCKED_IOCTL_HOOKS_H */
