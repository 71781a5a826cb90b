/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 2.6.34 stand-in for make check-legacy: no static key is ever on. */
struct static_key_false {
	int enabled;
};

#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
#define static_branch_unlikely(key) (0 && (key)->enabled)
