# SPDX-License-Identifier: GPL-2.0
#
# locked-ioctl: the user-facing targets.  Kbuild, beside this file, is what
# kbuild reads for an out-of-tree (M=) build.
#
#   make run                     set up, apply onto Linux 6.12, migrate, boot, test
#   make check                   the whole test suite
#   make apply   KDIR=/path      put the layer onto a kernel tree
#   make unapply KDIR=/path      take it off again
#
# KVER=6.1 selects Debian's linux-source-6.1 instead of 6.12; KDIR= any tree.

KVER	?= 6.12
BUILD	?= $(CURDIR)/build
JOBS	?= $(shell nproc)
SCRIPTS	:= $(CURDIR)/scripts/locked-ioctl

ifeq ($(origin KDIR),undefined)
KDIR	:= $(BUILD)/src/linux-source-$(KVER)
SETUP	:= $(SCRIPTS)/setup $(KVER) >/dev/null
else
SETUP	:= $(SCRIPTS)/setup --packages-only
endif

export BUILD

.PHONY: help setup apply unapply status kunit check run clean distclean

help:
	@sed -n '3,13s/^# \{0,1\}//p' Makefile

setup:
	@$(SETUP)

apply: setup
	@$(SCRIPTS)/apply $(if $(FORCE),--force) $(KDIR)

unapply:
	@$(SCRIPTS)/apply --unapply $(KDIR)

status:
	@$(SCRIPTS)/apply --status $(KDIR)

kunit: setup
	@$(SCRIPTS)/check -j $(JOBS) kunit-$(KVER)

check:
	@$(SCRIPTS)/setup 6.12 6.1 >/dev/null
	@$(SCRIPTS)/check -j $(JOBS)

run: apply
	@$(SCRIPTS)/check -j $(JOBS) kunit-6.12 sparse bkl-users
	@$(SCRIPTS)/boot -j $(JOBS) --report migrated
	@echo "The layer is on $(KDIR); the migrated x86_64 kernel and the logs are in $(BUILD)."

clean:
	rm -rf $(BUILD)/kunit-* $(BUILD)/qemu $(BUILD)/test $(BUILD)/logs

distclean:
	rm -rf $(BUILD)
