// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the Big Kernel Lock, the DEFINE_BKL_IOCTL() wrappers and the
 * deprecated_ioctl shim.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */
#include <kunit/test.h>

#include <linux/completion.h>
#include <linux/debug_locks.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/locked_ioctl.h>
#include <linux/sched/signal.h>
#include <linux/smp_lock.h>

#include "bkl_kunit.h"

/* A kthread that takes the BKL and holds it until told to let go. */
struct bkl_test_holder {
	struct completion locked;
	struct completion release;
	bool held_at_release;
};

static int bkl_holder_fn(void *data)
{
	struct bkl_test_holder *h = data;

	lock_kernel();
	complete(&h->locked);
	wait_for_completion(&h->release);
	h->held_at_release = kernel_locked();
	unlock_kernel();
	return 0;
}

static struct task_struct *bkl_holder_start(struct kunit *test, struct bkl_test_holder *h)
{
	struct task_struct *t;

	init_completion(&h->locked);
	init_completion(&h->release);
	t = kthread_run(bkl_holder_fn, h, "bkl_holder");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	get_task_struct(t);
	wait_for_completion(&h->locked);
	return t;
}

static void bkl_holder_stop(struct task_struct *t, struct bkl_test_holder *h)
{
	complete(&h->release);
	kthread_stop(t);
	put_task_struct(t);
}

static void bkl_test_lock_unlock(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	lock_kernel();
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();
	KUNIT_EXPECT_FALSE(test, kernel_locked());
}

/*
 * lockdep_assert_kernel_locked() is lockdep's check on the BKL's mutex: held
 * at every depth and on the annotated users' inline path, not after
 * bkl_release_all().
 */
DEFINE_BKL_USER(bkl_test_lockdep_user, bkl_test_lockdep_assert);

static void bkl_test_lockdep_assert(struct kunit *test)
{
#ifdef CONFIG_LOCKDEP
	struct bkl_saved saved;

	if (!debug_locks)
		kunit_skip(test, "lockdep is off (a report turned it off)");
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&kernel_lock_mutex));
	lock_kernel();
	lockdep_assert_kernel_locked();
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&kernel_lock_mutex));
	lock_kernel();
	lockdep_assert_kernel_locked();
	saved = bkl_release_all();
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&kernel_lock_mutex));
	bkl_reacquire(saved);
	lockdep_assert_kernel_locked();
	unlock_kernel();
	unlock_kernel();
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&kernel_lock_mutex));

	lock_kernel_user(&bkl_test_lockdep_user);
	lockdep_assert_kernel_locked();
	KUNIT_EXPECT_TRUE(test, lockdep_is_held(&kernel_lock_mutex));
	unlock_kernel_user(&bkl_test_lockdep_user);
	KUNIT_EXPECT_FALSE(test, lockdep_is_held(&kernel_lock_mutex));
#else
	kunit_skip(test, "needs CONFIG_LOCKDEP");
#endif
}

static void bkl_test_recursion(struct kunit *test)
{
	lock_kernel();
	lock_kernel();
	lock_kernel();
	unlock_kernel();
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();
	KUNIT_EXPECT_FALSE(test, kernel_locked());
}

/* Try the interruptible acquire; say whether it held the lock. */
static int bkl_try_interruptible(bool *held)
{
	int ret;

	*held = false;
	ret = lock_kernel_interruptible();
	if (ret)
		return ret;
	*held = kernel_locked();
	unlock_kernel();
	return 0;
}

static void bkl_test_interruptible(struct kunit *test)
{
	struct bkl_test_holder h;
	struct task_struct *t;
	bool held;

	/* Uncontended, then nested: taken. */
	KUNIT_EXPECT_EQ(test, bkl_try_interruptible(&held), 0);
	KUNIT_EXPECT_TRUE(test, held);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	lock_kernel();
	KUNIT_EXPECT_EQ(test, bkl_try_interruptible(&held), 0);
	KUNIT_EXPECT_TRUE(test, held);
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();

	/* Held by another task, with a signal pending: -EINTR, not taken. */
	t = bkl_holder_start(test, &h);
	allow_signal(SIGKILL);
	send_sig(SIGKILL, current, 1);
	KUNIT_EXPECT_EQ(test, bkl_try_interruptible(&held), -EINTR);
	KUNIT_EXPECT_FALSE(test, held);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	flush_signals(current);
	disallow_signal(SIGKILL);
	bkl_holder_stop(t, &h);
	KUNIT_EXPECT_TRUE(test, h.held_at_release);
}

