#!/usr/bin/env python3
"""Benchmark peer: the work streams as JSON text in SQLite (Python's sqlite3), WAL mode,
synchronous=FULL, so every committed update is durable.

  sqlite_peer.py build <store> <db>               table sessions(id TEXT PRIMARY KEY, doc TEXT)
  sqlite_peer.py update <db> <id> <count>         <count> read-modify-write transactions of one
                                                  row: SELECT, json.loads, change, json.dumps, UPDATE, COMMIT
  sqlite_peer.py update-threads <db> <id,id,...> <count>
                                                  one thread per id (threads of one app, each with its
                                                  own connection, as SQLite requires), each making
                                                  <count> such transactions of its own row at once
Prints {"open_s": ..., "ops": K, "per_op_s": [...]} for update; for update-threads
{"threads": T, "ops": T*K, "wall_s": ..., "per_op_s": [wall_s / (T*K)]}: the time per update
when T writers share the database (SQLite serialises the writers; a busy one waits in its busy
handler, Python's default timeout of 5 s).
"""
import json
import os
import sqlite3
import sys
import time


def connect(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


def build(store, path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = connect(path)
    db.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY, doc TEXT NOT NULL)")
    folder = os.path.join(store, "sessions")
    db.execute("BEGIN")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json") and not name.startswith("."):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                doc = json.load(f)
            db.execute("INSERT INTO sessions VALUES (?, ?)", (doc["id"], json.dumps(doc, sort_keys=True)))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def update(path, target, count):
    start = time.perf_counter()
    db = connect(path)
    opened = time.perf_counter() - start
    times = []
    for _ in range(count):
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        (text,) = db.execute("SELECT doc FROM sessions WHERE id = ?", (target,)).fetchone()
        doc = json.loads(text)
        doc["unread_count"] = (doc.get("unread_count", 0) + 1) % 10
        db.execute("UPDATE sessions SET doc = ? WHERE id = ?", (json.dumps(doc, sort_keys=True), target))
        db.execute("COMMIT")
        times.append(time.perf_counter() - start)
    db.close()
    print(json.dumps({"open_s": opened, "ops": count, "per_op_s": times}))


def update_threads(path, ids, count):
    import threading
    start_line = threading.Barrier(len(ids) + 1)
    errors, finished = [], []

    def writer(target):
        db = connect(path)  # a connection per thread: Python's sqlite3 objects stay in their thread
        start_line.wait()
        try:
            for _ in range(count):
                one_update(db, target)
        except Exception as error:  # reported below, after every thread stopped
            errors.append(error)
        finished.append(time.perf_counter())
        # Closed after its last update was timed: the last connection to close checkpoints the WAL.
        db.close()

    threads = [threading.Thread(target=writer, args=(target,)) for target in ids]
    for thread in threads:
        thread.start()
    start_line.wait()
    start = time.perf_counter()
    for thread in threads:
        thread.join()
    wall = max(finished) - start
    if errors:
        sys.exit(f"update-threads: {errors[0]}")
    ops = len(ids) * count
    print(json.dumps({"threads": len(ids), "ops": ops, "wall_s": wall, "per_op_s": [wall / ops]}))


def one_update(db, target):
    db.execute("BEGIN IMMEDIATE")
    (text,) = db.execute("SELECT doc FROM sessions WHERE id = ?", (target,)).fetchone()
    doc = json.loads(text)
    doc["unread_count"] = (doc.get("unread_count", 0) + 1) % 10
    db.execute("UPDATE sessions SET doc = ? WHERE id = ?", (json.dumps(doc, sort_keys=True), target))
    db.execute("COMMIT")


if __name__ == "__main__":
    if sys.argv[1:2] == ["build"] and len(sys.argv) == 4:
        build(sys.argv[2], sys.argv[3])
    elif sys.argv[1:2] == ["update"] and len(sys.argv) == 5:
        update(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1:2] == ["update-threads"] and len(sys.argv) == 5:
        update_threads(sys.argv[2], sys.argv[3].split(","), int(sys.argv[4]))
    else:
        sys.exit(__doc__)
