# SPDX-License-Identifier: GPL-2.0
"""bkl-users: list the users of the Big Kernel Lock and of the driver locks
that replaced it, from a source tree, from built objects or from the running
kernel.  scripts/bkl-users is its command line (cli.main()); bkl-migrate uses
its C scanner (csource, candidates) and its file selection (sources)."""


class UsageError(Exception):
    """Bad input: reported with exit code 2."""
