// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the BKL user records: the registry, the counters, the
 * lockdep identity of each user, the tracepoints and the debugfs format.
 *
 * The suite bkl_users_lockdep provokes a lockdep report on purpose, but only
 * with bkl_users_kunit.provoke_inversion=1, because lockdep turns itself off
 * after its first report: on the kernel command line of a boot of its own,
 * or written to /sys/module/bkl_users_kunit/parameters/ once every other
 * test is done, and the suite run again through debugfs
 * (tools/testing/locked-ioctl/guest/init does that).
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */
#include <kunit/test.h>

#include <linux/bkl_user.h>
#include <linux/completion.h>
#include <linux/debug_locks.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/locked_ioctl.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/smp_lock.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <trace/events/bkl.h>

#include "bkl_kunit.h"

static bool provoke_inversion;
module_param(provoke_inversion, bool, 0644);
MODULE_PARM_DESC(provoke_inversion,
		 "let bkl_users_lockdep provoke a lockdep report");

/* What the handlers saw, and how they are told to behave. */
static struct {
	bool bkl_held;
	bool user_map_held;
	bool other_map_held;
	bool driver_lock_held;
	unsigned int sleep_ms;
	struct mutex *take;	/* taken inside the BKL section, if set */
} seen;

#ifdef CONFIG_DEBUG_LOCK_ALLOC
#define user_map_held(user)	lock_is_held(&(user)->dep_map)
#else
#define user_map_held(...)	true
#endif

static struct bkl_user __bkl_user_bkl_users_test_ioctl;
static struct bkl_user __bkl_user_bkl_users_test_replacement_ioctl;

static int bkl_users_test_old_ioctl(struct inode *inode, struct file *file,
				    unsigned int cmd, unsigned long arg)
{
	seen.bkl_held = kernel_locked();
	seen.user_map_held = user_map_held(&__bkl_user_bkl_users_test_ioctl);
	if (seen.sleep_ms)
		msleep(seen.sleep_ms);
	if (seen.take) {
		mutex_lock(seen.take);
		mutex_unlock(seen.take);
	}
	return cmd;
}

static long bkl_users_test_handler(struct file *file, unsigned int cmd,
				   unsigned long arg)
{
	seen.user_map_held =
		user_map_held(&__bkl_user_bkl_users_test_replacement_ioctl);
	seen.other_map_held = user_map_held(&__bkl_user_bkl_users_test_ioctl);
	if (seen.sleep_ms)
		msleep(seen.sleep_ms);
	return cmd;
}

static DEFINE_MUTEX(bkl_users_test_mutex);

/* The line of each definition, as the record and scripts/bkl-users give it. */
static const unsigned int bkl_users_test_ioctl_line = __LINE__ + 1;
DEFINE_BKL_IOCTL(bkl_users_test_ioctl, bkl_users_test_old_ioctl);
DEFINE_LOCKED_IOCTL(bkl_users_test_replacement_ioctl, bkl_users_test_handler,
		    &bkl_users_test_mutex);
DEFINE_BKL_SHIM_USER(bkl_users_test_old_ioctl);
DEFINE_BKL_USER(bkl_users_test_direct, bkl_users_test_direct_section);

/*
 * A driver mutex that replaced the BKL for one command only: no wrapper can
 * take it, DEFINE_DRIVER_LOCK_USER() names it where it is taken.
 */
static DEFINE_MUTEX(bkl_users_test_driver_mutex);
DEFINE_DRIVER_LOCK_USER(bkl_users_test_narrow_lock, bkl_users_test_narrow_ioctl,
			&bkl_users_test_driver_mutex);

static long bkl_users_test_narrow_ioctl(struct file *file, unsigned int cmd,
					unsigned long arg)
{
	if (cmd != 1)
		return -ENOTTY;
	driver_lock_user(&bkl_users_test_narrow_lock, &bkl_users_test_driver_mutex);
	seen.user_map_held = user_map_held(&bkl_users_test_narrow_lock);
	seen.driver_lock_held = mutex_is_locked(&bkl_users_test_driver_mutex);
	if (seen.sleep_ms)
		msleep(seen.sleep_ms);
	driver_unlock_user(&bkl_users_test_narrow_lock, &bkl_users_test_driver_mutex);
	return 0;
}

static const struct file_operations bkl_users_test_shim_fops = {
	.unlocked_ioctl	= deprecated_ioctl,
	.locked_ioctl	= bkl_users_test_old_ioctl,
};

