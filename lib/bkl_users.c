// SPDX-License-Identifier: GPL-2.0
/*
 * The registry of BKL users: every &struct bkl_user of vmlinux and of the
 * loaded modules, listed with its counters in /sys/kernel/debug/bkl/.
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * See Documentation/locking/locked-ioctl.rst and include/linux/bkl_user.h.
 */
#include <linux/bkl_user.h>
#include <linux/debugfs.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#ifdef CONFIG_BKL
#include <linux/smp_lock.h>
#endif

/**
 * struct bkl_users_block - the users of one module
 * @node: entry in bkl_users_blocks
 * @owner: the module, or the test that added the block
 * @users: its __bkl_users section
 * @num: the number of entries in @users
 * @rcu: for freeing after readers are done
 */
struct bkl_users_block {
	struct list_head node;
	const void *owner;
	struct bkl_user *const *users;
	unsigned int num;
	struct rcu_head rcu;
};

/* Readers walk the list under RCU; writers hold bkl_users_mutex. */
static LIST_HEAD(bkl_users_blocks);
static DEFINE_MUTEX(bkl_users_mutex);

static const char *const bkl_user_kind_names[] = {
	[BKL_USER_IOCTL]	= __BKL_KIND_NAME_IOCTL,
	[BKL_USER_SHIM]		= __BKL_KIND_NAME_SHIM,
	[BKL_USER_DIRECT]	= __BKL_KIND_NAME_DIRECT,
	[BKL_USER_REPLACEMENT]	= __BKL_KIND_NAME_REPLACEMENT,
};

/**
 * bkl_users_iterate() - call a function for every registered user
 * @fn: called for each user until it returns true; must not sleep
 * @data: passed to @fn
 *
 * Context: Any context but NMI.  @fn runs under rcu_read_lock().
 * Return: the user for which @fn returned true, or NULL.
 */
