/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 2.6.34 stand-in for make check-legacy: EXPORT_SYMBOL() is in <linux/module.h>. */
#include <linux/module.h>
