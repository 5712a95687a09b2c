#!/usr/bin/env python3
"""A second copy floor, with the durability migrate-store gives each file: copy every file of a
store, fsync each one, then fsync every folder. Unlike `sync`, it waits only for its own data
(on a shared machine `sync` also waits for other processes' dirty pages).

Usage: copy_fsync.py <source> <target>     (target must not exist)
"""
import os
import sys


def fsync_path(path, flags):
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def main(source, target):
    folders = []
    for folder, subfolders, files in os.walk(source):
        out = os.path.join(target, os.path.relpath(folder, source))
        os.makedirs(out)
        folders.append(out)
        for name in files:
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            fd = os.open(os.path.join(out, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
            finally:
                os.close(fd)
    for folder in reversed(folders):
        fsync_path(folder, os.O_RDONLY)
    fsync_path(os.path.dirname(os.path.abspath(target)), os.O_RDONLY)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