struct bkl_user *bkl_users_iterate(bool (*fn)(struct bkl_user *, void *),
				   void *data)
{
	struct bkl_user *const *pos;
	struct bkl_users_block *block;
	struct bkl_user *found = NULL;
	unsigned int i;

	for (pos = __start___bkl_users; pos < __stop___bkl_users; pos++)
		if (fn(*pos, data))
			return *pos;
	rcu_read_lock();
	list_for_each_entry_rcu(block, &bkl_users_blocks, node) {
		for (i = 0; i < block->num; i++) {
			if (fn(block->users[i], data)) {
				found = block->users[i];
				goto out;
			}
		}
	}
out:
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL_GPL(bkl_users_iterate);

static bool bkl_user_has_name(struct bkl_user *user, void *name)
{
	return !strcmp(user->name, name);
}

/**
 * bkl_user_find() - look a user up by name
 * @name: ``module:name``, as /sys/kernel/debug/bkl/users prints it
 *
 * Context: Any context but NMI.
 * Return: the user, or NULL.
 */
struct bkl_user *bkl_user_find(const char *name)
{
	return bkl_users_iterate(bkl_user_has_name, (void *)name);
}
EXPORT_SYMBOL_GPL(bkl_user_find);

static bool bkl_user_is_shim_of(struct bkl_user *user, void *fn)
{
	return user->kind == BKL_USER_SHIM && user->fn == fn;
}

/*
 * The last shim user bkl_user_find_handler() found: deprecated_ioctl() runs
 * it on every call, and a driver's ioctls come in runs.  It is read and
 * written under rcu_read_lock() only, and bkl_users_del_block() takes a
 * user of the block it removes out of it, so it never outlives its record.
 * The records never change once registered: no ordering beyond that.
 */
static struct bkl_user *bkl_shim_last;

/* Is @user a record of @block? */
static bool bkl_users_block_has(const struct bkl_users_block *block,
				const struct bkl_user *user)
{
	unsigned int i;

	for (i = 0; i < block->num; i++)
		if (block->users[i] == user)
			return true;
	return false;
}

/**
 * bkl_user_find_handler() - look up the shim user of a locked_ioctl handler
 * @fn: the handler
 *
 * How deprecated_ioctl() learns which driver it runs.  The user found last
 * is kept, and a call for the same handler takes it without walking the
 * registry; the walk reads only the records, so concurrent ioctls share
 * every cache line it touches.
 *
 * Context: Any context but NMI.
 * Return: the user DEFINE_BKL_SHIM_USER() defined for @fn, or NULL.
 */
struct bkl_user *bkl_user_find_handler(const void *fn)
{
	struct bkl_user *user;

	rcu_read_lock();
	user = READ_ONCE(bkl_shim_last);
	if (!user || user->fn != fn) {
		user = bkl_users_iterate(bkl_user_is_shim_of, (void *)fn);
		if (user)
			WRITE_ONCE(bkl_shim_last, user);
	}
	rcu_read_unlock();
	return user;
}
EXPORT_SYMBOL_GPL(bkl_user_find_handler);

/**
 * bkl_user_format() - one user as a line of /sys/kernel/debug/bkl/users
 * @user: the user
 * @buf: where to write the line, without a newline
 * @size: the size of @buf
 *
 * The fields are separated by tabs, in the order of the file's header: name,
 * kind, lock, hits, contended, max_hold_ns, file, line, handler.
 *
 * Context: Any context.
 * Return: the length of the line, as snprintf() returns it.
 */
int bkl_user_format(const struct bkl_user *user, char *buf, size_t size)
{
	const char *kind = "?";

	if (user->kind < ARRAY_SIZE(bkl_user_kind_names))
		kind = bkl_user_kind_names[user->kind];
	return snprintf(buf, size, "%s\t%s\t%s\t%lu\t%lu\t%llu\t%s\t%u\t%s",
			user->name, kind, bkl_user_field(user, "lock"),
			atomic_long_read(&user->hits),
			atomic_long_read(&user->contended),
			(unsigned long long)atomic64_read(&user->max_hold_ns),
			bkl_user_field(user, "file"), user->line,
			bkl_user_field(user, "handler"));
}
EXPORT_SYMBOL_GPL(bkl_user_format);

#define BKL_USERS_HEADER \
	"# name\tkind\tlock\thits\tcontended\tmax_hold_ns\tfile\tline\thandler"

static bool bkl_user_reset_one(struct bkl_user *user, void *unused)
{
	atomic_long_set(&user->hits, 0);
	atomic_long_set(&user->contended, 0);
	atomic64_set(&user->max_hold_ns, 0);
	return false;
}

/**
 * bkl_users_reset() - set every user's counters back to 0
 *
 * Context: Any context but NMI.
 */
void bkl_users_reset(void)
{
	bkl_users_iterate(bkl_user_reset_one, NULL);
#ifdef CONFIG_BKL
	bkl_reset_unannotated_count();
#endif
}
EXPORT_SYMBOL_GPL(bkl_users_reset);

/**
 * bkl_users_add_block() - register the users of a module
 * @owner: the module, the key for bkl_users_del_block()
 * @users: the module's __bkl_users section
 * @num: the number of entries in @users
 *
 * Called by the module notifier below; KUnit adds blocks of its own.
 *
 * Context: Process context; sleeps.
 * Return: 0, or -ENOMEM.
 */
int bkl_users_add_block(const void *owner, struct bkl_user *const *users,
			unsigned int num)
{
	struct bkl_users_block *block;

	block = kzalloc(sizeof(*block), GFP_KERNEL);
	if (!block)
		return -ENOMEM;
	block->owner = owner;
	block->users = users;
	block->num = num;
	mutex_lock(&bkl_users_mutex);
	list_add_tail_rcu(&block->node, &bkl_users_blocks);
	mutex_unlock(&bkl_users_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(bkl_users_add_block);

/**
 * bkl_users_del_block() - unregister the users bkl_users_add_block() added
 * @owner: as given to bkl_users_add_block()
 *
 * Waits until no reader can see the users any more.
 *
 * Context: Process context; sleeps.
 */
void bkl_users_del_block(const void *owner)
{
	struct bkl_users_block *block, *found = NULL;
	struct bkl_user *last;

	mutex_lock(&bkl_users_mutex);
	list_for_each_entry(block, &bkl_users_blocks, node) {
		if (block->owner == owner) {
			found = block;
			list_del_rcu(&block->node);
			break;
		}
	}
	mutex_unlock(&bkl_users_mutex);
	if (!found)
		return;
	/*
	 * Once no reader walks the block, none can put one of its users into
	 * bkl_shim_last; take it out there, and wait for those that read it.
	 */
	synchronize_rcu();
	last = READ_ONCE(bkl_shim_last);
	if (bkl_users_block_has(found, last)) {
		/* Another user put there since stays: it is not of this block. */
		cmpxchg(&bkl_shim_last, last, NULL);
		synchronize_rcu();
	}
	kfree(found);
}
EXPORT_SYMBOL_GPL(bkl_users_del_block);

#ifdef CONFIG_MODULES
static int bkl_users_module_notify(struct notifier_block *nb,
				   unsigned long state, void *data)
{
	struct module *mod = data;

	if (!mod->num_bkl_users)
		return NOTIFY_DONE;
	switch (state) {
	case MODULE_STATE_COMING:
		if (bkl_users_add_block(mod, mod->bkl_users, mod->num_bkl_users))
			return notifier_from_errno(-ENOMEM);
		break;
	case MODULE_STATE_GOING:
		bkl_users_del_block(mod);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block bkl_users_module_nb = {
	.notifier_call = bkl_users_module_notify,
};

static int __init bkl_users_modules_init(void)
{
	return register_module_notifier(&bkl_users_module_nb);
}
core_initcall(bkl_users_modules_init);
#endif

#ifdef CONFIG_DEBUG_FS
static bool bkl_users_show_one(struct bkl_user *user, void *m)
{
	char line[256];

	bkl_user_format(user, line, sizeof(line));
	seq_printf(m, "%s\n", line);
	return false;
}

static int bkl_users_show(struct seq_file *m, void *v)
{
	seq_puts(m, BKL_USERS_HEADER "\n");
	bkl_users_iterate(bkl_users_show_one, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bkl_users);

static ssize_t bkl_users_reset_write(struct file *file, const char __user *buf,
				     size_t count, loff_t *ppos)
{
	bkl_users_reset();
	return count;
}

static const struct file_operations bkl_users_reset_fops = {
	.write	= bkl_users_reset_write,
	.llseek	= noop_llseek,
};

#ifdef CONFIG_BKL
static int bkl_holder_show(struct seq_file *m, void *v)
{
	struct bkl_holder holder;

	if (!bkl_get_holder(&holder)) {
		seq_puts(m, "none\n");
		return 0;
	}
	seq_printf(m, "pid %d comm %s depth %u user %s held_ns %llu\n",
		   holder.pid, holder.comm, holder.depth,
		   holder.user ?: "unannotated",
		   (unsigned long long)holder.held_ns);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bkl_holder);

static int bkl_unannotated_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%lu\n", bkl_unannotated_count());
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bkl_unannotated);
#endif

static int __init bkl_users_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("bkl", NULL);

	debugfs_create_file("users", 0444, dir, NULL, &bkl_users_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &bkl_users_reset_fops);
#ifdef CONFIG_BKL
	debugfs_create_file("holder", 0444, dir, NULL, &bkl_holder_fops);
	debugfs_create_file("unannotated", 0444, dir, NULL,
			    &bkl_unannotated_fops);
#endif
	return 0;
}
late_initcall(bkl_users_debugfs_init);
#endif /* CONFIG_DEBUG_FS */
