# SPDX-License-Identifier: GPL-2.0
"""Reading and writing the files of the tree: every byte kept as it was,
each write at once, one path for each file, and the whole run undone when
it cannot be done whole (TreeWrites)."""
import difflib
import os
import re
import shutil


def read(path):
    # Old drivers are not all UTF-8: keep every byte as it is.
    with open(path, errors="surrogateescape") as f:
        return f.read()


def tree_version(tree):
    """(VERSION, PATCHLEVEL, SUBLEVEL) of the kernel tree at tree, from its
    top Makefile, or None where it has no such three (a driver's own
    directory)."""
    try:
        with open(os.path.join(tree, "Makefile"), errors="replace") as f:
            head = f.read(4096)
    except OSError:
        return None
    parts = [re.search(r"^%s\s*=\s*(\d+)\s*$" % k, head, re.M)
             for k in ("VERSION", "PATCHLEVEL", "SUBLEVEL")]
    if not all(parts):
        return None
    return tuple(int(p.group(1)) for p in parts)


def canonical(path):
    """The one spelling of path that the run uses for it: absolute, with
    symbolic links, "." and ".." resolved, so that a file named twice (as
    drivers/x.c and $PWD/drivers/x.c, or through a link) is one file."""
    return os.path.realpath(path)


def write_file(path, text):
    """Replace path's contents at once, keeping its mode."""
    tmp = path + ".bkl-migrate.tmp"
    with open(tmp, "w", errors="surrogateescape") as fh:
        fh.write(text)
    shutil.copymode(path, tmp)
    os.replace(tmp, path)


class TreeWrites:
    """The files a run writes into the tree.  Each file's original is kept
    in memory when it is first written (and, with backup, on disk under the
    backup directory at its path relative to tree, unless an older original
    is there already), so that rollback() puts every file back as it was;
    write() of the text a file already has writes nothing."""

    def __init__(self, tree, backup=None):
        self.tree = canonical(tree)
        self.backup = os.path.abspath(backup) if backup else None
        self.originals = {}
        self.saved = []

    def backup_path(self, path):
        rel = os.path.relpath(path, self.tree)
        if rel.startswith(os.pardir):
            # a path given outside --tree: kept under its absolute path
            rel = os.path.join("outside-tree", path.lstrip(os.sep))
        return os.path.join(self.backup, rel)

    def write(self, path, text):
        path = canonical(path)
        old = read(path)
        if old == text:
            return
        if path not in self.originals:
            self.originals[path] = old
            if self.backup:
                saved = self.backup_path(path)
                if not os.path.exists(saved):
                    os.makedirs(os.path.dirname(saved), exist_ok=True)
                    shutil.copy2(path, saved)
                    self.saved.append(saved)
        write_file(path, text)

    def restore(self, path):
        """Put path back as it was before this run wrote it."""
        path = canonical(path)
        if path in self.originals:
            write_file(path, self.originals[path])

    def written(self):
        """The files whose text this run changed."""
        return sorted(p for p, old in self.originals.items() if read(p) != old)

    def rollback(self):
        """Every file of the run as it was, and no backup of this run left."""
        for path in self.originals:
            write_file(path, self.originals[path])
        for saved in self.saved:
            os.remove(saved)
        self.originals, self.saved = {}, []


def diff(path, old, new):
    return "".join(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                        "a/" + path, "b/" + path))
