/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BKL users: the record that names each remaining dependency on the Big Kernel
 * Lock, or on a driver lock that replaced it.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * See Documentation/locking/locked-ioctl.rst, "Finding the BKL users".
 */
#ifndef _LINUX_BKL_USER_H
#define _LINUX_BKL_USER_H

#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/lockdep.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/types.h>

struct module;

/**
 * DOC: BKL users
 *
 * Every user of the layer carries a &struct bkl_user: the generators of
 * <linux/locked_ioctl.h> define one for the function they define,
 * DEFINE_BKL_SHIM_USER() declares a driver on the deprecated_ioctl shim and
 * DEFINE_BKL_USER() a direct lock_kernel_user() caller.  Each definition
 * leaves three traces, one per way of listing the users:
 *
 * - in the source, the generator's name, which scripts/bkl-users finds;
 * - in the object, a NUL-separated ``key=value`` record in the ELF section
 *   ``__bkl_users_info`` of vmlinux or the module, which
 *   ``scripts/bkl-users --objects`` reads without running anything;
 * - at run time, a pointer in the section ``__bkl_users``, through which the
 *   registry lists the user, its counters and the BKL's holder in
 *   /sys/kernel/debug/bkl/ (``scripts/bkl-users --runtime``).
 *
 * With CONFIG_DEBUG_LOCK_ALLOC each user also has a lockdep map of its own,
 * named ``module:name``, which is held while the handler runs.  A lockdep
 * report about a dependency taken inside a BKL section therefore names the
 * driver, and not only ``kernel_lock_mutex``.
 */

/**
 * enum bkl_user_kind - what a BKL user depends on
 * @BKL_USER_IOCTL: an ioctl handler run under the BKL by DEFINE_BKL_IOCTL()
 *	and its BKL relatives
 * @BKL_USER_SHIM: an old-style handler run under the BKL by deprecated_ioctl()
 * @BKL_USER_DIRECT: code that takes the BKL itself, with lock_kernel_user()
 * @BKL_USER_REPLACEMENT: a handler run under a driver's own lock, which
 *	replaced the BKL, by DEFINE_LOCKED_IOCTL() and its relatives
 */
enum bkl_user_kind {
	BKL_USER_IOCTL,
	BKL_USER_SHIM,
	BKL_USER_DIRECT,
	BKL_USER_REPLACEMENT,
};

/* The names scripts/bkl-users prints for enum bkl_user_kind. */
#define __BKL_KIND_NAME_IOCTL		"bkl-ioctl"
#define __BKL_KIND_NAME_SHIM		"bkl-shim"
#define __BKL_KIND_NAME_DIRECT		"bkl-direct"
#define __BKL_KIND_NAME_REPLACEMENT	"replacement"

/**
 * struct bkl_user - one remaining dependency on the BKL or its replacement
 * @name: ``module:name``, the name of the generated function or declaration;
 *	it points into @info
 * @info: the record also found in the object: NUL-separated ``key=value``
 *	fields (bkl_user, kind, file, line, handler, lock, module), read with
 *	bkl_user_field()
 * @fn: the handler's address, by which deprecated_ioctl() finds a shim user
 * @line: the line of the definition
 * @kind: what the user depends on
 * @hits: how often the lock was taken for this user
 * @contended: how often the user had to wait for the lock
 * @max_hold_ns: the longest time a section of this user held the lock
 *	(the three counters stay 0 without CONFIG_BKL_USER_STATS)
 * @since: when the section of a DEFINE_DRIVER_LOCK_USER() record that holds
 *	its mutex began, for the hold time; written and read under that mutex
 * @dep_map: the user's lockdep identity
 *
 * Define one with the macros of <linux/locked_ioctl.h> or with
 * DEFINE_BKL_USER()/DEFINE_BKL_SHIM_USER(), never by hand.  The record is
 * shared by every task that runs the user; which sections a task is in is
 * kept by the BKL holder (&struct bkl_saved while it sleeps).  The counters
 * are statistics, read without locking; /sys/kernel/debug/bkl/reset clears
 * them.
 */
struct bkl_user {
	const char		*name;
	const char		*info;
	const void		*fn;
	unsigned int		line;
	enum bkl_user_kind	kind;
	atomic_long_t		hits;
	atomic_long_t		contended;
	atomic64_t		max_hold_ns;
	u64			since;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	struct lockdep_map	dep_map;
#endif
};

