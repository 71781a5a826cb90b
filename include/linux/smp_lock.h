/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Big Kernel Lock (BKL), rebuilt as a sleeping lock for the drivers that
 * still depend on it.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * See Documentation/locking/locked-ioctl.rst for how to use it, how to port a
 * driver away from it and how to remove it.
 */
#ifndef _LINUX_SMP_LOCK_H
#define _LINUX_SMP_LOCK_H

/*
 * With CONFIG_BKL=n there is deliberately no BKL API at all: a file that still
 * includes this header fails to build here, with the fix in the message, and
 * not with an undefined symbol at link time.  Out of tree, against a kernel
 * without the layer, the BKL is the module bkl.ko and its users are built
 * with CONFIG_BKL_MODULE (see the repository's Kbuild and locked-ioctl.mk).
 */
#if !IS_ENABLED(CONFIG_BKL)
#error "this code depends on the Big Kernel Lock: convert it (see \
Documentation/locking/locked-ioctl.rst) or enable CONFIG_BKL"
#endif

#include <linux/bug.h>
#include <linux/compiler_types.h>
#include <linux/debug_locks.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>	/* and <linux/cleanup.h> where the tree has it */
#include <linux/sched.h>
#include <linux/types.h>
#include <linux/wait.h>

/**
 * DOC: The BKL and how it differs from the historical one
 *
 * lock_kernel() takes the Big Kernel Lock, unlock_kernel() drops it and
 * kernel_locked() tells whether the current task holds it.  As before, the
 * lock is recursive per task: a task that holds it may take it again, and it
 * is released when the outermost unlock_kernel() runs.
 *
 * Unlike the historical BKL (a spinlock, later a semaphore, released by
 * schedule() whenever its holder slept and taken back on wake-up) this BKL is
 * a plain sleeping lock that stays held across a sleep:
 *
 * - It is a mutex underneath, with one lockdep class, ``kernel_lock_mutex``.  Lockdep
 *   sees its dependencies like those of any other lock, and sparse checks the
 *   balance of lock_kernel()/unlock_kernel() through the ``kernel_lock``
 *   context (``make C=1``).
 * - Every entry point may sleep (might_sleep()).  It must not be taken from
 *   atomic context, which the historical BKL, being a spinlock at times, did
 *   allow.
 * - Because it is not dropped on sleep, a BKL holder that waits for something
 *   only another BKL user can provide deadlocks.  Old drivers relied on the
 *   implicit drop without saying so.  Such a driver must say so now: it drops
 *   the BKL around the sleep with bkl_wait_event_interruptible(),
 *   bkl_wait_event() or an explicit bkl_release_all()/bkl_reacquire() pair,
 *   which release every level of recursion and take all of it back.
 * - An unlock_kernel() by a task that does not hold the lock warns once and
 *   changes nothing; the count is in bkl_misuse_count().
 * - There is no scheduler hook, so a kernel without BKL users pays nothing.
 */

#include <linux/bkl_user.h>
#include <linux/locked_ioctl_hooks.h>

/* How many distinct annotated users' sections the BKL holder tracks. */
#define BKL_MAX_SECTIONS	4

/**
 * struct bkl_section - a BKL user section the holder is in
 * @user: the user
 * @nest: how often the holder entered it (a user may nest in itself)
 * @entered_ns: when the section took the lock, for its hold time
 */
struct bkl_section {
	struct bkl_user *user;
	unsigned int nest;
	u64 entered_ns;
};

/**
 * struct bkl_state - the state of the Big Kernel Lock beside its mutex
 * @owner: the task that holds the BKL, or NULL
 * @inline_user: set when @owner took the BKL through the inline fast path
 *	and is in that one section only: depth 1, nest 1, no hold time.  The
 *	fields below are then those of a free lock; the functions of
 *	lib/kernel_lock.c fill them in before they change anything.
 * @depth: how often @owner took it
 * @nr_sections: the number of entries in @sections
 * @untracked: sections beyond %BKL_MAX_SECTIONS, counted only
 * @since: when @owner took it, 0 when not read (see CONFIG_BKL_USER_STATS)
 * @sections: the annotated user sections @owner is in, outermost first
 *
 * It belongs to lib/kernel_lock.c and to the inline fast path below; use the
 * functions, never the fields.
 */