static int bkl_users_test_init(struct kunit *test)
{
	memset(&seen, 0, sizeof(seen));
	bkl_users_reset();
	return 0;
}

static void bkl_users_test_exit(struct kunit *test)
{
	/* No case may leave the BKL held or lockdep switched off. */
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
}

/* Every way of defining a user gives a record the registry finds by name. */
static void bkl_users_test_registry_finds_users(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, bkl_user_find("bkl_users_kunit:bkl_users_test_ioctl"),
			    &__bkl_user_bkl_users_test_ioctl);
	KUNIT_EXPECT_PTR_EQ(test,
			    bkl_user_find("bkl_users_kunit:bkl_users_test_replacement_ioctl"),
			    &__bkl_user_bkl_users_test_replacement_ioctl);
	KUNIT_EXPECT_PTR_EQ(test, bkl_user_find("bkl_users_kunit:bkl_users_test_direct"),
			    &bkl_users_test_direct);
	KUNIT_EXPECT_PTR_EQ(test, bkl_user_find_handler(bkl_users_test_old_ioctl),
			    &__bkl_shim_bkl_users_test_old_ioctl);
	KUNIT_EXPECT_NULL(test, bkl_user_find("bkl_users_kunit:no_such_user"));
	KUNIT_EXPECT_NULL(test, bkl_user_find_handler(bkl_users_test_handler));
}

/* The record says where the user is, what it runs and what it depends on. */
static void bkl_users_test_record_fields(struct kunit *test)
{
	struct bkl_user *u = &__bkl_user_bkl_users_test_ioctl;
	struct bkl_user *r = &__bkl_user_bkl_users_test_replacement_ioctl;

	KUNIT_EXPECT_EQ(test, u->kind, BKL_USER_IOCTL);
	KUNIT_EXPECT_STREQ(test, u->name, "bkl_users_kunit:bkl_users_test_ioctl");
	KUNIT_EXPECT_STREQ(test, bkl_user_field(u, "handler"), "bkl_users_test_old_ioctl");
	KUNIT_EXPECT_STREQ(test, bkl_user_field(u, "lock"), "BKL");
	KUNIT_EXPECT_STREQ(test, bkl_user_field(u, "kind"), "bkl-ioctl");
	KUNIT_EXPECT_STREQ(test, bkl_user_field(u, "module"), "bkl_users_kunit");
	KUNIT_EXPECT_STREQ(test, bkl_user_field(u, "file"), __FILE__);
	KUNIT_EXPECT_STREQ(test, bkl_user_field(u, "no_such_field"), "");
	KUNIT_EXPECT_EQ(test, u->line, bkl_users_test_ioctl_line);

	KUNIT_EXPECT_EQ(test, r->kind, BKL_USER_REPLACEMENT);
	KUNIT_EXPECT_STREQ(test, bkl_user_field(r, "handler"), "bkl_users_test_handler");
	KUNIT_EXPECT_STREQ(test, bkl_user_field(r, "lock"), "&bkl_users_test_mutex");
	KUNIT_EXPECT_STREQ(test, bkl_user_field(r, "kind"), "replacement");
	KUNIT_EXPECT_EQ(test, r->line, bkl_users_test_ioctl_line + 1);

	KUNIT_EXPECT_EQ(test, bkl_users_test_direct.kind, BKL_USER_DIRECT);
	KUNIT_EXPECT_STREQ(test, bkl_user_field(&bkl_users_test_direct, "handler"),
			   "bkl_users_test_direct_section");
	KUNIT_EXPECT_EQ(test, __bkl_shim_bkl_users_test_old_ioctl.kind, BKL_USER_SHIM);
}

/*
 * How often @user's lock was taken: the counters count with
 * CONFIG_BKL_USER_STATS and stay 0 without, where an outermost BKL section
 * takes the inline fast path of <linux/smp_lock.h> instead of the functions.
 */
#define EXPECT_HITS(test, user, n)					\
	KUNIT_EXPECT_EQ(test, atomic_long_read(&(user)->hits),		\
			IS_ENABLED(CONFIG_BKL_USER_STATS) ? (long)(n) : 0L)

