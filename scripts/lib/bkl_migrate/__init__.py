# SPDX-License-Identifier: GPL-2.0
"""bkl-migrate: move drivers onto the locked-ioctl layer with the semantic
patches of scripts/coccinelle/locked-ioctl/.  scripts/bkl-migrate is its
command line (cli.main())."""


class UsageError(Exception):
    """Bad input: reported with exit code 2, nothing changed."""