struct bkl_state {
	struct task_struct *owner;
	struct bkl_user *inline_user;
	unsigned int depth;
	unsigned int nr_sections;
	unsigned int untracked;
	u64 since;
	struct bkl_section sections[BKL_MAX_SECTIONS];
};

/**
 * struct bkl_saved - what bkl_release_all() dropped, for bkl_reacquire()
 * @depth: the recursion depth of the BKL, 0 when it was not held
 * @nr_sections: the number of entries in @sections
 * @untracked: sections beyond %BKL_MAX_SECTIONS, counted only
 * @sections: the user sections the task was in, outermost first
 */
struct bkl_saved {
	unsigned int depth;
	unsigned int nr_sections;
	unsigned int untracked;
	struct bkl_section sections[BKL_MAX_SECTIONS];
};

void _lock_kernel(struct bkl_user *user, unsigned long ip) __acquires(kernel_lock);
void _unlock_kernel(struct bkl_user *user, unsigned long ip) __releases(kernel_lock);
int __must_check _lock_kernel_interruptible(struct bkl_user *user, unsigned long ip);
bool kernel_locked(void);
struct bkl_saved _bkl_release_all(unsigned long ip) __releases(kernel_lock);
void _bkl_reacquire(struct bkl_saved saved, unsigned long ip) __acquires(kernel_lock);
unsigned long bkl_misuse_count(void);
unsigned long bkl_unannotated_count(void);
void bkl_reset_unannotated_count(void);

/**
 * struct bkl_holder - who holds the Big Kernel Lock, for bkl_get_holder()
 * @pid: the holder's PID
 * @comm: the holder's command name
 * @depth: the recursion depth
 * @user: name of the innermost annotated user section, or NULL
 * @held_ns: how long the holder has held the lock (0 without
 *	CONFIG_BKL_USER_STATS)
 */
struct bkl_holder {
	pid_t pid;
	char comm[16];
	unsigned int depth;
	const char *user;
	u64 held_ns;
};

bool bkl_get_holder(struct bkl_holder *holder);

extern struct mutex kernel_lock_mutex;
extern struct bkl_state kernel_lock_state;

/*
 * The inline fast path of an annotated user's section: the outermost
 * lock_kernel_user() of a task and its matching unlock, with no counters
 * (CONFIG_BKL_USER_STATS=n) and no BKL tracepoint on, is a mutex_lock() or
 * mutex_unlock() and two stores: the owner and the user, in
 * &bkl_state.inline_user, which stands for depth 1 in that one section.
 * Everything else (recursion, the counters, the tracepoints, unannotated
 * users, bkl_release_all()) is the functions of lib/kernel_lock.c, which
 * turn an inline acquisition into their own state first: the two paths mix
 * freely.  @ip is the call site to name, 0 for the caller's own: the fast
 * path computes no address it does not use.
 *
 * The three BKL tracepoints share one static key, &bkl_traced (declared in
 * <linux/locked_ioctl_hooks.h>), on while any of them is, so that the fast path tests
 * one branch, and only on lock: a section that began inline fired no event,
 * and ends without one.
 */

static __always_inline bool __bkl_fast_path(struct bkl_user *user)
{
	return !IS_ENABLED(CONFIG_BKL_USER_STATS) && user &&
	       !static_branch_unlikely(&bkl_traced);
}

