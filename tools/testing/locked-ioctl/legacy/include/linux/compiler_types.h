/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 2.6.34 stand-in for make check-legacy: the types are in <linux/compiler.h>. */
#include <linux/compiler.h>