#ifdef KBUILD_MODNAME
#define __BKL_USER_MODNAME	KBUILD_MODNAME
#else
#define __BKL_USER_MODNAME	"unknown"
#endif

#ifdef CONFIG_DEBUG_LOCK_ALLOC
/*
 * The map's key is the record's address: a static object, so lockdep accepts
 * it, and one class per user.
 */
#define __BKL_USER_DEP_MAP_INIT(var, uname)				\
	, .dep_map = STATIC_LOCKDEP_MAP_INIT(uname, &(var))
#else
#define __BKL_USER_DEP_MAP_INIT(...)
#endif

/*
 * __DEFINE_BKL_USER() - define the record prefix##var, named "module:var".
 * @ukind is the end of a BKL_USER_* name; @uhandler and @ulock are strings;
 * @ufn is SELF for a shim user, whose @var is its handler, NONE otherwise.
 * The info string is what scripts/bkl-users --objects reads: it has no
 * relocations and is aligned to one byte, so that the records follow each
 * other in the section.  The record's name points into it.
 */
#define __BKL_USER_NAME(info)	((info) + sizeof("bkl_user=") - 1)
/* The handler address of a record: a shim user's is the record's @var. */
#define __BKL_USER_FN_SELF(var)	var
#define __BKL_USER_FN_NONE(...)	NULL
#define __DEFINE_BKL_USER(prefix, var, ukind, uhandler, ulock, ufn)	\
	static const char __bkl_user_info_##prefix##var[]		\
		__used __section("__bkl_users_info") __aligned(1) =	\
		"bkl_user=" __BKL_USER_MODNAME ":" #var "\0"		\
		"kind=" __BKL_KIND_NAME_##ukind "\0"			\
		"file=" __FILE__ "\0"					\
		"line=" __stringify(__LINE__) "\0"			\
		"handler=" uhandler "\0"				\
		"lock=" ulock "\0"					\
		"module=" __BKL_USER_MODNAME "\0";			\
	static struct bkl_user prefix##var = {				\
		.name = __BKL_USER_NAME(__bkl_user_info_##prefix##var),	\
		.info = __bkl_user_info_##prefix##var,			\
		.fn = __BKL_USER_FN_##ufn(var),				\
		.line = __LINE__,					\
		.kind = BKL_USER_##ukind				\
		__BKL_USER_DEP_MAP_INIT(prefix##var,			\
			__BKL_USER_NAME(__bkl_user_info_##prefix##var))	\
	};								\
	static struct bkl_user *const __bkl_user_ptr_##prefix##var	\
		__used __section("__bkl_users") = &prefix##var

/**
 * DEFINE_BKL_USER() - declare code that takes the BKL itself
 * @name: name of the record to define, used with lock_kernel_user()
 * @func: the function that takes the BKL as this user
 *
 * For a driver that calls lock_kernel() outside of an ioctl wrapper, in
 * open() for example.  Taking the BKL through lock_kernel_user() instead
 * names the driver in lockdep reports, in the tracepoints and in
 * /sys/kernel/debug/bkl/, and scripts/bkl-users lists it.
 *
 * Example::
 *
 *	DEFINE_BKL_USER(foo_open_bkl, foo_open);
 *
 *	static int foo_open(struct inode *inode, struct file *file)
 *	{
 *		lock_kernel_user(&foo_open_bkl);
 *		...
 *		unlock_kernel_user(&foo_open_bkl);
 *	}
 */
#define DEFINE_BKL_USER(name, func)					\
	__DEFINE_BKL_USER(, name, DIRECT, #func, "BKL", NONE)

/*
 * Out of tree, against a kernel without the layer (CONFIG_BKL_MODULE), there
 * is no &file_operations.locked_ioctl for the shim to call.
 */
#define __BKL_NO_SHIM_MSG						\
	"the deprecated_ioctl shim needs file_operations.locked_ioctl, "	\
	"which only a kernel with the layer applied has (make apply): "	\
	"out of tree, convert the driver with DEFINE_BKL_IOCTL() "	\
	"(scripts/bkl-migrate without --shim)"

/**
 * DEFINE_BKL_SHIM_USER() - declare a driver on the deprecated_ioctl shim
 * @fn: the driver's &file_operations.locked_ioctl handler
 *
 * deprecated_ioctl() finds the record by @fn, so the driver's handler runs
 * under its own name, as with DEFINE_BKL_IOCTL().  A shim user without it
 * still works, counted as unannotated.
 *
 * Example::
 *
 *	static int foo_ioctl(struct inode *inode, struct file *file,
 *			     unsigned int cmd, unsigned long arg);
 *	DEFINE_BKL_SHIM_USER(foo_ioctl);
 *
 *	static const struct file_operations foo_fops = {
 *		.unlocked_ioctl	= deprecated_ioctl,
 *		.locked_ioctl	= foo_ioctl,
 *	};
 */
#ifdef CONFIG_BKL_MODULE
/* Out of tree the shim cannot work: say so where the driver declares it. */
#define DEFINE_BKL_SHIM_USER(fn)					\
	static_assert(sizeof(#fn) == 0, __BKL_NO_SHIM_MSG)
#else
#define DEFINE_BKL_SHIM_USER(fn)					\
	__DEFINE_BKL_USER(__bkl_shim_, fn, SHIM, #fn, "BKL", SELF)
#endif

/*
 * The user's lockdep identity, held while its section runs: by the BKL in
 * lib/kernel_lock.c, by the generic wrappers in lib/locked_ioctl.c.
 */
static inline void bkl_user_map_acquire(struct bkl_user *user, unsigned long ip)
{
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_acquire_exclusive(&user->dep_map, 0, 0, NULL, ip);
#endif
}

static inline void bkl_user_map_release(struct bkl_user *user, unsigned long ip)
{
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	lock_release(&user->dep_map, ip);
#endif
}

/* The counters of a user, with CONFIG_BKL_USER_STATS; nothing without. */
static inline void bkl_user_count_hit(struct bkl_user *user)
{
#ifdef CONFIG_BKL_USER_STATS
	atomic_long_inc(&user->hits);
#endif
}

static inline void bkl_user_count_contended(struct bkl_user *user)
{
#ifdef CONFIG_BKL_USER_STATS
	atomic_long_inc(&user->contended);
#endif
}

/**
 * bkl_user_field() - one field of a user's record
 * @user: the user
 * @key: the field: "kind", "file", "line", "handler", "lock" or "module"
 *
 * Context: Any context.
 * Return: the field's value as written in the source, "" when there is none.
 */
static inline const char *bkl_user_field(const struct bkl_user *user,
					 const char *key)
{
	size_t len = strlen(key);
	const char *p;

	for (p = user->info; *p; p += strlen(p) + 1)
		if (!strncmp(p, key, len) && p[len] == '=')
			return p + len + 1;
	return "";
}

/**
 * __bkl_user_account_hold() - record the length of one section of a user
 * @user: the user
 * @ns: how long the section held the lock
 *
 * Keeps the longest; sections of one replacement user under different
 * per-device locks may race here, hence the cmpxchg loop.  The BKL and the
 * wrappers' hooks call it with CONFIG_BKL_USER_STATS.
 *
 * Context: Any context.
 */
static inline void __bkl_user_account_hold(struct bkl_user *user, u64 ns)
{
	s64 old = atomic64_read(&user->max_hold_ns), seen;

	/* atomic64_cmpxchg(), not _try_: the 2.6.x trees have only this one */
	while ((u64)old < ns) {
		seen = atomic64_cmpxchg(&user->max_hold_ns, old, ns);
		if (seen == old)
			break;
		old = seen;
	}
}

#ifdef CONFIG_BKL_REGISTRY
/* vmlinux's users, between the bounds the linker script puts around them */
extern struct bkl_user *const __start___bkl_users[];
extern struct bkl_user *const __stop___bkl_users[];

struct bkl_user *bkl_users_iterate(bool (*fn)(struct bkl_user *, void *),
				   void *data);
struct bkl_user *bkl_user_find(const char *name);
struct bkl_user *bkl_user_find_handler(const void *fn);
int bkl_user_format(const struct bkl_user *user, char *buf, size_t size);
void bkl_users_reset(void);
int bkl_users_add_block(const void *owner, struct bkl_user *const *users,
			unsigned int num);
void bkl_users_del_block(const void *owner);
#else
static inline struct bkl_user *bkl_user_find(const char *name)
{
	return NULL;
}

static inline struct bkl_user *bkl_user_find_handler(const void *fn)
{
	return NULL;
}
#endif

#endif /* _LINUX_BKL_USER_H */
