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
#include <linux/bkl_user.h>
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sched/debug.h>
#include <linux/smp_lock.h>
#include <linux/string.h>
#include <trace/events/bkl.h>

/*
 * The mutex gives the BKL its lockdep class ("kernel_lock_mutex") and its
 * sleeping wait; sparse knows the lock as the context "kernel_lock", from the
 * annotations of the declarations in <linux/smp_lock.h>, which it trusts.
 * Recursion is counted beside it, in kernel_lock_state: only the owner ever
 * writes the owner field to itself or the depth, so the owner reads both
 * without further locking and other tasks only ever compare the owner with
 * themselves.
 *
 * The rest of the state belongs to the holder too: the annotated user
 * sections it is in (outermost first; a user's record is shared by all tasks,
 * so its sections are kept here, and in struct bkl_saved while the holder
 * sleeps) and since when it holds the lock.  Both are exported for the inline
 * fast path of <linux/smp_lock.h>, which takes the lock uncontended and
 * untraced, and for nothing else.  That path writes only the owner and its
 * one user, &bkl_state.inline_user; the functions here write out what it
 * stands for (__kernel_lock_take_inline()) before they change the state.
 */
struct mutex kernel_lock_mutex = __MUTEX_INITIALIZER(kernel_lock_mutex);
EXPORT_SYMBOL_GPL(kernel_lock_mutex);
struct bkl_state kernel_lock_state;
EXPORT_SYMBOL_GPL(kernel_lock_state);
static atomic_long_t kernel_lock_misuse = ATOMIC_LONG_INIT(0);
static atomic_long_t kernel_lock_unannotated = ATOMIC_LONG_INIT(0);

/*
 * The holder took the lock through the inline fast path of <linux/smp_lock.h>,
 * which writes the owner and the user only: write out what that stands for,
 * depth 1 in the user's one section, before anything changes it.
 */
static void __kernel_lock_take_inline(void)
{
	struct bkl_user *user = kernel_lock_state.inline_user;

	if (likely(!user))
		return;
	kernel_lock_state.depth = 1;
	kernel_lock_state.sections[0].user = user;
	kernel_lock_state.sections[0].nest = 1;
	kernel_lock_state.sections[0].entered_ns = 0;
	WRITE_ONCE(kernel_lock_state.nr_sections, 1);
	WRITE_ONCE(kernel_lock_state.inline_user, NULL);
}

static __always_inline bool __kernel_lock_recurse(void)
{
	if (READ_ONCE(kernel_lock_state.owner) != current)
		return false;
	__kernel_lock_take_inline();
	if (WARN_ON_ONCE(kernel_lock_state.depth == UINT_MAX))
		return false;
	kernel_lock_state.depth++;
	return true;
}

/*
 * The clock is read only when something will use what it says: the counters
 * (CONFIG_BKL_USER_STATS) or a tracepoint that reports hold times.  0 means
 * "not read".
 */
static u64 kernel_lock_clock(void)
{
	if (IS_ENABLED(CONFIG_BKL_USER_STATS) || trace_unlock_kernel_enabled())
		return local_clock();
	return 0;
}

static void __kernel_lock_set_owner(unsigned int depth)
{
	WRITE_ONCE(kernel_lock_state.owner, current);
	kernel_lock_state.depth = depth;
	WRITE_ONCE(kernel_lock_state.since, kernel_lock_clock());
}

static void __kernel_lock_clear_owner(void)
{
	kernel_lock_state.depth = 0;
	WRITE_ONCE(kernel_lock_state.nr_sections, 0);
	kernel_lock_state.untracked = 0;
	/* 0 while free: the inline fast path does not write it. */
	WRITE_ONCE(kernel_lock_state.since, 0);
	WRITE_ONCE(kernel_lock_state.owner, NULL);
}

/* The user of the innermost of @n sections, or NULL. */
static struct bkl_user *bkl_innermost(const struct bkl_section *sections,
				      unsigned int n)
{
	return n ? sections[n - 1].user : NULL;
}

/* The holder's section of @user, or NULL. */
static struct bkl_section *bkl_find_section(struct bkl_user *user)
{
	unsigned int i = kernel_lock_state.nr_sections;

