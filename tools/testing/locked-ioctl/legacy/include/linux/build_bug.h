/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 2.6.34 stand-in for make check-legacy: static_assert() is in compat.h. */
#include <linux/kernel.h>
