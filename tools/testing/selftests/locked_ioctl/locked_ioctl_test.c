// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace tests of the locked-ioctl layer through its test drivers
 * (drivers/misc/locked_ioctl_test, module locked_ioctl_test): every ioctl of
 * every device, which lock the handler runs under, serialisation under
 * threads, bad input, signals, a bounded fuzz and module unload while a
 * thread is inside an ioctl.  Built natively and with -m32, which goes
 * through the compat entry points.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * Environment: LIT_FUZZ_SECONDS (default 3) bounds the fuzz, LIT_SEED seeds
 * it, LIT_MODULE is the path of locked_ioctl_test.ko that the unload test
 * loads again.  LIT_NO_SHIM says the module was built out of tree, against a
 * kernel without the layer: there are no shim devices (lit_shim, lit_legacy)
 * and no registry; run the tests with -V shim -V legacy -T bkl_across_devices.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "locked_ioctl_test.h"

#define IS_COMPAT	(sizeof(long) == 4)
#define NTHREADS	4
#define NITER		40

/* An address no user mapping has: the kernel's half, or above a 32-bit TASK_SIZE. */
#define KERNEL_ADDR	((void *)(uintptr_t)(IS_COMPAT ? 0xfffff000UL : 0xffffffff81000000UL))

static int lit_open(const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/lit_%s", name);
	return open(path, O_RDWR | O_CLOEXEC);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* A page that is mapped, and the address of the page after it, which is not. */
static char *page_before_hole(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	munmap(p + pg, pg);
	return p;
}

FIXTURE(lit) {
	int fd;
};

FIXTURE_VARIANT(lit) {
	const char *name;
	enum lit_kind kind;
	int bkl;		/* the handler runs under the BKL */
	int mutex;		/* ... under the device's mutex */
	int native_only;	/* no compat entry point */
};

FIXTURE_VARIANT_ADD(lit, shim) {
	.name = "shim", .kind = LIT_KIND_SHIM, .bkl = 1,
};

FIXTURE_VARIANT_ADD(lit, legacy) {
	.name = "legacy", .kind = LIT_KIND_LEGACY, .bkl = 1, .native_only = 1,
};

FIXTURE_VARIANT_ADD(lit, bkl) {
	.name = "bkl", .kind = LIT_KIND_BKL, .bkl = 1,
};

FIXTURE_VARIANT_ADD(lit, mutex) {
	.name = "mutex", .kind = LIT_KIND_MUTEX, .mutex = 1,
};

FIXTURE_VARIANT_ADD(lit, mutex_intr) {
	.name = "mutex_intr", .kind = LIT_KIND_MUTEX_INTR, .mutex = 1,
};

FIXTURE_VARIANT_ADD(lit, nolock) {
	.name = "nolock", .kind = LIT_KIND_NOLOCK,
};

FIXTURE_SETUP(lit)
{
	self->fd = lit_open(variant->name);
	ASSERT_LE(0, self->fd) TH_LOG("open /dev/lit_%s: %s", variant->name, strerror(errno));
}

FIXTURE_TEARDOWN(lit)
{
	close(self->fd);
}

/*
 * A 32-bit caller of a device without a compat entry point gets -ENOTTY for
 * every command: check that for @cmd and tell the test to stop there.
 */
static int no_compat_path(struct __test_metadata *_metadata,
			  const FIXTURE_VARIANT(lit) * variant, int fd,
			  unsigned long cmd, void *arg)
{
	if (!IS_COMPAT || !variant->native_only)
		return 0;
	EXPECT_EQ(-1, ioctl(fd, cmd, arg));
	EXPECT_EQ(ENOTTY, errno);
	return 1;
}

TEST_F(lit, state)
{
	struct lit_state st;

	memset(&st, 0xff, sizeof(st));
	if (no_compat_path(_metadata, variant, self->fd, LIT_GET_STATE, &st))
		return;
	ASSERT_EQ(0, ioctl(self->fd, LIT_GET_STATE, &st));
	EXPECT_EQ(variant->kind, st.kind);
	EXPECT_EQ(variant->bkl, st.bkl_held);
	EXPECT_EQ(variant->mutex, st.lock_held);
	EXPECT_EQ(1, st.inside);
	EXPECT_EQ(IS_COMPAT, st.compat);
}

TEST_F(lit, reverse)
{
	char buf[LIT_MAX_LEN], want[LIT_MAX_LEN];
	struct lit_buf b = { .data = (uintptr_t)buf, .len = sizeof(buf) };
	unsigned int i;

	if (no_compat_path(_metadata, variant, self->fd, LIT_REVERSE, &b))
		return;
	for (i = 0; i < sizeof(buf); i++) {
		buf[i] = (char)(i * 7 + 3);
		want[sizeof(buf) - 1 - i] = buf[i];
	}
	ASSERT_EQ(0, ioctl(self->fd, LIT_REVERSE, &b));
	EXPECT_EQ(0, memcmp(buf, want, sizeof(buf)));

	b.len = 0;
	EXPECT_EQ(0, ioctl(self->fd, LIT_REVERSE, &b));
	b.len = LIT_MAX_LEN + 1;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_REVERSE, &b));
	EXPECT_EQ(EINVAL, errno);
	b.len = 3;
	b.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_REVERSE, &b));
	EXPECT_EQ(EINVAL, errno);
}

