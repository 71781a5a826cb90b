// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the generic locked ioctl wrappers: DEFINE_LOCKED_IOCTL() and
 * its relatives, which run a handler under a lock the driver owns.
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
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>
#include <trace/events/bkl.h>

static DEFINE_MUTEX(lit_mutex);
static DECLARE_RWSEM(lit_rwsem);

/* A device with its own lock, reached through file->private_data. */
struct lit_dev {
	struct mutex lock;	/* serialises the device's ioctls */
};

struct lit_seen {
	bool mutex_held;
	bool dev_held;
	bool rwsem_held;
	unsigned long arg;
	int calls;
};

static struct lit_seen lit_seen;

#define LIT_CMD_OK	0x4c01
#define LIT_CMD_EFAULT	0x4c02
#define LIT_CMD_ARG	0x4c03

static bool lit_holds(struct mutex *m)
{
#ifdef CONFIG_LOCKDEP
	return lockdep_is_held(m);
#else
	return mutex_is_locked(m);
#endif
}

static long lit_handler(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct lit_dev *dev = file->private_data;

	lit_seen.mutex_held = lit_holds(&lit_mutex);
	lit_seen.dev_held = dev && lit_holds(&dev->lock);
	lit_seen.rwsem_held = rwsem_is_locked(&lit_rwsem);
	lit_seen.arg = arg;
	lit_seen.calls++;
	switch (cmd) {
	case LIT_CMD_OK:
		return 0;
	case LIT_CMD_EFAULT:
		return -EFAULT;
	case LIT_CMD_ARG:
		return arg;
	default:
		return -ENOTTY;
	}
}

DEFINE_LOCKED_IOCTL(lit_global, lit_handler, &lit_mutex);
DEFINE_LOCKED_COMPAT_IOCTL(lit_global_compat, lit_handler, &lit_mutex);
DEFINE_LOCKED_IOCTL(lit_per_dev, lit_handler,
		    &((struct lit_dev *)file->private_data)->lock);
DEFINE_LOCKED_IOCTL_INTERRUPTIBLE(lit_intr, lit_handler, &lit_mutex,
				  -ERESTARTSYS);
DEFINE_LOCKED_COMPAT_IOCTL_INTERRUPTIBLE(lit_intr_compat, lit_handler,
					 &lit_mutex, -EINTR);
DEFINE_GUARDED_IOCTL(lit_guarded, lit_handler, rwsem_write, &lit_rwsem);

enum lit_lock { LIT_GLOBAL, LIT_DEV, LIT_RWSEM };

struct lit_case {
	const char *name;
	long (*entry)(struct file *file, unsigned int cmd, unsigned long arg);
	enum lit_lock lock;
	unsigned int cmd;
	unsigned long arg;
	long expect;
};

static const struct lit_case lit_cases[] = {
	{ "mutex ok", lit_global, LIT_GLOBAL, LIT_CMD_OK, 0, 0 },
	{ "mutex efault", lit_global, LIT_GLOBAL, LIT_CMD_EFAULT, 0, -EFAULT },
	{ "mutex arg", lit_global, LIT_GLOBAL, LIT_CMD_ARG, 0x55aa, 0x55aa },
	{ "mutex unknown", lit_global, LIT_GLOBAL, 0x99, 0, -ENOTTY },
	{ "compat arg", lit_global_compat, LIT_GLOBAL, LIT_CMD_ARG, 0x1000, 0x1000 },
	{ "per-device efault", lit_per_dev, LIT_DEV, LIT_CMD_EFAULT, 0, -EFAULT },
	{ "per-device arg", lit_per_dev, LIT_DEV, LIT_CMD_ARG, 42, 42 },
	{ "interruptible ok", lit_intr, LIT_GLOBAL, LIT_CMD_OK, 0, 0 },
	{ "interruptible efault", lit_intr, LIT_GLOBAL, LIT_CMD_EFAULT, 0, -EFAULT },
	{ "interruptible compat arg", lit_intr_compat, LIT_GLOBAL, LIT_CMD_ARG, 8, 8 },
	{ "guard rwsem arg", lit_guarded, LIT_RWSEM, LIT_CMD_ARG, 9, 9 },
	{ "guard rwsem efault", lit_guarded, LIT_RWSEM, LIT_CMD_EFAULT, 0, -EFAULT },
};

