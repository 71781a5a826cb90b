/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 2.6.34 stand-in for make check-legacy: no static key is ever on. */
#ifndef _LOCKED_IOCTL_LEGACY_JUMP_LABEL_H
#define _LOCKED_IOCTL_LEGACY_JUMP_LABEL_H

struct static_key_false {
	int enabled;
};

#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
#define static_branch_unlikely(key) (0 && (key)->enabled)

#endif /* _LOCKED_IOCTL_LEGACY_JUMP_LABEL_H */