/* struct lit_legacy_buf has another size and layout for a 32-bit caller. */
TEST_F(lit, legacy_reverse)
{
	char buf[] = "locked-ioctl";
	struct lit_legacy_buf b = { .len = strlen(buf), .data = buf };

	if (no_compat_path(_metadata, variant, self->fd, LIT_LEGACY_REVERSE, &b))
		return;
	ASSERT_EQ(0, ioctl(self->fd, LIT_LEGACY_REVERSE, &b));
	EXPECT_STREQ("ltcoi-dekcol", buf);

	b.data = KERNEL_ADDR;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_LEGACY_REVERSE, &b));
	EXPECT_EQ(EFAULT, errno);
}

/* The native command number from a 32-bit caller and the reverse. */
TEST_F(lit, legacy_other_abi)
{
	char buf[16] = { 0 };
	unsigned long other = _IOC(_IOC_READ | _IOC_WRITE, LIT_IOC_MAGIC, 5,
				   IS_COMPAT ? 16 : 8);

	EXPECT_EQ(-1, ioctl(self->fd, other, buf));
	EXPECT_EQ(ENOTTY, errno);
}

TEST_F(lit, fail_paths)
{
	static const int errs[] = { EIO, EPERM, EBUSY, ENOSPC, EAGAIN };
	struct lit_fail f;
	unsigned int i, path;

	f.err = EIO;
	f.path = LIT_FAIL_AFTER_COPY;
	if (no_compat_path(_metadata, variant, self->fd, LIT_FAIL, &f))
		return;
	for (path = 0; path < LIT_FAIL_NR_PATHS; path++) {
		for (i = 0; i < ARRAY_SIZE(errs); i++) {
			f.err = errs[i];
			f.path = path;
			EXPECT_EQ(-1, ioctl(self->fd, LIT_FAIL, &f));
			EXPECT_EQ(errs[i], errno) TH_LOG("path %u", path);
		}
	}
	/* -ENOIOCTLCMD never reaches userspace: the VFS makes it -ENOTTY */
	f.err = 515;
	f.path = LIT_FAIL_AFTER_COPY;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_FAIL, &f));
	EXPECT_EQ(ENOTTY, errno);

	f.err = 0;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_FAIL, &f));
	EXPECT_EQ(EINVAL, errno);
	f.err = 512;	/* ERESTARTSYS: not for userspace */
	EXPECT_EQ(-1, ioctl(self->fd, LIT_FAIL, &f));
	EXPECT_EQ(EINVAL, errno);
	f.err = EIO;
	f.path = LIT_FAIL_NR_PATHS;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_FAIL, &f));
	EXPECT_EQ(EINVAL, errno);

	/* the failures left nobody inside and the device works */
	struct lit_state st;

	ASSERT_EQ(0, ioctl(self->fd, LIT_GET_STATE, &st));
	EXPECT_EQ(1, st.inside);
}

TEST_F(lit, unknown_commands)
{
	char buf[64] = { 0 };
	const unsigned long cmds[] = {
		_IO(LIT_IOC_MAGIC, 0),
		_IO(LIT_IOC_MAGIC, 99),
		_IOR(LIT_IOC_MAGIC, 1, char[3]),		/* wrong size */
		_IOW(LIT_IOC_MAGIC, 1, struct lit_state),	/* wrong direction */
		_IO(LIT_IOC_MAGIC + 1, 1),			/* wrong type */
		_IOWR(LIT_IOC_MAGIC, 4, char[sizeof(struct lit_buf) + 1]),
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		EXPECT_EQ(-1, ioctl(self->fd, cmds[i], buf)) TH_LOG("cmd %#lx", cmds[i]);
		EXPECT_EQ(ENOTTY, errno) TH_LOG("cmd %#lx", cmds[i]);
	}
}