/* Each call counts once; the handler runs inside its user's section. */
static void bkl_users_test_counts_hits(struct kunit *test)
{
	struct file *file = bkl_kunit_file(test, NULL);
	struct bkl_user *u = &__bkl_user_bkl_users_test_ioctl;
	struct bkl_user *r = &__bkl_user_bkl_users_test_replacement_ioctl;
	int i;

	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, bkl_users_test_ioctl(file, 7, 0), 7L);
	EXPECT_HITS(test, u, 3);
	KUNIT_EXPECT_TRUE(test, seen.bkl_held);
	KUNIT_EXPECT_TRUE(test, seen.user_map_held);
	KUNIT_EXPECT_FALSE(test, user_map_held(u));

	KUNIT_EXPECT_EQ(test, bkl_users_test_replacement_ioctl(file, 8, 0), 8L);
	EXPECT_HITS(test, r, 1);
	KUNIT_EXPECT_TRUE(test, seen.user_map_held);
	KUNIT_EXPECT_FALSE(test, seen.other_map_held);
	EXPECT_HITS(test, u, 3);
}

/* The longest section is kept, and a reset clears every counter. */
static void bkl_users_test_max_hold_and_reset(struct kunit *test)
{
	struct file *file = bkl_kunit_file(test, NULL);
	struct bkl_user *u = &__bkl_user_bkl_users_test_ioctl;
	struct bkl_user *r = &__bkl_user_bkl_users_test_replacement_ioctl;

	if (!IS_ENABLED(CONFIG_BKL_USER_STATS))
		kunit_skip(test, "CONFIG_BKL_USER_STATS=n: no hold times");
	seen.sleep_ms = 20;
	bkl_users_test_ioctl(file, 0, 0);
	bkl_users_test_replacement_ioctl(file, 0, 0);
	seen.sleep_ms = 0;
	bkl_users_test_ioctl(file, 0, 0);
	KUNIT_EXPECT_GE(test, atomic64_read(&u->max_hold_ns), 20LL * NSEC_PER_MSEC);
	KUNIT_EXPECT_GE(test, atomic64_read(&r->max_hold_ns), 20LL * NSEC_PER_MSEC);

	bkl_users_reset();
	EXPECT_HITS(test, u, 0);
	KUNIT_EXPECT_EQ(test, atomic64_read(&u->max_hold_ns), 0LL);
	KUNIT_EXPECT_EQ(test, atomic64_read(&r->max_hold_ns), 0LL);
}

struct bkl_users_test_caller {
	struct file *file;
	struct completion done;
};

static int bkl_users_test_caller_fn(void *data)
{
	struct bkl_users_test_caller *c = data;

	bkl_users_test_ioctl(c->file, 0, 0);
	complete(&c->done);
	return 0;
}

/* A caller that finds the BKL taken counts as contended. */
static void bkl_users_test_counts_contention(struct kunit *test)
{
	struct bkl_users_test_caller c = {
		.file = bkl_kunit_file(test, NULL),
	};
	struct bkl_user *u = &__bkl_user_bkl_users_test_ioctl;
	struct task_struct *t;
	int i;

	if (!IS_ENABLED(CONFIG_BKL_USER_STATS))
		kunit_skip(test, "CONFIG_BKL_USER_STATS=n: no contention counter");
	init_completion(&c.done);
	lock_kernel();
	t = kthread_run(bkl_users_test_caller_fn, &c, "bkl_users_caller");
	if (IS_ERR(t)) {
		unlock_kernel();
		KUNIT_FAIL(test, "kthread_run: %ld", PTR_ERR(t));
		return;
	}
	for (i = 0; i < 1000 && !atomic_long_read(&u->contended); i++)
		usleep_range(1000, 2000);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&u->contended), 1L);
	EXPECT_HITS(test, u, 0);
	unlock_kernel();
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&c.done, 10 * HZ), 0UL);
	EXPECT_HITS(test, u, 1);
}

/* deprecated_ioctl() runs a declared shim handler under its own name. */
static void bkl_users_test_shim_user(struct kunit *test)
{
	struct file *file = bkl_kunit_file(test, &bkl_users_test_shim_fops);
	struct bkl_user *shim = &__bkl_shim_bkl_users_test_old_ioctl;
	unsigned long unannotated = bkl_unannotated_count();

	KUNIT_EXPECT_EQ(test, deprecated_ioctl(file, 5, 0), 5L);
	EXPECT_HITS(test, shim, 1);
	KUNIT_EXPECT_TRUE(test, seen.bkl_held);
	KUNIT_EXPECT_EQ(test, bkl_unannotated_count(), unannotated);
}

