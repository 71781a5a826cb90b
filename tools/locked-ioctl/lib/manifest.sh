# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The target manifest, tools/locked-ioctl/targets: one row per target driver
# of the 2010 pushdown, ten tab-separated fields (its header says what each
# means).  Sourced, not run; needs REPO.

# target_field CONDITION FIELD: FIELD (an awk expression: $2, the file) of
# each row of the manifest for which the awk CONDITION holds, in order.
target_field() {
	awk -F'\t' '!/^#/ && NF == 10 && ('"$1"') { print '"$2"' }' "$REPO/tools/locked-ioctl/targets"
}