static void bkl_test_unbalanced_unlock(struct kunit *test)
{
	unsigned long misuse = bkl_misuse_count();
	struct bkl_test_holder h;
	struct task_struct *t;

	/* Not held at all: counted, and the lock still works. */
	__acquire(kernel_lock);	/* deliberately unbalanced: keep sparse quiet */
	unlock_kernel();
	KUNIT_EXPECT_EQ(test, bkl_misuse_count(), misuse + 1);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	lock_kernel();
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();

	/* Held by another task: counted, and the owner keeps the lock. */
	t = bkl_holder_start(test, &h);
	__acquire(kernel_lock);	/* deliberately foreign: keep sparse quiet */
	unlock_kernel();
	KUNIT_EXPECT_EQ(test, bkl_misuse_count(), misuse + 2);
	bkl_holder_stop(t, &h);
	KUNIT_EXPECT_TRUE(test, h.held_at_release);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
}

static int bkl_taker_fn(void *data)
{
	struct completion *done = data;

	lock_kernel();
	unlock_kernel();
	complete(done);
	return 0;
}

static void bkl_test_release_all(struct kunit *test)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct task_struct *t;
	struct bkl_saved saved;

	/* Not held: nothing to drop, nothing to take back. */
	__acquire(kernel_lock);	/* for sparse: the pair is balanced */
	saved = bkl_release_all();
	KUNIT_EXPECT_EQ(test, saved.depth, 0U);
	bkl_reacquire(saved);
	__release(kernel_lock);
	KUNIT_EXPECT_FALSE(test, kernel_locked());

	lock_kernel();
	lock_kernel();
	saved = bkl_release_all();
	KUNIT_EXPECT_EQ(test, saved.depth, 2U);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	/* Really released: another task can take it meanwhile. */
	t = kthread_run(bkl_taker_fn, &done, "bkl_taker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&done, 10 * HZ), 0UL);
	bkl_reacquire(saved);
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();
	KUNIT_EXPECT_FALSE(test, kernel_locked());
}

struct bkl_waker {
	wait_queue_head_t wq;
	bool ready;
};

static int bkl_waker_fn(void *data)
{
	struct bkl_waker *w = data;

	/*
	 * Needs the BKL to make progress, as old drivers' other paths did.  The
	 * waiter cannot return before this unlock, so @w (on its stack) is
	 * not touched after it.
	 */
	lock_kernel();
	WRITE_ONCE(w->ready, true);
	wake_up(&w->wq);
	unlock_kernel();
	return 0;
}

static void bkl_test_wait_event_drops_lock(struct kunit *test)
{
	struct bkl_waker w = { .ready = false };
	struct task_struct *t;
	int ret;

	init_waitqueue_head(&w.wq);
	lock_kernel();
	lock_kernel();
	t = kthread_run(bkl_waker_fn, &w, "bkl_waker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	ret = bkl_wait_event_interruptible(w.wq, READ_ONCE(w.ready));
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();
	KUNIT_EXPECT_TRUE(test, kernel_locked());

	w.ready = false;
	t = kthread_run(bkl_waker_fn, &w, "bkl_waker");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	bkl_wait_event(w.wq, READ_ONCE(w.ready));
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();
	KUNIT_EXPECT_FALSE(test, kernel_locked());
}

/* Two kthreads in a BKL section at once would push "inside" over 1. */
struct bkl_race {
	atomic_t inside;
	atomic_t overlaps;
	atomic_t rounds;
};

struct bkl_racer {
	struct bkl_race *race;
	struct completion done;
};

#define BKL_RACE_ROUNDS 200

static void bkl_race_section(struct bkl_race *r)
{
	if (atomic_inc_return(&r->inside) > 1)
		atomic_inc(&r->overlaps);
	usleep_range(10, 20);
	cond_resched();
	atomic_dec(&r->inside);
	atomic_inc(&r->rounds);
}

static int bkl_race_fn(void *data)
{
	struct bkl_racer *racer = data;
	int i;

	for (i = 0; i < BKL_RACE_ROUNDS; i++) {
		lock_kernel();
		bkl_race_section(racer->race);
		unlock_kernel();
	}
	complete(&racer->done);
	return 0;
}

static void bkl_test_serialises_kthreads(struct kunit *test)
{
	struct bkl_race r = {
		.inside = ATOMIC_INIT(0),
		.overlaps = ATOMIC_INIT(0),
		.rounds = ATOMIC_INIT(0),
	};
	struct bkl_racer racers[2];
	struct task_struct *t;
	int i;

	for (i = 0; i < 2; i++) {
		racers[i].race = &r;
		init_completion(&racers[i].done);
		t = kthread_run(bkl_race_fn, &racers[i], "bkl_race/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	}
	for (i = 0; i < 2; i++)
		wait_for_completion(&racers[i].done);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.overlaps), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.rounds), 2 * BKL_RACE_ROUNDS);
}