	while (i--)
		if (kernel_lock_state.sections[i].user == user)
			return &kernel_lock_state.sections[i];
	return NULL;
}

/*
 * Contention is sampled before the wait, not taken from a trylock, whose
 * acquisition lockdep would not add to the lock's dependencies.
 */
static __always_inline void __kernel_lock_contended(struct bkl_user *user, unsigned long ip)
{
	if (!IS_ENABLED(CONFIG_BKL_USER_STATS) &&
	    !trace_lock_kernel_contended_enabled())
		return;
	if (!mutex_is_locked(&kernel_lock_mutex))
		return;
	if (user)
		bkl_user_count_contended(user);
	trace_lock_kernel_contended(user, 0, 0, ip);
}

#ifdef CONFIG_BKL_WARN_UNANNOTATED
/* The call sites already warned about; the BKL protects them. */
static unsigned long bkl_warned_sites[64];
static unsigned int bkl_nr_warned_sites;

static void bkl_warn_unannotated(unsigned long ip)
{
	unsigned int i;

	for (i = 0; i < bkl_nr_warned_sites; i++)
		if (bkl_warned_sites[i] == ip)
			return;
	if (bkl_nr_warned_sites == ARRAY_SIZE(bkl_warned_sites))
		return;
	bkl_warned_sites[bkl_nr_warned_sites++] = ip;
	pr_warn("BKL: unannotated user %pS (%s/%d): declare it, see Documentation/locking/locked-ioctl.rst\n",
		(void *)ip, current->comm, task_pid_nr(current));
}
#else
static inline void bkl_warn_unannotated(unsigned long ip)
{
}
#endif

/*
 * Enter @user's section, with the BKL held; NULL is an unannotated user.
 * Inline in the lock functions: the common case, the outermost section,
 * costs a few stores.
 */
static __always_inline void bkl_user_enter(struct bkl_user *user, unsigned long ip)
{
	struct bkl_section *sec = NULL;

	if (!user) {
		atomic_long_inc(&kernel_lock_unannotated);
		bkl_warn_unannotated(ip);
		trace_lock_kernel(NULL, kernel_lock_state.depth, 0, ip);
		return;
	}
	bkl_user_count_hit(user);
	if (kernel_lock_state.nr_sections)
		sec = bkl_find_section(user);
	if (sec) {
		sec->nest++;
	} else if (kernel_lock_state.nr_sections < BKL_MAX_SECTIONS) {
		sec = &kernel_lock_state.sections[kernel_lock_state.nr_sections];
		sec->user = user;
		sec->nest = 1;
		sec->entered_ns = kernel_lock_clock();
		WRITE_ONCE(kernel_lock_state.nr_sections, kernel_lock_state.nr_sections + 1);
		bkl_user_map_acquire(user, ip);
	} else {
		/* Counted, not tracked: no lockdep map, no hold time. */
		kernel_lock_state.untracked++;
	}
	trace_lock_kernel(user, kernel_lock_state.depth, 0, ip);
}

/* Leave @user's section, with the BKL still held; inline as the above. */
static __always_inline void bkl_user_exit(struct bkl_user *user, unsigned long ip)
{
	struct bkl_section *sec, *end;
	u64 held = 0;

	if (!user) {
		trace_unlock_kernel(NULL, kernel_lock_state.depth, 0, ip);
		return;
	}
	sec = bkl_find_section(user);
	if (!sec) {
		if (!WARN_ONCE(!kernel_lock_state.untracked,
			       "BKL: %s left at %pS but not entered\n",
			       user->name, (void *)ip))
			kernel_lock_state.untracked--;
		return;
	}
	if (!--sec->nest) {
		if (sec->entered_ns)
			held = kernel_lock_clock() - sec->entered_ns;
		if (IS_ENABLED(CONFIG_BKL_USER_STATS))
			__bkl_user_account_hold(user, held);
		bkl_user_map_release(user, ip);
		/* Sections nest; one that ends out of order is taken out. */
		end = kernel_lock_state.sections + kernel_lock_state.nr_sections;
		if (sec + 1 < end)
			memmove(sec, sec + 1, (end - (sec + 1)) * sizeof(*sec));
		WRITE_ONCE(kernel_lock_state.nr_sections, kernel_lock_state.nr_sections - 1);
	}
	trace_unlock_kernel(user, kernel_lock_state.depth, held, ip);
}

