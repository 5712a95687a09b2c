#!/usr/bin/env python3
"""The floor of an in-place migration: the file operations `migrate-store migrate --no-backup`
makes, with the computing taken away. Every file of <store> whose bytes differ in <migrated> (a
copy of the same store migrated beforehand) is replaced by its migrated bytes the way migrate
replaces it: written to a dot-named temp file beside it, the file system flushed once
(`syncfs`), each temp file renamed over its original (on eight threads, as migrate renames the
work streams whose queue position does not change), then each folder fsynced.

`cp -a` + `sync` only creates files; replacing a file in place also frees the old one (inode,
blocks, and on a file system mounted with `discard` a TRIM), which is the cost this floor shows.

Usage: replace_in_place.py <store> <migrated>
"""
import concurrent.futures
import ctypes
import os
import sys


def main(store, migrated):
    libc = ctypes.CDLL(None, use_errno=True)
    replaced = []   # (temp, target)
    folders = set()
    for folder, _, files in os.walk(migrated):
        relative = os.path.relpath(folder, migrated)
        if any(part.startswith(".") for part in relative.split(os.sep) if part != "."):
            continue
        for name in sorted(files):
            if name.startswith("."):
                continue
            with open(os.path.join(folder, name), "rb") as f:
                new = f.read()
            target = os.path.normpath(os.path.join(store, relative, name))
            try:
                with open(target, "rb") as f:
                    if f.read() == new:
                        continue
            except FileNotFoundError:
                pass
            temp = os.path.join(os.path.dirname(target), ".tmp-floor-" + name)
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                view = memoryview(new)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            replaced.append((temp, target))
            folders.add(os.path.dirname(target))
    fd = os.open(store, os.O_RDONLY)
    try:
        if libc.syncfs(fd) != 0:
            raise OSError(ctypes.get_errno(), "syncfs failed")
    finally:
        os.close(fd)
    # Eight threads, as migrate renames the work streams whose queue position does not change:
    # the kernel frees the replaced files' inodes concurrently (os.rename releases the GIL).
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        for done in pool.map(lambda pair: os.rename(*pair), replaced):
            pass
    for folder in sorted(folders, reverse=True):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    print(len(replaced))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