static void lit_case_desc(const struct lit_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lit, lit_cases, lit_case_desc);

static struct file *lit_file(struct kunit *test, struct lit_dev *dev)
{
	struct file *file = kunit_kzalloc(test, sizeof(*file), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, file);
	file->private_data = dev;
	return file;
}

/* Run one case: its return, its lock held inside and free after. */
static void lit_run_case(struct kunit *test, const struct lit_case *c)
{
	struct lit_dev *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	struct file *file;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	mutex_init(&dev->lock);
	file = lit_file(test, dev);
	memset(&lit_seen, 0, sizeof(lit_seen));

	KUNIT_EXPECT_EQ(test, c->entry(file, c->cmd, c->arg), c->expect);
	KUNIT_EXPECT_EQ(test, lit_seen.calls, 1);
	KUNIT_EXPECT_EQ(test, lit_seen.arg, c->arg);
	/* Exactly the wrapper's lock was held inside ... */
	KUNIT_EXPECT_EQ(test, lit_seen.mutex_held, c->lock == LIT_GLOBAL);
	KUNIT_EXPECT_EQ(test, lit_seen.dev_held, c->lock == LIT_DEV);
	KUNIT_EXPECT_EQ(test, lit_seen.rwsem_held, c->lock == LIT_RWSEM);
	/* ... and it is free again on every return path. */
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&lit_mutex));
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&dev->lock));
	KUNIT_EXPECT_FALSE(test, rwsem_is_locked(&lit_rwsem));
}

static void locked_ioctl_test_wrappers(struct kunit *test)
{
	lit_run_case(test, test->param_value);
}

#ifdef CONFIG_TRACEPOINTS
static void lit_traced_case_desc(const struct lit_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "traced %s", c->name);
}

KUNIT_ARRAY_PARAM(lit_traced, lit_cases, lit_traced_case_desc);

struct lit_trace {
	unsigned int events;
	const struct bkl_user *user;
};

static void lit_probe(void *data, const struct bkl_user *user,
		      unsigned int depth, u64 held_ns, unsigned long ip)
{
	struct lit_trace *t = data;

	t->events++;
	t->user = user;
}

/*
 * With a driver_lock tracepoint on, every wrapper takes the path that calls
 * the lock hooks, and that path does what the plain one does, plus one
 * event on each side of the section, both naming the wrapper's user.
 */
static void locked_ioctl_test_wrappers_traced(struct kunit *test)
{
	struct lit_trace lock = { }, unlock = { };

	KUNIT_ASSERT_EQ(test, register_trace_driver_lock(lit_probe, &lock), 0);
	KUNIT_ASSERT_EQ(test, register_trace_driver_unlock(lit_probe, &unlock), 0);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&locked_ioctl_traced));
	lit_run_case(test, test->param_value);
	unregister_trace_driver_unlock(lit_probe, &unlock);
	unregister_trace_driver_lock(lit_probe, &lock);
	tracepoint_synchronize_unregister();

	KUNIT_EXPECT_FALSE(test, static_key_enabled(&locked_ioctl_traced));
	KUNIT_EXPECT_EQ(test, lock.events, 1U);
	KUNIT_EXPECT_EQ(test, unlock.events, 1U);
	KUNIT_EXPECT_NOT_NULL(test, lock.user);
	KUNIT_EXPECT_PTR_EQ(test, unlock.user, lock.user);
}
#endif

struct lit_holder {
	struct completion locked;
	struct completion release;
};

static int lit_holder_fn(void *data)
{
	struct lit_holder *h = data;

	mutex_lock(&lit_mutex);
	complete(&h->locked);
	wait_for_completion(&h->release);
	mutex_unlock(&lit_mutex);
	return 0;
}