/* A plain lock_kernel() is counted as unannotated; a declared one is not. */
static void bkl_users_test_unannotated(struct kunit *test)
{
	unsigned long before = bkl_unannotated_count();

	lock_kernel();
	unlock_kernel();
	KUNIT_EXPECT_EQ(test, bkl_unannotated_count(), before + 1);

	lock_kernel_user(&bkl_users_test_direct);
	KUNIT_EXPECT_TRUE(test, user_map_held(&bkl_users_test_direct));
	unlock_kernel_user(&bkl_users_test_direct);
	KUNIT_EXPECT_EQ(test, bkl_unannotated_count(), before + 1);
	EXPECT_HITS(test, &bkl_users_test_direct, 1);
}

/* Nested sections: the holder names the innermost; release_all leaves both. */
static void bkl_users_test_nesting_and_release_all(struct kunit *test)
{
	struct bkl_user *d = &bkl_users_test_direct;
	struct bkl_user *u = &__bkl_user_bkl_users_test_ioctl;
	DECLARE_WAIT_QUEUE_HEAD(wq);
	struct bkl_holder holder;
	struct bkl_saved saved;

	KUNIT_EXPECT_FALSE(test, bkl_get_holder(&holder));
	lock_kernel_user(d);
	lock_kernel_user(u);
	lock_kernel_user(u);		/* a user may nest in itself */
	KUNIT_ASSERT_TRUE(test, bkl_get_holder(&holder));
	KUNIT_EXPECT_EQ(test, holder.pid, task_pid_nr(current));
	KUNIT_EXPECT_EQ(test, holder.depth, 3U);
	KUNIT_EXPECT_STREQ(test, holder.user, u->name);

	saved = bkl_release_all();
	KUNIT_EXPECT_EQ(test, saved.depth, 3U);
	KUNIT_EXPECT_EQ(test, saved.nr_sections, 2U);
	KUNIT_EXPECT_PTR_EQ(test, saved.sections[0].user, d);
	KUNIT_EXPECT_PTR_EQ(test, saved.sections[1].user, u);
	KUNIT_EXPECT_EQ(test, saved.sections[1].nest, 2U);
	KUNIT_EXPECT_FALSE(test, user_map_held(u) && IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC));
	KUNIT_EXPECT_FALSE(test, user_map_held(d) && IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC));
	KUNIT_EXPECT_FALSE(test, bkl_get_holder(&holder));
	bkl_reacquire(saved);
	KUNIT_EXPECT_TRUE(test, user_map_held(u));
	KUNIT_EXPECT_TRUE(test, user_map_held(d));

	/* The wait helper does the same around a sleep. */
	KUNIT_EXPECT_EQ(test, bkl_wait_event_interruptible(wq, true), 0);

	unlock_kernel_user(u);
	KUNIT_ASSERT_TRUE(test, bkl_get_holder(&holder));
	KUNIT_EXPECT_STREQ(test, holder.user, u->name);
	unlock_kernel_user(u);
	KUNIT_ASSERT_TRUE(test, bkl_get_holder(&holder));
	KUNIT_EXPECT_STREQ(test, holder.user, d->name);
	unlock_kernel_user(d);
	KUNIT_EXPECT_FALSE(test, bkl_get_holder(&holder));
	EXPECT_HITS(test, u, 2);
}

/*
 * An outermost section without counters is the inline fast path, which
 * writes only the owner and the user; the functions it meets after it
 * (recursion, the holder, release_all, an unlock in another order) see the
 * same state as after their own acquisition.
 */
