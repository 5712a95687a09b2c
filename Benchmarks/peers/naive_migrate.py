#!/usr/bin/env python3
"""The script a user would write instead of migrate-store: the v1 -> v2 transform of
STORE-FORMAT.md section 6 with json.load / json.dump(sort_keys=True, indent=2), everything in
memory, no fsync, no backup, no lock. A benchmark peer, not part of the package.

Usage: naive_migrate.py <store>
"""
import datetime
import json
import os
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dump(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, sort_keys=True, indent=2, ensure_ascii=False)
        f.write("\n")


def main(store):
    started = datetime.datetime.now(datetime.timezone.utc)
    manifest = load(os.path.join(store, "store.json"))
    if manifest.get("schema_version", 1) >= 2:
        print("already v2")
        return
    sessions_dir = os.path.join(store, "sessions")
    sessions = {}
    fixed = 0
    for name in sorted(os.listdir(sessions_dir)):
        if name.startswith(".") or not name.endswith(".json"):
            continue
        doc = load(os.path.join(sessions_dir, name))
        sid = doc["id"].lower()
        doc.setdefault("provider_session_id", sid)          # rule 1: only if absent
        doc.setdefault("provider", "claude")                # rule 2: only if absent
        for message in doc.get("messages", []):             # rule 4: containment wins
            if message["session_id"].lower() != sid:
                message["session_id"] = sid
                fixed += 1
        doc["schema_version"] = 2
        sessions[name] = doc

    # Rule 5: FIFO ordered by position (0 or negative last), queued_at (null last), id; 1..n.
    def fifo_key(doc):
        pos = doc.get("queue_position", 0)
        queued_at = doc.get("queued_at")
        return (pos <= 0, pos, queued_at is None, queued_at or "", doc["id"].lower())

    fifo = sorted((d for d in sessions.values() if d.get("is_in_queue", False)), key=fifo_key)
    for doc in sessions.values():
        if not doc.get("is_in_queue", False) and doc.get("queue_position", 0) != 0:
            doc["queue_position"] = 0
    for index, doc in enumerate(fifo):
        doc["queue_position"] = index + 1
    # Rule 6: priority ascending, order ascending, id.
    prio = sorted((d for d in sessions.values() if d.get("is_in_priority_queue", False)),
                  key=lambda d: (d.get("priority", 10), float(d.get("priority_order", 0)), d["id"].lower()))
    queue = {
        "schema_version": 2,
        "fifo": [{"work_stream_id": d["id"].lower(), "queued_at": d.get("queued_at")} for d in fifo],
        "priority": [{"work_stream_id": d["id"].lower(), "priority": d.get("priority", 10),
                      "priority_order": float(d.get("priority_order", 0)),
                      "priority_queued_at": d.get("priority_queued_at")} for d in prio],
    }
    dump(os.path.join(store, "queue.json"), queue)
    for name, doc in sessions.items():
        dump(os.path.join(sessions_dir, name), doc)

    user_dir = os.path.join(store, "user-sessions")
    if os.path.isdir(user_dir):
        for name in sorted(os.listdir(user_dir)):
            if name.startswith(".") or not name.endswith(".json"):
                continue
            doc = load(os.path.join(user_dir, name))
            doc["schema_version"] = 2
            dump(os.path.join(user_dir, name), doc)
    settings_path = os.path.join(store, "settings.json")
    if os.path.exists(settings_path):
        settings = load(settings_path)
        settings["schema_version"] = 2
        dump(settings_path, settings)

    finished = datetime.datetime.now(datetime.timezone.utc)
    stamp = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)
    manifest["schema_version"] = 2
    manifest["min_reader_version"] = 1
    manifest.setdefault("migrations", []).append({
        "from": 1, "to": 2, "started_at": stamp(started), "finished_at": stamp(finished),
        "tool_version": "naive-python", "counts": {"sessions_migrated": len(sessions), "messages_fixed": fixed},
    })
    dump(os.path.join(store, "store.json"), manifest)   # written last
    print(f"migrated {len(sessions)} sessions, fixed {fixed} messages")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: naive_migrate.py <store>")
    main(sys.argv[1])