static __always_inline void __lock_kernel_user(struct bkl_user *user,
					       unsigned long ip)
	__acquires(kernel_lock)
{
	struct bkl_state *s = &kernel_lock_state;

	if (!__bkl_fast_path(user) || READ_ONCE(s->owner) == current) {
		_lock_kernel(user, ip ?: _THIS_IP_);
		return;
	}
	mutex_lock(&kernel_lock_mutex);
	WRITE_ONCE(s->owner, current);
	WRITE_ONCE(s->inline_user, user);
	bkl_user_map_acquire(user, ip ?: _THIS_IP_);
	__acquire(kernel_lock);
}

static __always_inline void __unlock_kernel_user(struct bkl_user *user,
						 unsigned long ip)
	__releases(kernel_lock)
{
	struct bkl_state *s = &kernel_lock_state;

	if (IS_ENABLED(CONFIG_BKL_USER_STATS) || !user ||
	    READ_ONCE(s->owner) != current || s->inline_user != user) {
		_unlock_kernel(user, ip ?: _THIS_IP_);
		return;
	}
	bkl_user_map_release(user, ip ?: _THIS_IP_);
	WRITE_ONCE(s->inline_user, NULL);
	WRITE_ONCE(s->owner, NULL);
	mutex_unlock(&kernel_lock_mutex);
	__release(kernel_lock);
}

/*
 * The entry points are macros so that the lock functions learn their call
 * site (_THIS_IP_) for warnings, as the historical _lock_kernel() learnt
 * __FILE__ and __LINE__, and who the user is, for lockdep, the tracepoints
 * and the registry.  lock_kernel() is the unannotated form.
 */

/**
 * lock_kernel() - take the Big Kernel Lock
 *
 * Takes the BKL, sleeping until it is free.  A task that already holds it
 * takes it again: the lock is recursive, and each lock_kernel() needs its
 * unlock_kernel().
 *
 * Context: Process context; may sleep.  Not from interrupt or atomic context.
 */
#define lock_kernel()		_lock_kernel(NULL, _THIS_IP_)

/**
 * unlock_kernel() - drop one level of the Big Kernel Lock
 *
 * The lock is released when the outermost level is dropped.  A task that does
 * not hold the lock gets a one-time warning naming the call site, and the
 * lock state is left as it was; bkl_misuse_count() counts such calls.
 *
 * Context: Process context, with the BKL held by the current task.
 */
#define unlock_kernel()		_unlock_kernel(NULL, _THIS_IP_)

/**
 * lock_kernel_user() - take the Big Kernel Lock as a declared user
 * @user: the user, defined with DEFINE_BKL_USER()
 *
 * As lock_kernel(), but the section runs under @user's name: its lockdep
 * map is held, the tracepoints and /sys/kernel/debug/bkl/ name it, and its
 * counters count it.  Pair it with unlock_kernel_user() on the same @user.
 *
 * Context: Process context; may sleep.
 */
#define lock_kernel_user(user)	__lock_kernel_user(user, 0)

/**
 * unlock_kernel_user() - end a section that lock_kernel_user() began
 * @user: the user given to lock_kernel_user()
 *
 * Context: Process context, with the BKL held by the current task.
 */
#define unlock_kernel_user(user) __unlock_kernel_user(user, 0)

/**
 * bkl_release_all() - drop every level of the Big Kernel Lock before a sleep
 *
 * For a BKL holder that is about to sleep waiting for another BKL user, which
 * the historical BKL allowed by dropping the lock in schedule().  Hand the
 * return value to bkl_reacquire() after the sleep.  Prefer
 * bkl_wait_event_interruptible(), which pairs the two.
 *
 * The annotated user sections the task is in are left too, for lockdep, and
 * entered again by bkl_reacquire().
 *
 * Context: Process context.
 * Return: a &struct bkl_saved with the recursion depth that was dropped, 0
 * when the current task did not hold the BKL (nothing is dropped then).
 */
#define bkl_release_all()	_bkl_release_all(_THIS_IP_)

/**
 * bkl_reacquire() - take back the Big Kernel Lock after bkl_release_all()
 * @saved: the value bkl_release_all() returned
 *
 * Takes the BKL, restores the recursion depth and enters the user sections
 * again; does nothing when nothing was dropped.
 *
 * Context: Process context; may sleep.  The current task must not hold the BKL.
 */