static void bkl_users_test_inline_section(struct kunit *test)
{
	struct bkl_user *d = &bkl_users_test_direct;
	unsigned long misuse = bkl_misuse_count();
	struct bkl_holder holder;
	struct bkl_saved saved;

	lock_kernel_user(d);
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	KUNIT_ASSERT_TRUE(test, bkl_get_holder(&holder));
	KUNIT_EXPECT_EQ(test, holder.depth, 1U);
	KUNIT_EXPECT_STREQ(test, holder.user, d->name);
	lock_kernel();
	KUNIT_ASSERT_TRUE(test, bkl_get_holder(&holder));
	KUNIT_EXPECT_EQ(test, holder.depth, 2U);
	KUNIT_EXPECT_STREQ(test, holder.user, d->name);
	unlock_kernel();
	KUNIT_ASSERT_TRUE(test, bkl_get_holder(&holder));
	KUNIT_EXPECT_EQ(test, holder.depth, 1U);
	unlock_kernel_user(d);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	KUNIT_EXPECT_FALSE(test, bkl_get_holder(&holder));

	lock_kernel_user(d);
	saved = bkl_release_all();
	KUNIT_EXPECT_EQ(test, saved.depth, 1U);
	KUNIT_EXPECT_EQ(test, saved.nr_sections, 1U);
	KUNIT_EXPECT_PTR_EQ(test, saved.sections[0].user, d);
	KUNIT_EXPECT_EQ(test, saved.sections[0].nest, 1U);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	bkl_reacquire(saved);
	KUNIT_EXPECT_TRUE(test, user_map_held(d));
	unlock_kernel_user(d);
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	KUNIT_EXPECT_FALSE(test, user_map_held(d) && IS_ENABLED(CONFIG_DEBUG_LOCK_ALLOC));

	/* The inline section of one user, left by the unlock of another. */
	lock_kernel_user(d);
	lock_kernel();
	unlock_kernel_user(d);
	KUNIT_EXPECT_TRUE(test, kernel_locked());
	unlock_kernel();
	KUNIT_EXPECT_FALSE(test, kernel_locked());
	KUNIT_EXPECT_FALSE(test, bkl_get_holder(&holder));
	KUNIT_EXPECT_EQ(test, bkl_misuse_count(), misuse);
	EXPECT_HITS(test, d, 3);
}

struct bkl_users_test_sleeper {
	wait_queue_head_t wq;
	bool entered, go;
	bool map_held_after;
	struct completion done;
};

static int bkl_users_test_sleeper_fn(void *data)
{
	struct bkl_users_test_sleeper *s = data;
	struct bkl_user *u = &__bkl_user_bkl_users_test_ioctl;

	lock_kernel_user(u);
	WRITE_ONCE(s->entered, true);
	wake_up(&s->wq);
	bkl_wait_event(s->wq, READ_ONCE(s->go));
	s->map_held_after = user_map_held(u);
	unlock_kernel_user(u);
	complete(&s->done);
	return 0;
}

/*
 * Two tasks in the same user's section: one sleeps in it with the BKL
 * dropped while the other runs the user's ioctl.  Each has its own section,
 * with the user's lockdep map held, and leaving one does not end the other.
 */
static void bkl_users_test_sections_per_task(struct kunit *test)
{
	struct bkl_users_test_sleeper s = { };
	struct file *file = bkl_kunit_file(test, NULL);
	struct bkl_user *u = &__bkl_user_bkl_users_test_ioctl;
	unsigned long misuse = bkl_misuse_count();
	struct task_struct *t;

	init_waitqueue_head(&s.wq);
	init_completion(&s.done);
	t = kthread_run(bkl_users_test_sleeper_fn, &s, "bkl_users_sleeper");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	KUNIT_ASSERT_NE(test, wait_event_timeout(s.wq, READ_ONCE(s.entered), 10 * HZ), 0L);

	bkl_users_test_ioctl(file, 0, 0);	/* while the other sleeps in u */
	KUNIT_EXPECT_TRUE(test, seen.bkl_held);
	KUNIT_EXPECT_TRUE(test, seen.user_map_held);

	lock_kernel();
	WRITE_ONCE(s.go, true);
	unlock_kernel();
	wake_up(&s.wq);
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&s.done, 10 * HZ), 0UL);
	KUNIT_EXPECT_TRUE(test, s.map_held_after);
	EXPECT_HITS(test, u, 2);
	KUNIT_EXPECT_EQ(test, bkl_misuse_count(), misuse);
}

/* A module's block of users appears in the registry and goes again. */
static void bkl_users_test_module_block(struct kunit *test)
{
	static struct bkl_user fake = {
		.name = "bkl_users_fake_module:fake_ioctl",
		.info = "bkl_user=bkl_users_fake_module:fake_ioctl\0kind=bkl-shim",
		.fn = bkl_users_test_handler,
		.kind = BKL_USER_SHIM,
	};
	static struct bkl_user *const block[] = { &fake };

	KUNIT_EXPECT_NULL(test, bkl_user_find(fake.name));
	KUNIT_ASSERT_EQ(test, bkl_users_add_block(test, block, 1), 0);
	KUNIT_EXPECT_PTR_EQ(test, bkl_user_find(fake.name), &fake);
	KUNIT_EXPECT_PTR_EQ(test, bkl_user_find_handler(bkl_users_test_handler), &fake);
	bkl_users_del_block(test);
	KUNIT_EXPECT_NULL(test, bkl_user_find(fake.name));
	KUNIT_EXPECT_NULL(test, bkl_user_find_handler(bkl_users_test_handler));
}