/* Handlers: record what they saw, return per command. */
struct bkl_ioctl_seen {
	bool locked;
	struct inode *inode;
	unsigned long arg;
	int calls;
};

static struct bkl_ioctl_seen bkl_seen;

#define BT_OK		0x4201
#define BT_EFAULT	0x4202
#define BT_ARG		0x4203

static long bkl_test_result(unsigned int cmd, unsigned long arg)
{
	switch (cmd) {
	case BT_OK:
		return 0;
	case BT_EFAULT:
		return -EFAULT;
	case BT_ARG:
		return arg;
	default:
		return -ENOIOCTLCMD;
	}
}

static int bkl_test_old_ioctl(struct inode *inode, struct file *file,
			      unsigned int cmd, unsigned long arg)
{
	bkl_seen.locked = kernel_locked();
	bkl_seen.inode = inode;
	bkl_seen.arg = arg;
	bkl_seen.calls++;
	return bkl_test_result(cmd, arg);
}

static long bkl_test_new_ioctl(struct file *file, unsigned int cmd,
			       unsigned long arg)
{
	return bkl_test_old_ioctl(file_inode(file), file, cmd, arg);
}

DEFINE_BKL_IOCTL(bkl_test_wrapped, bkl_test_old_ioctl);
DEFINE_BKL_COMPAT_IOCTL(bkl_test_wrapped_compat, bkl_test_old_ioctl);
DEFINE_BKL_UNLOCKED_IOCTL(bkl_test_wrapped_unlocked, bkl_test_new_ioctl);
/* The forms for a handler that several files share, declared in bkl_kunit.h. */
DEFINE_BKL_IOCTL_GLOBAL(bkl_test_wrapped_global, bkl_test_old_ioctl);
DEFINE_BKL_IOCTL_EXPORT_GPL(bkl_test_wrapped_export, bkl_test_old_ioctl);

static const struct file_operations bkl_test_shim_fops = {
	.unlocked_ioctl = deprecated_ioctl,
	.compat_ioctl = deprecated_compat_ioctl,
	.locked_ioctl = bkl_test_old_ioctl,
};

/* Only .locked_ioctl: the VFS falls back to deprecated_ioctl(). */
static const struct file_operations bkl_test_vfs_fops = {
	.locked_ioctl = bkl_test_old_ioctl,
};

static const struct file_operations bkl_test_empty_fops = {
	.unlocked_ioctl = deprecated_ioctl,
};

/* No ioctl at all: the VFS fallback must answer -ENOTTY. */
static const struct file_operations bkl_test_no_ioctl_fops = {
};

struct bkl_ioctl_case {
	const char *name;
	long (*entry)(struct file *file, unsigned int cmd, unsigned long arg);
	const struct file_operations *fops;
	unsigned int cmd;
	unsigned long arg;
	long expect;
	bool reaches_handler;
};

#define SHIM	(&bkl_test_shim_fops)
#define VFS	(&bkl_test_vfs_fops)
#define EMPTY	(&bkl_test_empty_fops)
#define NOIOCTL	(&bkl_test_no_ioctl_fops)

