# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Tier unittest: the Python tests of the tools.

# The Python unittest tests of the tools (tools/testing/locked-ioctl/): each
# test case is one check.

tier_unittest() { count_tap python3 "$REPO/tools/testing/locked-ioctl/unittest_tap.py"; }
