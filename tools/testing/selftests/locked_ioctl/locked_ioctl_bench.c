// SPDX-License-Identifier: GPL-2.0
/*
 * locked_ioctl_bench: the userspace round trip of the benchmark driver
 * (CONFIG_LOCKED_IOCTL_BENCH): ns per ioctl for each variant it has, with 1
 * to N threads on one device ("same") and on one device each ("diff").
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * Prints one line per measurement, for tools/testing/locked-ioctl/bench:
 *
 *	user <variant> <same|diff> <threads> <rep> <ns per ioctl>
 *
 * where ns per ioctl is the wall time of the run divided by the ioctls each
 * thread made: what one ioctl costs a thread while the others run too.
 * Exit codes: 0 done; 1 an ioctl failed; 2 usage error or no device.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "locked_ioctl_bench.h"

static const char *const all_variants[] = {
	"bare", "hand", "generic", "bkl", "shim",
};

struct worker {
	pthread_t thread;
	pthread_barrier_t *start;
	int fd;
	unsigned long iters;
	unsigned long work;
	unsigned long long t0, t1;	/* its own first and last ioctl */
	int err;
};

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	unsigned long i;

	pthread_barrier_wait(w->start);
	w->t0 = now_ns();
	for (i = 0; i < w->iters; i++) {
		if (ioctl(w->fd, LITB_WORK, w->work)) {
			w->err = errno;
			break;
		}
	}
	w->t1 = now_ns();
	return NULL;
}

static int open_dev(const char *variant, unsigned int n)
{
	char path[64];

	snprintf(path, sizeof(path), "/dev/litb_%s%u", variant, n);
	return open(path, O_RDWR);
}

/*
 * One run: @threads threads, each @iters ioctls; returns ns per ioctl, from
 * the first thread's start to the last one's end.  Each thread reads the
 * clock itself: on one CPU the threads may be done before the main thread
 * returns from the barrier.
 */
static double run(const char *variant, int diff, unsigned int threads,
		  unsigned long iters, unsigned long work)
{
	struct worker w[LITB_NR_DEVS];
	pthread_barrier_t start;
	unsigned long long t0, t1;
	unsigned int i;
	int failed = 0;

	pthread_barrier_init(&start, NULL, threads + 1);
	for (i = 0; i < threads; i++) {
		w[i] = (struct worker){ .start = &start, .iters = iters, .work = work };
		w[i].fd = open_dev(variant, diff ? i : 0);
		if (w[i].fd < 0) {
			fprintf(stderr, "locked_ioctl_bench: /dev/litb_%s%u: %s\n",
				variant, diff ? i : 0, strerror(errno));
			exit(2);
		}
		if (pthread_create(&w[i].thread, NULL, worker_run, &w[i])) {
			fprintf(stderr, "locked_ioctl_bench: cannot start a thread\n");
			exit(2);
		}
	}
	pthread_barrier_wait(&start);
	for (i = 0; i < threads; i++)
		pthread_join(w[i].thread, NULL);
	t0 = w[0].t0;
	t1 = w[0].t1;
	for (i = 0; i < threads; i++) {
		if (w[i].t0 < t0)
			t0 = w[i].t0;
		if (w[i].t1 > t1)
			t1 = w[i].t1;
		if (w[i].err) {
			fprintf(stderr, "locked_ioctl_bench: %s: LITB_WORK: %s\n",
				variant, strerror(w[i].err));
			failed = 1;
		}
		close(w[i].fd);
	}
	pthread_barrier_destroy(&start);
	if (failed)
		exit(1);
	return (double)(t1 - t0) / iters;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: locked_ioctl_bench [-n ITERS] [-r REPS] [-w WORK] [-t MAX_THREADS] [VARIANT]...\n"
		"Time LITB_WORK ioctls on /dev/litb_<VARIANT>N (default: every variant present)\n"
		"with 1, 2, ... MAX_THREADS threads (powers of two, at most %d; default 4), on\n"
		"one device and on one device per thread.  -n ioctls per thread and run\n"
		"(default 20000), -r repetitions (default 5), -w the handler's work per call\n"
		"(default 0).  Prints: user VARIANT same|diff THREADS REP NS_PER_IOCTL\n",
		LITB_NR_DEVS);
}

int main(int argc, char **argv)
{
	unsigned long iters = 20000, work = 0;
	unsigned int reps = 5, max_threads = 4, rep, t, v, nv = 0;
	const char *variants[16];
	int opt, diff;

	while ((opt = getopt(argc, argv, "n:r:w:t:h")) != -1) {
		switch (opt) {
		case 'n':
			iters = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			reps = strtoul(optarg, NULL, 0);
			break;
		case 'w':
			work = strtoul(optarg, NULL, 0);
			break;
		case 't':
			max_threads = strtoul(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!iters || !reps || !max_threads || max_threads > LITB_NR_DEVS ||
	    work > LITB_MAX_WORK || argc - optind > 16) {
		usage(stderr);
		return 2;
	}
	for (; optind < argc; optind++)
		variants[nv++] = argv[optind];
	if (!nv) {
		for (v = 0; v < sizeof(all_variants) / sizeof(*all_variants); v++) {
			int fd = open_dev(all_variants[v], 0);

			if (fd < 0)
				continue;
			close(fd);
			variants[nv++] = all_variants[v];
		}
	}
	if (!nv) {
		fprintf(stderr,
			"locked_ioctl_bench: no /dev/litb_* device: load locked_ioctl_bench.ko\n");
		return 2;
	}

	/*
	 * A warm-up run of each variant, not reported: the first ioctls of a
	 * fresh guest pay for its caches and, under TCG, for translating the
	 * code they run.
	 */
	for (v = 0; v < nv; v++)
		run(variants[v], 0, 1, iters, work);
	/* repetitions outermost, so that a slow phase of the host hits all */
	for (rep = 0; rep < reps; rep++)
		for (v = 0; v < nv; v++)
			for (t = 1; t <= max_threads; t *= 2)
				for (diff = 0; diff <= (t > 1); diff++)
					printf("user %s %s %u %u %.1f\n", variants[v],
					       diff ? "diff" : "same", t, rep,
					       run(variants[v], diff, t, iters, work));
	return 0;
}
