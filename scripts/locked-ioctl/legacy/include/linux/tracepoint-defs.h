/* SPDX-License-Identifier: GPL-2.0 */
/* Linux 2.6.34 stand-in for make check-legacy: no tracepoint is ever enabled. */
#define DECLARE_TRACEPOINT(tp) extern int __bkl_legacy_tracepoint_##tp
#define tracepoint_enabled(tp) (0 && __bkl_legacy_tracepoint_##tp)