TEST_F(lit, bad_pointers)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *page = page_before_hole();
	struct lit_buf b;
	unsigned int i;

	ASSERT_TRUE(!!page);
	if (no_compat_path(_metadata, variant, self->fd, LIT_GET_STATE, NULL))
		return;

	EXPECT_EQ(-1, ioctl(self->fd, LIT_GET_STATE, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, LIT_GET_STATE, (void *)1));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, LIT_GET_STATE, page + pg));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, LIT_GET_STATE, KERNEL_ADDR));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, LIT_SLEEP, page + pg));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, LIT_GET_STATS, KERNEL_ADDR));
	EXPECT_EQ(EFAULT, errno);

	/* struct lit_buf straddling the hole */
	EXPECT_EQ(-1, ioctl(self->fd, LIT_REVERSE, page + pg - 4));
	EXPECT_EQ(EFAULT, errno);

	/* a buffer that runs into the hole: refused, and nothing changed */
	for (i = 0; i < 64; i++)
		page[pg - 64 + i] = (char)i;
	b.data = (uintptr_t)(page + pg - 64);
	b.len = 128;
	b.flags = 0;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_REVERSE, &b));
	EXPECT_EQ(EFAULT, errno);
	for (i = 0; i < 64; i++)
		EXPECT_EQ((char)i, page[pg - 64 + i]);

	b.data = (uintptr_t)KERNEL_ADDR;
	b.len = 16;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_REVERSE, &b));
	EXPECT_EQ(EFAULT, errno);
	munmap(page, pg);
}

TEST_F(lit, sleep)
{
	unsigned int ms = 50;
	long long t0 = now_ms();

	if (no_compat_path(_metadata, variant, self->fd, LIT_SLEEP, &ms))
		return;
	ASSERT_EQ(0, ioctl(self->fd, LIT_SLEEP, &ms));
	EXPECT_LE(50, now_ms() - t0);
	ms = LIT_MAX_SLEEP_MS + 1;
	EXPECT_EQ(-1, ioctl(self->fd, LIT_SLEEP, &ms));
	EXPECT_EQ(EINVAL, errno);
}

struct hammer {
	int fd;
	int errors;
	pthread_t thread;
};

/* NITER calls that sleep 1 ms inside the handler. */
static void *hammer_fn(void *arg)
{
	struct hammer *h = arg;
	unsigned int ms = 1;
	int i;

	for (i = 0; i < NITER; i++)
		if (ioctl(h->fd, LIT_SLEEP, &ms))
			h->errors++;
	return NULL;
}

/* Run a hammer thread per fd; return the domain's stats read through stats_fd. */
static int hammer_run(int *fds, int n, int stats_fd, struct lit_stats *st)
{
	struct hammer h[16];
	int i, errors = 0;

	if (ioctl(stats_fd, LIT_RESET_STATS))
		return -1;
	for (i = 0; i < n; i++) {
		h[i].fd = fds[i];
		h[i].errors = 0;
		if (pthread_create(&h[i].thread, NULL, hammer_fn, &h[i]))
			return -1;
	}
	for (i = 0; i < n; i++) {
		pthread_join(h[i].thread, NULL);
		errors += h[i].errors;
	}
	if (errors)
		return -1;
	return ioctl(stats_fd, LIT_GET_STATS, st);
}

/* NTHREADS threads on one device: its lock lets one in at a time. */
TEST_F(lit, serialised)
{
	int fds[NTHREADS], i;
	struct lit_stats st;

	if (no_compat_path(_metadata, variant, self->fd, LIT_RESET_STATS, NULL))
		return;
	for (i = 0; i < NTHREADS; i++)
		fds[i] = self->fd;
	ASSERT_EQ(0, hammer_run(fds, NTHREADS, self->fd, &st));
	EXPECT_EQ(NTHREADS * NITER + 1, st.calls);
	EXPECT_EQ(0, st.inside);
	if (variant->kind == LIT_KIND_NOLOCK) {
		/* the control: without a lock the handlers do overlap */
		EXPECT_LT(0, st.overlaps);
		EXPECT_LT(1, st.max_inside);
	} else {
		EXPECT_EQ(0, st.overlaps);
		EXPECT_EQ(1, st.max_inside);
	}
}