#define bkl_reacquire(saved)	_bkl_reacquire(saved, _THIS_IP_)

/**
 * lock_kernel_interruptible() - take the Big Kernel Lock, unless a signal comes
 *
 * Like lock_kernel(), but the wait for the lock can be interrupted by a
 * signal.  This is a macro so that sparse learns that the lock is held only
 * when it returns 0, the way __cond_lock() teaches it about spin_trylock().
 * Sparse follows that when the result goes through a variable that is also
 * what the failure path returns::
 *
 *	ret = lock_kernel_interruptible();
 *	if (ret)
 *		return ret;
 *
 * Context: Process context; may sleep.
 * Return: 0 with the lock held, or -EINTR without it.
 */
#define lock_kernel_interruptible()					\
	(_lock_kernel_interruptible(NULL, _THIS_IP_) ? -EINTR :		\
	 ({ __acquire(kernel_lock); 0; }))

/**
 * cycle_kernel_lock() - take the Big Kernel Lock and drop it again
 *
 * Waits until no other task holds the BKL.  Old open() routines did this to
 * make sure that an initialisation which ran under the BKL had finished.
 *
 * Context: Process context; may sleep.  Must not be called with the BKL held.
 */
static inline void cycle_kernel_lock(void)
{
	lock_kernel();
	unlock_kernel();
}

/**
 * bkl_wait_event_interruptible() - sleep until a condition holds, BKL dropped
 * @wq: the wait queue to wait on
 * @condition: a C expression for the event to wait for
 *
 * The historical BKL was released whenever its holder slept.  This BKL is
 * not, so a driver that sleeps with it held, waiting for something another BKL
 * user provides, uses this instead of wait_event_interruptible(): every level
 * of the BKL is released for the sleep and taken back afterwards.  The caller
 * must hold the BKL.  Any state read under the BKL before the sleep may have
 * changed when it returns.
 *
 * Context: Process context with the BKL held; sleeps.
 * Return: 0 when @condition became true, -ERESTARTSYS when a signal came.
 */
#define bkl_wait_event_interruptible(wq, condition)			\
({									\
	struct bkl_saved __bkl_saved = bkl_release_all();		\
	int __bkl_ret = wait_event_interruptible(wq, condition);	\
									\
	bkl_reacquire(__bkl_saved);					\
	__bkl_ret;							\
})

/**
 * bkl_wait_event() - sleep uninterruptibly until a condition holds, BKL dropped
 * @wq: the wait queue to wait on
 * @condition: a C expression for the event to wait for
 *
 * As bkl_wait_event_interruptible(), but the sleep cannot be interrupted.
 *
 * Context: Process context with the BKL held; sleeps.
 */
#define bkl_wait_event(wq, condition)					\
do {									\
	struct bkl_saved __bkl_saved = bkl_release_all();		\
									\
	wait_event(wq, condition);					\
	bkl_reacquire(__bkl_saved);					\
} while (0)

/**
 * lockdep_assert_kernel_locked() - warn unless the current task holds the BKL
 *
 * For functions that rely on their caller holding the Big Kernel Lock.  The
 * BKL's mutex is held whenever the BKL is, at any depth and on either path,
 * so this is lockdep_assert_held() on it: lockdep's own check, compiled out
 * without CONFIG_LOCKDEP.
 */
#define lockdep_assert_kernel_locked()	lockdep_assert_held(&kernel_lock_mutex)

#ifdef DEFINE_LOCK_GUARD_0
/*
 * guard(bkl)() and scoped_guard(bkl) hold the BKL to the end of the scope.
 * Sparse does not follow cleanup handlers, so a function that uses them may
 * get a context imbalance report from "make C=1"; the explicit calls do not.
 */
DEFINE_LOCK_GUARD_0(bkl, lock_kernel(), unlock_kernel())
#endif

#endif /* _LINUX_SMP_LOCK_H */