/*
 * The debugfs line has the fields of the header, tab-separated, and the
 * check script compares these lines (printed here) with the source and the
 * objects.
 */
static bool bkl_users_test_print(struct bkl_user *user, void *test)
{
	char line[256];

	bkl_user_format(user, line, sizeof(line));
	kunit_info((struct kunit *)test, "bkl-users-record\t%s\n", line);
	return false;
}

static void bkl_users_test_format(struct kunit *test)
{
	struct file *file = bkl_kunit_file(test, NULL);
	char line[256], expect[256];
	int len;

	bkl_users_test_ioctl(file, 0, 0);
	atomic64_set(&__bkl_user_bkl_users_test_ioctl.max_hold_ns, 1234);
	len = bkl_user_format(&__bkl_user_bkl_users_test_ioctl, line, sizeof(line));
	snprintf(expect, sizeof(expect),
		 "bkl_users_kunit:bkl_users_test_ioctl\tbkl-ioctl\tBKL\t%d\t0\t1234\t%s\t%u\tbkl_users_test_old_ioctl",
		 IS_ENABLED(CONFIG_BKL_USER_STATS), __FILE__, bkl_users_test_ioctl_line);
	KUNIT_EXPECT_STREQ(test, line, expect);
	KUNIT_EXPECT_EQ(test, len, (int)strlen(expect));
	bkl_users_reset();
	bkl_users_iterate(bkl_users_test_print, test);
}

#ifdef CONFIG_TRACEPOINTS
struct bkl_users_test_trace {
	unsigned int events;
	const struct bkl_user *user;
	unsigned int depth;
	u64 held_ns;
};

static void bkl_users_test_probe(void *data, const struct bkl_user *user,
				 unsigned int depth, u64 held_ns,
				 unsigned long ip)
{
	struct bkl_users_test_trace *t = data;

	t->events++;
	t->user = user;
	t->depth = depth;
	t->held_ns = held_ns;
}

/* The tracepoints carry the user and the depth, and the hold on release. */
static void bkl_users_test_tracepoints(struct kunit *test)
{
	struct file *file = bkl_kunit_file(test, NULL);
	struct bkl_users_test_trace lock = { }, unlock = { }, dlock = { };

	KUNIT_ASSERT_EQ(test, register_trace_lock_kernel(bkl_users_test_probe, &lock), 0);
	KUNIT_ASSERT_EQ(test, register_trace_unlock_kernel(bkl_users_test_probe, &unlock), 0);
	KUNIT_ASSERT_EQ(test, register_trace_driver_lock(bkl_users_test_probe, &dlock), 0);
	seen.sleep_ms = 2;
	bkl_users_test_ioctl(file, 0, 0);
	bkl_users_test_replacement_ioctl(file, 0, 0);
	seen.sleep_ms = 0;
	unregister_trace_driver_lock(bkl_users_test_probe, &dlock);
	unregister_trace_unlock_kernel(bkl_users_test_probe, &unlock);
	unregister_trace_lock_kernel(bkl_users_test_probe, &lock);
	tracepoint_synchronize_unregister();

	KUNIT_EXPECT_EQ(test, lock.events, 1U);
	KUNIT_EXPECT_PTR_EQ(test, lock.user, &__bkl_user_bkl_users_test_ioctl);
	KUNIT_EXPECT_EQ(test, lock.depth, 1U);
	KUNIT_EXPECT_EQ(test, unlock.events, 1U);
	KUNIT_EXPECT_PTR_EQ(test, unlock.user, &__bkl_user_bkl_users_test_ioctl);
	KUNIT_EXPECT_GE(test, unlock.held_ns, 2ULL * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, dlock.events, 1U);
	KUNIT_EXPECT_PTR_EQ(test, dlock.user,
			    &__bkl_user_bkl_users_test_replacement_ioctl);
}