static const struct bkl_ioctl_case bkl_ioctl_cases[] = {
	{ "bkl_ioctl ok", bkl_test_wrapped, EMPTY, BT_OK, 0, 0, true },
	{ "bkl_ioctl efault", bkl_test_wrapped, EMPTY, BT_EFAULT, 0, -EFAULT, true },
	{ "bkl_ioctl arg", bkl_test_wrapped, EMPTY, BT_ARG, 0x1234, 0x1234, true },
	{ "bkl_ioctl unknown", bkl_test_wrapped, EMPTY, 0x77, 0, -ENOIOCTLCMD, true },
	{ "bkl_compat arg", bkl_test_wrapped_compat, EMPTY, BT_ARG, 0x4321, 0x4321, true },
	{ "bkl_unlocked efault", bkl_test_wrapped_unlocked, EMPTY, BT_EFAULT, 0, -EFAULT, true },
	{ "bkl_unlocked arg", bkl_test_wrapped_unlocked, EMPTY, BT_ARG, 7, 7, true },
	{ "bkl_global arg", bkl_test_wrapped_global, EMPTY, BT_ARG, 11, 11, true },
	{ "bkl_global unknown", bkl_test_wrapped_global, EMPTY, 0x77, 0, -ENOIOCTLCMD, true },
	{ "bkl_export efault", bkl_test_wrapped_export, EMPTY, BT_EFAULT, 0, -EFAULT, true },
	{ "bkl_export arg", bkl_test_wrapped_export, EMPTY, BT_ARG, 12, 12, true },
	{ "shim ok", deprecated_ioctl, SHIM, BT_OK, 0, 0, true },
	{ "shim efault", deprecated_ioctl, SHIM, BT_EFAULT, 0, -EFAULT, true },
	{ "shim compat arg", deprecated_compat_ioctl, SHIM, BT_ARG, 99, 99, true },
	{ "shim unknown", deprecated_ioctl, SHIM, 0x77, 0, -ENOTTY, true },
	{ "shim compat unknown", deprecated_compat_ioctl, SHIM, 0x77, 0, -ENOTTY, true },
	{ "shim no handler", deprecated_ioctl, EMPTY, BT_OK, 0, -ENOTTY, false },
	{ "vfs fallback arg", vfs_ioctl, VFS, BT_ARG, 5, 5, true },
	{ "vfs fallback efault", vfs_ioctl, VFS, BT_EFAULT, 0, -EFAULT, true },
	{ "vfs fallback unknown", vfs_ioctl, VFS, 0x77, 0, -ENOTTY, true },
	{ "vfs shim fops", vfs_ioctl, SHIM, BT_ARG, 3, 3, true },
	{ "vfs no ioctl", vfs_ioctl, NOIOCTL, BT_OK, 0, -ENOTTY, false },
};

#undef SHIM
#undef VFS
#undef EMPTY
#undef NOIOCTL

static void bkl_ioctl_case_desc(const struct bkl_ioctl_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bkl_ioctl, bkl_ioctl_cases, bkl_ioctl_case_desc);

static void bkl_test_ioctl_wrappers(struct kunit *test)
{
	const struct bkl_ioctl_case *c = test->param_value;
	struct file *file = bkl_kunit_file(test, c->fops);

	memset(&bkl_seen, 0, sizeof(bkl_seen));
	KUNIT_EXPECT_EQ(test, c->entry(file, c->cmd, c->arg), c->expect);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	KUNIT_EXPECT_EQ(test, bkl_seen.calls, c->reaches_handler ? 1 : 0);
	if (!c->reaches_handler)
		return;
	KUNIT_EXPECT_TRUE(test, bkl_seen.locked);
	KUNIT_EXPECT_PTR_EQ(test, bkl_seen.inode, file_inode(file));
	KUNIT_EXPECT_EQ(test, bkl_seen.arg, c->arg);
}

/* Runs last: any lockdep report during the suite turns debug_locks off. */
static void bkl_test_no_lockdep_report(struct kunit *test)
{
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
}

static struct kunit_case bkl_test_cases[] = {
	KUNIT_CASE(bkl_test_lock_unlock),
	KUNIT_CASE(bkl_test_recursion),
	KUNIT_CASE(bkl_test_lockdep_assert),
	KUNIT_CASE(bkl_test_interruptible),
	KUNIT_CASE(bkl_test_unbalanced_unlock),
	KUNIT_CASE(bkl_test_release_all),
	KUNIT_CASE(bkl_test_wait_event_drops_lock),
	KUNIT_CASE(bkl_test_serialises_kthreads),
	KUNIT_CASE_PARAM(bkl_test_ioctl_wrappers, bkl_ioctl_gen_params),
	KUNIT_CASE(bkl_test_no_lockdep_report),
	{}
};

static struct kunit_suite bkl_test_suite = {
	.name = "bkl",
	.test_cases = bkl_test_cases,
};

kunit_test_suites(&bkl_test_suite);

MODULE_DESCRIPTION("KUnit tests for the Big Kernel Lock and the deprecated_ioctl shim");
MODULE_LICENSE("GPL");
