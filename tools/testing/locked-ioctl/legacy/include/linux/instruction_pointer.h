/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 2.6.34 stand-in for make check-legacy: _THIS_IP_ is in <linux/kernel.h>. */
#include <linux/kernel.h>