/*
 * A release tracepoint alone is enough: the inline paths of the BKL and of
 * the wrappers test one static key per group, which each tracepoint of the
 * group turns on, and off again when its last probe goes.
 */
static void bkl_users_test_tracepoint_alone(struct kunit *test)
{
	struct file *file = bkl_kunit_file(test, NULL);
	struct bkl_users_test_trace unlock = { }, dunlock = { };

	KUNIT_ASSERT_EQ(test, register_trace_unlock_kernel(bkl_users_test_probe, &unlock), 0);
	KUNIT_ASSERT_EQ(test, register_trace_driver_unlock(bkl_users_test_probe, &dunlock), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&bkl_traced));
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&locked_ioctl_traced));
	bkl_users_test_ioctl(file, 0, 0);
	bkl_users_test_replacement_ioctl(file, 0, 0);
	unregister_trace_driver_unlock(bkl_users_test_probe, &dunlock);
	unregister_trace_unlock_kernel(bkl_users_test_probe, &unlock);
	tracepoint_synchronize_unregister();

	KUNIT_EXPECT_EQ(test, unlock.events, 1U);
	KUNIT_EXPECT_PTR_EQ(test, unlock.user, &__bkl_user_bkl_users_test_ioctl);
	KUNIT_EXPECT_EQ(test, dunlock.events, 1U);
	KUNIT_EXPECT_PTR_EQ(test, dunlock.user,
			    &__bkl_user_bkl_users_test_replacement_ioctl);
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&bkl_traced));
	KUNIT_EXPECT_FALSE(test, static_key_enabled(&locked_ioctl_traced));
}
#endif

/*
 * A driver lock taken by hand as a declared user: the registry lists it
 * with its mutex, the section holds the user's lockdep map and the mutex,
 * counts and times, and leaves both free; a command that does not take it
 * counts nothing.
 */
static void bkl_users_test_driver_lock_user(struct kunit *test)
{
	struct file *file = bkl_kunit_file(test, NULL);
	struct bkl_user *u = &bkl_users_test_narrow_lock;

	KUNIT_EXPECT_PTR_EQ(test, bkl_user_find("bkl_users_kunit:bkl_users_test_narrow_lock"), u);
	KUNIT_EXPECT_EQ(test, u->kind, BKL_USER_REPLACEMENT);
	KUNIT_EXPECT_STREQ(test, bkl_user_field(u, "handler"), "bkl_users_test_narrow_ioctl");
	KUNIT_EXPECT_STREQ(test, bkl_user_field(u, "lock"), "&bkl_users_test_driver_mutex");

	KUNIT_EXPECT_EQ(test, bkl_users_test_narrow_ioctl(file, 2, 0), -ENOTTY);
	EXPECT_HITS(test, u, 0);
	seen.sleep_ms = 5;
	KUNIT_EXPECT_EQ(test, bkl_users_test_narrow_ioctl(file, 1, 0), 0L);
	seen.sleep_ms = 0;
	KUNIT_EXPECT_TRUE(test, seen.user_map_held);
	KUNIT_EXPECT_TRUE(test, seen.driver_lock_held);
	KUNIT_EXPECT_FALSE(test, user_map_held(u));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&bkl_users_test_driver_mutex));
	EXPECT_HITS(test, u, 1);
	if (IS_ENABLED(CONFIG_BKL_USER_STATS))
		KUNIT_EXPECT_GE(test, atomic64_read(&u->max_hold_ns), 5LL * NSEC_PER_MSEC);
	else
		KUNIT_EXPECT_EQ(test, atomic64_read(&u->max_hold_ns), 0LL);
}

struct bkl_users_test_holder {
	struct completion locked;
	struct completion release;
};

static int bkl_users_test_holder_fn(void *data)
{
	struct bkl_users_test_holder *h = data;

	mutex_lock(&bkl_users_test_driver_mutex);
	complete(&h->locked);
	wait_for_completion(&h->release);
	mutex_unlock(&bkl_users_test_driver_mutex);
	return 0;
}

