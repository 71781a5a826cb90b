/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 2.6.34 stand-in for make check-legacy: <linux/atomic.h> was <asm/atomic.h>. */
#include <asm/atomic.h>
