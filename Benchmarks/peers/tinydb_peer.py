#!/usr/bin/env python3
"""Benchmark peer: the work streams in a TinyDB JSON file database (pip install tinydb).

  tinydb_peer.py build <store> <db.json> <target-id>   one document per work stream; the
                                                        target is inserted first (doc_id 1)
  tinydb_peer.py update <db.json> <count>              <count> updates of doc_id 1 with
                                                        db.update (TinyDB reads and rewrites
                                                        the whole file, and fsyncs it)
Prints {"open_s": ..., "ops": K, "per_op_s": [...]} for update.
"""
import json
import os
import sys
import time

from tinydb import TinyDB


def sessions(store, target):
    folder = os.path.join(store, "sessions")
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json") and not n.startswith("."))
    names.sort(key=lambda n: n != target + ".json")
    for name in names:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            yield json.load(f)


def build(store, path, target):
    if os.path.exists(path):
        os.remove(path)
    db = TinyDB(path)
    db.table("_default").insert_multiple(sessions(store, target))
    db.close()


def bump(doc):
    doc["unread_count"] = (doc.get("unread_count", 0) + 1) % 10


def update(path, count):
    start = time.perf_counter()
    db = TinyDB(path)
    opened = time.perf_counter() - start
    times = []
    for _ in range(count):
        start = time.perf_counter()
        db.update(bump, doc_ids=[1])
        times.append(time.perf_counter() - start)
    db.close()
    print(json.dumps({"open_s": opened, "ops": count, "per_op_s": times}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["build"] and len(sys.argv) == 5:
        build(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1:2] == ["update"] and len(sys.argv) == 4:
        update(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(__doc__)
