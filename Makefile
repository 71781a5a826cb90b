# SPDX-License-Identifier: GPL-2.0
#
# locked-ioctl: the user-facing targets.  Kbuild, beside this file, is what
# kbuild reads for an out-of-tree (M=) build.
#
#   make run                     set up, apply onto Linux 6.12, migrate, boot, test
#   make check                   the whole test suite
#   make apply   KDIR=/path      put the layer onto a kernel tree
#   make migrate KDIR=/path      migrate its target drivers (scripts/bkl-migrate)
#   make unapply KDIR=/path      take it off again (migrated drivers too)
#   make patches KDIR=/path [OUT=dir]  the layer and the migrated drivers as a
#                                patch series (git format-patch, cover letter)
#   make bench                   what the layer costs: wrappers, BKL, tools
#   make check-cross             the migrated targets of other architectures
#   make check-legacy LEGACY_TREE=/path   bkl-migrate on a stock Linux 2.6.34
#   make modules [KDIR=/path]    the layer as modules, for a kernel without it
#   make modules_install         ...and install them (default: Debian's kernel)
#   make dkms-source             its sources and dkms.conf in /usr/src, for dkms
#
# KVER=6.1 selects Debian's linux-source-6.1 instead of 6.12; KDIR= any tree
# (for modules: a kernel build or headers directory; default: the headers of
# Debian's linux-headers-amd64, installed when missing).

KVER	?= 6.12
BUILD	?= $(CURDIR)/build
JOBS	?= $(shell nproc)
INSTALL	:= $(CURDIR)/tools/locked-ioctl/install
RELEASE	:= $(CURDIR)/tools/locked-ioctl/release
TESTING	:= $(CURDIR)/tools/testing/locked-ioctl

# the modules' KDIR: only one given on the command line
MODULES_KDIR := $(if $(filter undefined,$(origin KDIR)),,$(KDIR))

ifeq ($(origin KDIR),undefined)
KDIR	:= $(BUILD)/src/linux-source-$(KVER)
SETUP	:= $(INSTALL)/setup $(KVER) >/dev/null
else
SETUP	:= $(INSTALL)/setup --packages-only
endif

export BUILD

.PHONY: help setup apply migrate unapply status patches kunit check check-cross check-legacy run bench modules modules_install \
	dkms-source clean distclean

help:
	@sed -n '3,24s/^# \{0,1\}//p' Makefile

setup:
	@$(SETUP)

apply: setup
	@$(INSTALL)/apply $(if $(FORCE),--force) $(KDIR)

# the target drivers of the manifest that KDIR has; "make unapply" undoes it
migrate: apply
	@$(INSTALL)/migrate -j $(JOBS) $(KDIR)

unapply:
	@$(INSTALL)/apply --unapply $(KDIR)

# the series against KDIR as it was before "make apply migrate"; OUT defaults
# to $(BUILD)/patches/<kernel version>
patches: migrate
	@$(RELEASE)/format-series $(if $(OUT),--out $(OUT)) $(KDIR)

status:
	@$(INSTALL)/apply --status $(KDIR)

# the KUnit suites: under UML for 6.1, built into the QEMU tier's kernel for 6.12
kunit: setup
	@$(TESTING)/check -j $(JOBS) $(if $(filter 6.12,$(KVER)),qemu,kunit-$(KVER))

check:
	@$(INSTALL)/setup 6.12 6.1 >/dev/null
	@$(TESTING)/check -j $(JOBS)

# One kernel, one boot: the x86_64 kernel of KDIR (lockdep, the KUnit suites
# built in), whose build the sparse and bkl-users tiers then compile against.
run: apply migrate
	@$(TESTING)/check -j $(JOBS) --no-kasan --report $(if $(filter 6.12,$(KVER)),--tree $(KDIR)) \
		qemu sparse bkl-users
	@echo "The layer is on $(KDIR); the x86_64 kernel built from it and the logs are in $(BUILD)."

# Not in make check: the tree is fetched (github:MetalheadKen/Linux-Kernel-2.6.34).
# The other architectures' drivers are compiled in the cross root (made once).
# LEGACY_ARGS: options of tools/testing/locked-ioctl/check-legacy (--help), such
# as --seeds DIR to compare with seeds 002-006.
check-legacy:
	@test -n "$(LEGACY_TREE)" || { echo "make check-legacy LEGACY_TREE=/path/to/linux-2.6.34" >&2; exit 2; }
	@$(INSTALL)/setup --packages-only >/dev/null
	@$(TESTING)/cross-root setup >/dev/null
	@$(TESTING)/check-legacy -j $(JOBS) $(LEGACY_ARGS) $(LEGACY_TREE)

# Not in make check: the cross compilers live in a root of their own
# (tools/testing/locked-ioctl/cross-root, made once: debootstrap, about 8 minutes).
check-cross:
	@$(INSTALL)/setup --packages-only >/dev/null
	@$(TESTING)/check-cross -j $(JOBS) --kver $(KVER)

# BENCH_ARGS: options of tools/testing/locked-ioctl/bench (--help)
bench:
	@$(INSTALL)/setup 6.12 >/dev/null
	@$(TESTING)/bench -j $(JOBS) $(BENCH_ARGS)

modules:
	@$(INSTALL)/modules $(MODULES_KDIR)

modules_install:
	@$(INSTALL)/modules --install $(MODULES_KDIR)

dkms-source:
	@$(INSTALL)/modules --dkms-source /usr/src/locked-ioctl-$$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)

clean:
	rm -rf $(BUILD)/kunit-* $(BUILD)/qemu $(BUILD)/test $(BUILD)/logs $(BUILD)/modules \
		$(BUILD)/bench

distclean:
	rm -rf $(BUILD)
