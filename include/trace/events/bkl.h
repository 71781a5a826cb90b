/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the Big Kernel Lock and of the locked ioctl wrappers: who
 * takes the lock, who waits for it and how long a section held it.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM bkl

#if !defined(_TRACE_BKL_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_BKL_H

#include <linux/bkl_user.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

/* Names are copied into the event: a module's strings may be gone when read. */
#define BKL_TRACE_NAME_LEN	48
#define BKL_TRACE_LOCK_LEN	32

DECLARE_EVENT_CLASS(bkl_user_event,
		    TP_PROTO(const struct bkl_user *user, unsigned int depth,
			     u64 held_ns, unsigned long ip),
		    TP_ARGS(user, depth, held_ns, ip),
		    TP_STRUCT__entry(__array(char, user, BKL_TRACE_NAME_LEN)
				     __array(char, lock, BKL_TRACE_LOCK_LEN)
				     __field(unsigned int, depth)
				     __field(u64, held_ns)
				     __field(unsigned long, ip)),
		    TP_fast_assign(strscpy(__entry->user,
					   user ? user->name : "unannotated",
					   BKL_TRACE_NAME_LEN);
				   strscpy(__entry->lock,
					   user ? bkl_user_field(user, "lock") : "BKL",
					   BKL_TRACE_LOCK_LEN);
				   __entry->depth = depth;
				   __entry->held_ns = held_ns;
				   __entry->ip = ip;),
		    TP_printk("user=%s lock=%s depth=%u held_ns=%llu caller=%pS",
			      __entry->user, __entry->lock, __entry->depth,
			      (unsigned long long)__entry->held_ns,
			      (void *)__entry->ip)
);

/*
 * Each event turns on, while it is on, the static key its inline callers
 * test: &bkl_traced for the BKL's, &locked_ioctl_traced for the wrappers'
 * (see <linux/smp_lock.h> and <linux/locked_ioctl_hooks.h>).
 */
int bkl_trace_reg(void);
void bkl_trace_unreg(void);
int locked_ioctl_trace_reg(void);
void locked_ioctl_trace_unreg(void);

#define DEFINE_BKL_USER_EVENT(event, reg, unreg)			\
	DEFINE_EVENT_FN(bkl_user_event, event,				\
			TP_PROTO(const struct bkl_user *user, unsigned int depth, \
				 u64 held_ns, unsigned long ip),	\
			TP_ARGS(user, depth, held_ns, ip), reg, unreg)

/* The BKL was taken, at @depth; @user is NULL for an unannotated user. */
DEFINE_BKL_USER_EVENT(lock_kernel, bkl_trace_reg, bkl_trace_unreg);

/* The BKL is held by another task: @user is about to wait for it. */
DEFINE_BKL_USER_EVENT(lock_kernel_contended, bkl_trace_reg, bkl_trace_unreg);

/*
 * One level of the BKL is about to be dropped; @held_ns is the length of
 * @user's section when this ends it, 0 otherwise.
 */
DEFINE_BKL_USER_EVENT(unlock_kernel, bkl_trace_reg, bkl_trace_unreg);

/* A locked ioctl wrapper took the driver's lock for @user. */
DEFINE_BKL_USER_EVENT(driver_lock, locked_ioctl_trace_reg,
		      locked_ioctl_trace_unreg);

/* A locked ioctl wrapper found the driver's lock taken and waits for it. */
DEFINE_BKL_USER_EVENT(driver_lock_contended, locked_ioctl_trace_reg,
		      locked_ioctl_trace_unreg);

/* A locked ioctl wrapper drops the driver's lock after @held_ns. */
DEFINE_BKL_USER_EVENT(driver_unlock, locked_ioctl_trace_reg,
		      locked_ioctl_trace_unreg);

#endif /* _TRACE_BKL_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