/* The BKL serialises the handlers of different devices too. */
TEST(bkl_across_devices)
{
	static const char *const names[] = { "shim", "legacy", "bkl" };
	int n = IS_COMPAT ? 2 : 3;	/* lit_legacy has no compat path */
	int fds[6], i, bkl_fd;
	struct lit_stats st;

	for (i = 0; i < 2 * n; i++) {
		fds[i] = lit_open(names[IS_COMPAT && i % n == 1 ? 2 : i % n]);
		ASSERT_LE(0, fds[i]);
	}
	bkl_fd = lit_open("bkl");
	ASSERT_LE(0, bkl_fd);
	ASSERT_EQ(0, hammer_run(fds, 2 * n, bkl_fd, &st));
	EXPECT_EQ(2 * n * NITER + 1, st.calls);
	EXPECT_EQ(0, st.overlaps);
	EXPECT_EQ(1, st.max_inside);
	for (i = 0; i < 2 * n; i++)
		close(fds[i]);
	close(bkl_fd);
}

struct sleeper {
	int fd;
	unsigned int ms;
	int ret;
	pthread_t thread;
};

static void *sleeper_fn(void *arg)
{
	struct sleeper *s = arg;

	s->ret = ioctl(s->fd, LIT_SLEEP, &s->ms);
	return NULL;
}

/* Two mutex devices have two locks: one sleeping in one does not block the other. */
TEST(mutex_devices_independent)
{
	struct sleeper s = { .fd = lit_open("mutex"), .ms = 600 };
	int other = lit_open("mutex_intr");
	unsigned int zero = 0;
	long long t0;

	ASSERT_LE(0, s.fd);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, pthread_create(&s.thread, NULL, sleeper_fn, &s));
	usleep(50000);
	t0 = now_ms();
	EXPECT_EQ(0, ioctl(other, LIT_SLEEP, &zero));
	EXPECT_GT(400, now_ms() - t0);
	pthread_join(s.thread, NULL);
	EXPECT_EQ(0, s.ret);
	close(s.fd);
	close(other);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * With the lock held by a sleeping thread, a signal to a waiter: the
 * interruptible form returns -EINTR at once (no SA_RESTART), the plain form
 * waits for the lock and succeeds.  Returns how long the waiter waited.
 */
static long long waiter_with_signal(struct __test_metadata *_metadata,
				    const char *name, int *ret, int *err)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 300000 } };
	struct sleeper s = { .ms = 1200 };
	struct lit_state st;
	long long t0;
	int fd = lit_open(name);

	ASSERT_LE(0, fd);
	s.fd = fd;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, pthread_create(&s.thread, NULL, sleeper_fn, &s));
	usleep(100000);
	t0 = now_ms();
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	*ret = ioctl(fd, LIT_GET_STATE, &st);
	*err = errno;
	t0 = now_ms() - t0;
	pthread_join(s.thread, NULL);
	EXPECT_EQ(0, s.ret);
	/* the lock is free again and nobody is inside */
	EXPECT_EQ(0, ioctl(fd, LIT_GET_STATE, &st));
	EXPECT_EQ(1, st.inside);
	close(fd);
	return t0;
}

TEST(signal_interrupts_interruptible)
{
	int ret, err;
	long long waited = waiter_with_signal(_metadata, "mutex_intr", &ret, &err);

	EXPECT_EQ(-1, ret);
	EXPECT_EQ(EINTR, err);
	EXPECT_GT(900, waited);
}

TEST(signal_waits_for_plain_mutex)
{
	int ret, err;
	long long waited = waiter_with_signal(_metadata, "mutex", &ret, &err);

	EXPECT_EQ(0, ret);
	EXPECT_LE(700, waited);
}