static void locked_ioctl_test_interrupted(struct kunit *test)
{
	struct file *file = lit_file(test, NULL);
	struct lit_holder h;
	struct task_struct *t;

	init_completion(&h.locked);
	init_completion(&h.release);
	t = kthread_run(lit_holder_fn, &h, "lit_holder");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	wait_for_completion(&h.locked);

	memset(&lit_seen, 0, sizeof(lit_seen));
	allow_signal(SIGKILL);
	send_sig(SIGKILL, current, 1);
	KUNIT_EXPECT_EQ(test, lit_intr(file, LIT_CMD_OK, 0), -ERESTARTSYS);
	KUNIT_EXPECT_EQ(test, lit_intr_compat(file, LIT_CMD_OK, 0), -EINTR);
	flush_signals(current);
	disallow_signal(SIGKILL);
	KUNIT_EXPECT_EQ(test, lit_seen.calls, 0);

	complete(&h.release);
	/* The holder's lock was not disturbed: the call now goes through. */
	KUNIT_EXPECT_EQ(test, lit_intr(file, LIT_CMD_ARG, 3), 3L);
	KUNIT_EXPECT_EQ(test, lit_seen.calls, 1);
}

/* Two kthreads inside the handler at once would push "inside" over 1. */
struct lit_race {
	struct file *file;
	atomic_t inside;
	atomic_t overlaps;
};

struct lit_racer {
	struct lit_race *race;
	struct completion done;
};

#define LIT_RACE_ROUNDS 200

static long lit_race_handler(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	struct lit_race *r = (struct lit_race *)arg;

	if (atomic_inc_return(&r->inside) > 1)
		atomic_inc(&r->overlaps);
	usleep_range(10, 20);
	cond_resched();
	atomic_dec(&r->inside);
	return 0;
}

DEFINE_LOCKED_IOCTL(lit_race_ioctl, lit_race_handler,
		    &((struct lit_dev *)file->private_data)->lock);

static int lit_race_fn(void *data)
{
	struct lit_racer *racer = data;
	struct lit_race *r = racer->race;
	int i;

	for (i = 0; i < LIT_RACE_ROUNDS; i++)
		lit_race_ioctl(r->file, 0, (unsigned long)r);
	complete(&racer->done);
	return 0;
}

static void locked_ioctl_test_serialises_kthreads(struct kunit *test)
{
	struct lit_dev *dev = kunit_kzalloc(test, sizeof(*dev), GFP_KERNEL);
	struct lit_race r = {
		.inside = ATOMIC_INIT(0),
		.overlaps = ATOMIC_INIT(0),
	};
	struct lit_racer racers[2];
	struct task_struct *t;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, dev);
	mutex_init(&dev->lock);
	r.file = lit_file(test, dev);
	for (i = 0; i < 2; i++) {
		racers[i].race = &r;
		init_completion(&racers[i].done);
		t = kthread_run(lit_race_fn, &racers[i], "lit_race/%d", i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	}
	for (i = 0; i < 2; i++)
		wait_for_completion(&racers[i].done);
	KUNIT_EXPECT_EQ(test, atomic_read(&r.overlaps), 0);
}

/* Runs last: any lockdep report during the suite turns debug_locks off. */
static void locked_ioctl_test_no_lockdep_report(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
}

static struct kunit_case locked_ioctl_test_cases[] = {
	KUNIT_CASE_PARAM(locked_ioctl_test_wrappers, lit_gen_params),
#ifdef CONFIG_TRACEPOINTS
	KUNIT_CASE_PARAM(locked_ioctl_test_wrappers_traced, lit_traced_gen_params),
#endif
	KUNIT_CASE(locked_ioctl_test_interrupted),
	KUNIT_CASE(locked_ioctl_test_serialises_kthreads),
	KUNIT_CASE(locked_ioctl_test_no_lockdep_report),
	{}
};

static struct kunit_suite locked_ioctl_test_suite = {
	.name = "locked_ioctl",
	.test_cases = locked_ioctl_test_cases,
};

kunit_test_suites(&locked_ioctl_test_suite);

MODULE_DESCRIPTION("KUnit tests for the generic locked ioctl wrappers");
MODULE_LICENSE("GPL");