/**
 * _lock_kernel() - take the Big Kernel Lock; use lock_kernel() or
 *		    lock_kernel_user()
 * @user: the user whose section begins, or NULL for an unannotated one
 * @ip: the call site
 *
 * Context: Process context; may sleep.  Not from interrupt or atomic context.
 */
void __sched _lock_kernel(struct bkl_user *user, unsigned long ip)
{
	might_sleep();
	if (!__kernel_lock_recurse()) {
		__kernel_lock_contended(user, ip);
		mutex_lock(&kernel_lock_mutex);
		__kernel_lock_set_owner(1);
	}
	bkl_user_enter(user, ip);
}
EXPORT_SYMBOL_GPL(_lock_kernel);

/**
 * _lock_kernel_interruptible() - take the Big Kernel Lock unless signalled
 * @user: the user whose section begins, or NULL for an unannotated one
 * @ip: the call site
 *
 * Use lock_kernel_interruptible(), which tells sparse about the lock.
 *
 * Context: Process context; may sleep.
 * Return: 0 with the lock held, -EINTR when a signal interrupted the wait.
 */
int __sched _lock_kernel_interruptible(struct bkl_user *user, unsigned long ip)
{
	int ret;

	might_sleep();
	if (!__kernel_lock_recurse()) {
		__kernel_lock_contended(user, ip);
		ret = mutex_lock_interruptible(&kernel_lock_mutex);
		if (ret)
			return ret;
		__kernel_lock_set_owner(1);
	}
	bkl_user_enter(user, ip);
	return 0;
}
EXPORT_SYMBOL_GPL(_lock_kernel_interruptible);

/**
 * _unlock_kernel() - drop one level of the Big Kernel Lock; use
 *		      unlock_kernel() or unlock_kernel_user()
 * @user: the user whose section ends, or NULL for an unannotated one
 * @ip: the call site, named in the warning about an unbalanced unlock
 *
 * Context: Process context, with the BKL held by the current task.
 */
void __sched _unlock_kernel(struct bkl_user *user, unsigned long ip)
{
	if (WARN_ONCE(READ_ONCE(kernel_lock_state.owner) != current,
		      "BKL: unlock at %pS by %s/%d, which does not hold the lock\n",
		      (void *)ip, current->comm, task_pid_nr(current))) {
		atomic_long_inc(&kernel_lock_misuse);
		return;
	}
	__kernel_lock_take_inline();
	bkl_user_exit(user, ip);
	if (--kernel_lock_state.depth)
		return;
	__kernel_lock_clear_owner();
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
	return READ_ONCE(kernel_lock_state.owner) == current;
}
EXPORT_SYMBOL_GPL(kernel_locked);

/**
 * _bkl_release_all() - drop every level of the BKL; use bkl_release_all()
 * @ip: the call site
 *
 * Context: Process context.
 * Return: what was dropped, for bkl_reacquire().
 */
struct bkl_saved __sched _bkl_release_all(unsigned long ip)
{
	struct bkl_saved saved = { };
	struct bkl_section *sec;
	u64 now;

	if (!kernel_locked())
		return saved;
	__kernel_lock_take_inline();
	saved.depth = kernel_lock_state.depth;
	saved.nr_sections = kernel_lock_state.nr_sections;
	saved.untracked = kernel_lock_state.untracked;
	memcpy(saved.sections, kernel_lock_state.sections,
	       saved.nr_sections * sizeof(*saved.sections));
	now = kernel_lock_clock();
	for (sec = saved.sections + saved.nr_sections; sec-- > saved.sections; ) {
		if (IS_ENABLED(CONFIG_BKL_USER_STATS) && sec->entered_ns)
			__bkl_user_account_hold(sec->user, now - sec->entered_ns);
		bkl_user_map_release(sec->user, ip);
	}
	trace_unlock_kernel(bkl_innermost(saved.sections, saved.nr_sections),
			    0, 0, ip);
	__kernel_lock_clear_owner();
	mutex_unlock(&kernel_lock_mutex);
	return saved;
}
EXPORT_SYMBOL_GPL(_bkl_release_all);

