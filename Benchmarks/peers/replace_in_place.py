#!/usr/bin/env python3
"""The floor of an in-place migration: the file operations of `migrate-store migrate --no-backup`
with the computing taken away. Every document of <store> (every file outside dot-named folders)
is replaced by its own bytes the way migrate replaces it: read, written to a dot-named temp file
beside it, the file system flushed once (`syncfs`), each temp file renamed over its original (on
eight threads, as migrate renames the work streams whose queue position does not change), then
each folder fsynced. A migration writes ~2 % more bytes (the v2 keys), so this is a lower bound.

`cp -a` + `sync` only creates files; replacing a file in place also frees the old one (inode,
blocks, and on a file system mounted with `discard` a TRIM), which is the cost this floor shows.

Usage: replace_in_place.py <store>      (prints the number of files replaced)
"""
import concurrent.futures
import ctypes
import os
import sys


def main(store):
    libc = ctypes.CDLL(None, use_errno=True)
    replaced = []   # (temp, target)
    folders = set()
    for folder, subfolders, files in os.walk(store):
        subfolders[:] = [name for name in subfolders if not name.startswith(".")]
        for name in sorted(files):
            if name.startswith("."):
                continue
            target = os.path.join(folder, name)
            with open(target, "rb") as f:
                data = f.read()
            temp = os.path.join(folder, ".tmp-floor-" + name)
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            replaced.append((temp, target))
            folders.add(folder)
    fd = os.open(store, os.O_RDONLY)
    try:
        if libc.syncfs(fd) != 0:
            raise OSError(ctypes.get_errno(), "syncfs failed")
    finally:
        os.close(fd)
    # os.rename releases the GIL: the kernel frees the replaced files' inodes concurrently.
    with concurrent.futures.ThreadPoolExecutor(max_workers=8) as pool:
        for _ in pool.map(lambda pair: os.rename(*pair), replaced):
            pass
    for folder in sorted(folders, reverse=True):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    print(len(replaced))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
