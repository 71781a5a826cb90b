# SPDX-License-Identifier: GPL-2.0
"""Reading and writing the files of the tree: every byte kept as it was,
each write at once, the originals kept with --backup."""
import difflib
import os
import shutil


def read(path):
    # Old drivers are not all UTF-8: keep every byte as it is.
    with open(path, errors="surrogateescape") as f:
        return f.read()


# --backup: where the first original of each file written into the tree is
# kept, and the tree it is relative to
BACKUP = None


def write_file(path, text):
    """Replace path's contents at once, keeping its mode."""
    tmp = path + ".bkl-migrate.tmp"
    with open(tmp, "w", errors="surrogateescape") as fh:
        fh.write(text)
    shutil.copymode(path, tmp)
    os.replace(tmp, path)


def write_tree_file(path, text):
    """write_file() for a file of the tree: with --backup, its original is
    saved first (once: a later write keeps the first original)."""
    if BACKUP:
        rel = os.path.relpath(path, BACKUP[1])
        if rel.startswith(os.pardir):
            # a path given outside --tree: kept under its absolute path
            rel = os.path.join("outside-tree", os.path.abspath(path).lstrip(os.sep))
        saved = os.path.join(BACKUP[0], rel)
        if not os.path.exists(saved):
            os.makedirs(os.path.dirname(saved), exist_ok=True)
            shutil.copy2(path, saved)
    write_file(path, text)


def diff(path, old, new):
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        "a/" + path, "b/" + path))