/* A signal ends the wait: -EINTR, no section, the holder undisturbed. */
static void bkl_users_test_driver_lock_interrupted(struct kunit *test)
{
	struct bkl_user *u = &bkl_users_test_narrow_lock;
	struct bkl_users_test_holder h;
	struct task_struct *t;
	int ret;

	init_completion(&h.locked);
	init_completion(&h.release);
	t = kthread_run(bkl_users_test_holder_fn, &h, "bkl_users_holder");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&h.locked);

	allow_signal(SIGKILL);
	send_sig(SIGKILL, current, 1);
	ret = driver_lock_user_interruptible(u, &bkl_users_test_driver_mutex);
	flush_signals(current);
	disallow_signal(SIGKILL);
	KUNIT_EXPECT_EQ(test, ret, -EINTR);
	KUNIT_EXPECT_FALSE(test, user_map_held(u));
	EXPECT_HITS(test, u, 0);
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&bkl_users_test_driver_mutex));

	complete(&h.release);
	ret = driver_lock_user_interruptible(u, &bkl_users_test_driver_mutex);
	KUNIT_EXPECT_EQ(test, ret, 0);
	if (!ret) {
		KUNIT_EXPECT_TRUE(test, user_map_held(u));
		driver_unlock_user(u, &bkl_users_test_driver_mutex);
	}
	EXPECT_HITS(test, u, 1);
}

static struct kunit_case bkl_users_test_cases[] = {
	KUNIT_CASE(bkl_users_test_registry_finds_users),
	KUNIT_CASE(bkl_users_test_record_fields),
	KUNIT_CASE(bkl_users_test_counts_hits),
	KUNIT_CASE(bkl_users_test_max_hold_and_reset),
	KUNIT_CASE(bkl_users_test_counts_contention),
	KUNIT_CASE(bkl_users_test_shim_user),
	KUNIT_CASE(bkl_users_test_unannotated),
	KUNIT_CASE(bkl_users_test_nesting_and_release_all),
	KUNIT_CASE(bkl_users_test_inline_section),
	KUNIT_CASE(bkl_users_test_sections_per_task),
	KUNIT_CASE(bkl_users_test_module_block),
	KUNIT_CASE(bkl_users_test_format),
	KUNIT_CASE(bkl_users_test_driver_lock_user),
	KUNIT_CASE(bkl_users_test_driver_lock_interrupted),
#ifdef CONFIG_TRACEPOINTS
	KUNIT_CASE(bkl_users_test_tracepoints),
	KUNIT_CASE(bkl_users_test_tracepoint_alone),
#endif
	{}
};

static struct kunit_suite bkl_users_test_suite = {
	.name = "bkl_users",
	.init = bkl_users_test_init,
	.exit = bkl_users_test_exit,
	.test_cases = bkl_users_test_cases,
};

/*
 * The inversion: the BKL user section of bkl_users_test_ioctl takes
 * bkl_users_test_order, and then, holding bkl_users_test_order, this test
 * calls the same ioctl.  Lockdep reports the circular dependency with the
 * user's name ("bkl_users_kunit:bkl_users_test_ioctl") in the chain.
 *
 * Without provoke_inversion the first order alone is taken, which lockdep
 * must not report.  The case passes then rather than skipping: KUnit does
 * not run a case again, through debugfs, that it once skipped.
 */
static DEFINE_MUTEX(bkl_users_test_order);

static void bkl_users_test_inversion_names_user(struct kunit *test)
{
	struct file *file = bkl_kunit_file(test, NULL);

	if (!IS_ENABLED(CONFIG_PROVE_LOCKING))
		kunit_skip(test, "needs CONFIG_PROVE_LOCKING");

	seen.take = &bkl_users_test_order;
	bkl_users_test_ioctl(file, 0, 0);	/* BKL -> user -> order */
	seen.take = NULL;
	if (!provoke_inversion) {
		KUNIT_EXPECT_EQ(test, debug_locks, 1);
		return;
	}
	mutex_lock(&bkl_users_test_order);
	bkl_users_test_ioctl(file, 0, 0);	/* order -> BKL: reported */
	mutex_unlock(&bkl_users_test_order);
	KUNIT_EXPECT_EQ(test, debug_locks, 0);
}

static struct kunit_case bkl_users_lockdep_cases[] = {
	KUNIT_CASE(bkl_users_test_inversion_names_user),
	{}
};

static struct kunit_suite bkl_users_lockdep_suite = {
	.name = "bkl_users_lockdep",
	.test_cases = bkl_users_lockdep_cases,
};

kunit_test_suites(&bkl_users_test_suite, &bkl_users_lockdep_suite);

MODULE_DESCRIPTION("KUnit tests for the registry of BKL users");
MODULE_LICENSE("GPL");