static unsigned int rnd(unsigned int *seed)
{
	*seed = *seed * 1103515245 + 12345;
	return *seed >> 8;
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/*
 * Random commands, sizes and pointers on every device for a bounded time.
 * Each call must return 0 or a plain error, and afterwards nobody is inside
 * and the registry shows no BKL holder.
 */
TEST(fuzz)
{
	static const char *const names[] = {
		"shim", "legacy", "bkl", "mutex", "mutex_intr", "nolock" };
	static const unsigned int sizes[] = { 0, 1, 4, 8, 12, 16, 20, 24, 32, 100 };
	const char *env = getenv("LIT_FUZZ_SECONDS");
	int seconds = env ? atoi(env) : 3;
	unsigned int seed = getenv("LIT_SEED") ? atoi(getenv("LIT_SEED")) : time(NULL);
	long pg = sysconf(_SC_PAGESIZE);
	char *page = page_before_hole();
	unsigned long calls = 0, errors[4] = { 0 };
	/* out of tree, without the shim's devices: the other four */
	int first = getenv("LIT_NO_SHIM") ? 2 : 0;
	int fds[6], i;
	long long end;
	char holder[256];

	ASSERT_TRUE(!!page);
	TH_LOG("seed %u, %d s", seed, seconds);
	for (i = first; i < 6; i++) {
		fds[i] = lit_open(names[i]);
		ASSERT_LE(0, fds[i]);
	}
	end = now_ms() + seconds * 1000LL;
	while (now_ms() < end) {
		unsigned int r = rnd(&seed), size, dir, nr, type;
		unsigned long cmd;
		void *arg;
		int dev = first + r % (6 - first), fd = fds[dev], ret, e;

		dir = rnd(&seed) % 4;
		nr = rnd(&seed) % 10;
		type = rnd(&seed) % 8 ? LIT_IOC_MAGIC : LIT_IOC_MAGIC + 1;
		size = rnd(&seed) % 4 ? sizes[rnd(&seed) % 10] : rnd(&seed) % 16384;
		cmd = _IOC(dir, type, nr, size);
		for (i = 0; i < pg / 4; i++)
			((unsigned int *)page)[i] = rnd(&seed);
		switch (rnd(&seed) % 6) {
		case 0:
			arg = NULL;
			break;
		case 1:
			arg = KERNEL_ADDR;
			break;
		case 2:		/* the hole */
			arg = page + pg;
			break;
		case 3:		/* straddling it */
			arg = page + pg - 1 - rnd(&seed) % 32;
			break;
		default:
			arg = page;
			break;
		}
		/* keep LIT_SLEEP short: it is the one command that takes time */
		if (cmd == LIT_SLEEP && arg == page)
			*(unsigned int *)page %= 5;
		ret = ioctl(fd, cmd, arg);
		e = errno;
		calls++;
		if (ret == 0)
			continue;
		ASSERT_EQ(-1, ret);
		if (cmd == LIT_FAIL && e > 0 && e < 512)
			continue;	/* the errno it was asked for */
		switch (e) {
		case ENOTTY:
			errors[0]++;
			break;
		case EFAULT:
			errors[1]++;
			break;
		case EINVAL:
			errors[2]++;
			break;
		default:
			errors[3]++;
			TH_LOG("cmd %#lx arg %p on %s: %s", cmd, arg,
			       names[dev], strerror(e));
		}
	}
	TH_LOG("%lu calls: %lu ENOTTY, %lu EFAULT, %lu EINVAL, %lu other",
	       calls, errors[0], errors[1], errors[2], errors[3]);
	EXPECT_EQ(0, errors[3]);
	EXPECT_LT(0, errors[0]);
	EXPECT_LT(0, errors[1]);

	for (i = first; i < 6; i++) {
		struct lit_stats st;

		if (IS_COMPAT && i == 1)
			continue;
		ASSERT_EQ(0, ioctl(fds[i], LIT_GET_STATS, &st));
		EXPECT_EQ(0, st.inside) TH_LOG("%s", names[i]);
		close(fds[i]);
	}
	if (first) {
		TH_LOG("out of tree: no registry to ask for the BKL's holder");
		return;
	}
	if (read_file("/sys/kernel/debug/bkl/holder", holder, sizeof(holder)))
		SKIP(return, "no /sys/kernel/debug/bkl/holder");
	EXPECT_STREQ("none\n", holder);
}

/*
 * rmmod while a thread sleeps inside an ioctl: refused, since the open file
 * holds the module; once the file is closed the module unloads, and it is
 * loaded again from $LIT_MODULE.  Run it last (-t unload_while_inside).
 */
TEST(unload_while_inside)
{
	const char *ko = getenv("LIT_MODULE");
	struct sleeper s = { .ms = 800 };
	int ko_fd;

	s.fd = lit_open("bkl");
	ASSERT_LE(0, s.fd);
	ASSERT_EQ(0, pthread_create(&s.thread, NULL, sleeper_fn, &s));
	usleep(100000);
	EXPECT_EQ(-1, syscall(SYS_delete_module, "locked_ioctl_test", O_NONBLOCK));
	EXPECT_TRUE(errno == EWOULDBLOCK || errno == EBUSY) TH_LOG("%s", strerror(errno));
	pthread_join(s.thread, NULL);
	EXPECT_EQ(0, s.ret);
	close(s.fd);

	ASSERT_EQ(0, syscall(SYS_delete_module, "locked_ioctl_test", O_NONBLOCK))
		TH_LOG("%s", strerror(errno));
	EXPECT_GT(0, lit_open("bkl"));
	if (!ko)
		SKIP(return, "LIT_MODULE not set: not loaded again");
	ko_fd = open(ko, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, ko_fd);
	ASSERT_EQ(0, syscall(SYS_finit_module, ko_fd, "", 0)) TH_LOG("%s", strerror(errno));
	close(ko_fd);
	s.fd = lit_open("bkl");
	EXPECT_LE(0, s.fd);
	close(s.fd);
}

TEST_HARNESS_MAIN
