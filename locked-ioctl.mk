# SPDX-License-Identifier: GPL-2.0
#
# For the Kbuild file of an out-of-tree driver that uses the layer against a
# kernel without it (a distribution kernel): set LOCKED_IOCTL to the
# directory where the layer's modules were built ("make modules" prints it)
# and include this file:
#
#   include $(LOCKED_IOCTL)/locked-ioctl.mk
#   obj-m := foo.o
#
# The driver gets the layer's headers, the BKL as a module
# (CONFIG_BKL_MODULE, as kbuild names an option set to m) and the symbols
# of bkl.ko.

ifeq ($(LOCKED_IOCTL),)
$(error set LOCKED_IOCTL to the directory where locked-ioctl's modules were built)
endif

ccflags-y += -I$(LOCKED_IOCTL)/include -DCONFIG_BKL_MODULE=1
KBUILD_EXTRA_SYMBOLS += $(LOCKED_IOCTL)/Module.symvers