/**
 * _bkl_reacquire() - take back the BKL after bkl_release_all(); use
 *		      bkl_reacquire()
 * @saved: the value bkl_release_all() returned
 * @ip: the call site
 *
 * Context: Process context; may sleep.  The current task must not hold the BKL.
 */
void __sched _bkl_reacquire(struct bkl_saved saved, unsigned long ip)
{
	unsigned int i;
	u64 now;

	might_sleep();
	if (!saved.depth)
		return;
	if (WARN_ON_ONCE(kernel_locked()))
		return;
	__kernel_lock_contended(NULL, ip);
	mutex_lock(&kernel_lock_mutex);
	__kernel_lock_set_owner(saved.depth);
	/* Enter the sections again outermost first, the order lockdep saw. */
	now = kernel_lock_clock();
	for (i = 0; i < saved.nr_sections; i++) {
		kernel_lock_state.sections[i] = saved.sections[i];
		kernel_lock_state.sections[i].entered_ns = now;
		bkl_user_map_acquire(saved.sections[i].user, ip);
	}
	WRITE_ONCE(kernel_lock_state.nr_sections, saved.nr_sections);
	kernel_lock_state.untracked = saved.untracked;
	trace_lock_kernel(bkl_innermost(saved.sections, saved.nr_sections),
			  saved.depth, 0, ip);
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

/**
 * bkl_unannotated_count() - how often the BKL was taken by no declared user
 *
 * lock_kernel(), lock_kernel_interruptible() and deprecated_ioctl() for a
 * handler without DEFINE_BKL_SHIM_USER() count here.  With
 * CONFIG_BKL_WARN_UNANNOTATED each such call site is also named once in the
 * kernel log.
 *
 * Context: Any context.
 * Return: the number of unannotated acquisitions since boot or the last
 * bkl_users_reset().
 */
unsigned long bkl_unannotated_count(void)
{
	return atomic_long_read(&kernel_lock_unannotated);
}
EXPORT_SYMBOL_GPL(bkl_unannotated_count);

/**
 * bkl_reset_unannotated_count() - set bkl_unannotated_count() back to 0
 *
 * Context: Any context.
 */
void bkl_reset_unannotated_count(void)
{
	atomic_long_set(&kernel_lock_unannotated, 0);
}
EXPORT_SYMBOL_GPL(bkl_reset_unannotated_count);

/**
 * bkl_get_holder() - who holds the Big Kernel Lock now
 * @holder: filled in when the lock is held
 *
 * A snapshot for /sys/kernel/debug/bkl/holder: the holder may have dropped
 * the lock by the time it is read.
 *
 * Context: Any context but NMI.
 * Return: true when some task held the BKL, with @holder filled in.
 */
bool bkl_get_holder(struct bkl_holder *holder)
{
	struct task_struct *owner;
	struct bkl_user *user;
	unsigned int n;
	u64 since;

	rcu_read_lock();
	owner = READ_ONCE(kernel_lock_state.owner);
	if (!owner) {
		rcu_read_unlock();
		return false;
	}
	holder->pid = task_pid_nr(owner);
	strscpy(holder->comm, owner->comm, sizeof(holder->comm));
	user = READ_ONCE(kernel_lock_state.inline_user);
	if (user) {
		holder->depth = 1;
	} else {
		holder->depth = READ_ONCE(kernel_lock_state.depth);
		n = min_t(unsigned int, READ_ONCE(kernel_lock_state.nr_sections),
			  BKL_MAX_SECTIONS);
		user = n ? READ_ONCE(kernel_lock_state.sections[n - 1].user) : NULL;
	}
	holder->user = user ? user->name : NULL;
	since = READ_ONCE(kernel_lock_state.since);
	holder->held_ns = since ? local_clock() - since : 0;
	rcu_read_unlock();
	return true;
}
EXPORT_SYMBOL_GPL(bkl_get_holder);

MODULE_DESCRIPTION("The Big Kernel Lock, for drivers that still depend on it");
MODULE_LICENSE("GPL");
