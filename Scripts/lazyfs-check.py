#!/usr/bin/env python3
"""Power cuts on LazyFS: does what migrate-store (and the library) acknowledged survive?

LazyFS (../shared/tools/lazyfs, MIT) is a FUSE file system with its own page cache that drops
every byte not yet made durable when told to. Each trial:

1. copies a fresh store into the backing folder and mounts LazyFS over it;
2. starts one operation on the mount and lets it run for a random time (0 to 1.2 x the time the
   operation took in a calibration run, so some trials cut it mid-way and some after it ended);
3. freezes it (SIGSTOP, and waits until every thread is stopped), clears LazyFS's cache (the power
   cut), kills it, unmounts and mounts again (LazyFS does not flush on unmount);
4. checks the store through the fresh mount: whatever was acknowledged must be there, whole, and
   anything else must be readable and finish (or be absent, for a new backup or export).

A trial in which LazyFS itself crashes or times out is "inconclusive" and never a pass.

Usage: Scripts/lazyfs-check.py LAZYFS_BINARY TRIALS [operation ...]
Environment: LAZYFS_SEED (default 1), LAZYFS_CUT=after (cut only once the operation returned),
STORE_BIN (the folder of the binaries; default .build/debug).
Needs root, /dev/fuse, fusermount3, and a debug build (swift build) for migrate-store,
generate-store and store-test-helper. Prints one line per operation: trials, passes, failures,
inconclusive, and how many trials cut the operation before it finished.
"""
import os, random, shutil, signal, subprocess, sys, tempfile, time, json, hashlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("STORE_BIN", os.path.join(ROOT, ".build", "debug"))
TOOL = os.path.join(BIN, "migrate-store")
HELPER = os.path.join(BIN, "store-test-helper")
GENERATE = os.path.join(BIN, "generate-store")


# LAZYFS_CUT=after: every cut comes once the operation has returned (what it acknowledged must
# all be there); the default cuts at a random instant.
CUT_AFTER = os.environ.get("LAZYFS_CUT") == "after"


class Inconclusive(Exception):
    pass


class LazyFS:
    def __init__(self, binary, work):
        self.binary, self.work = binary, work
        self.backing, self.mnt = os.path.join(work, "backing"), os.path.join(work, "mnt")
        self.fifo, self.done = os.path.join(work, "faults.fifo"), os.path.join(work, "faults-done.fifo")
        self.config = os.path.join(work, "lazyfs.toml")
        self.process = None
        for path in (self.backing, self.mnt):
            os.makedirs(path, exist_ok=True)
        for fifo in (self.fifo, self.done):
            if not os.path.exists(fifo):
                os.mkfifo(fifo)
        with open(self.config, "w") as f:
            f.write(f'[faults]\nfifo_path="{self.fifo}"\nfifo_path_completed="{self.done}"\n'
                    '[cache]\napply_eviction=false\n[cache.simple]\ncustom_size="512mb"\nblocks_per_page=1\n')

    def mount(self):
        self.process = subprocess.Popen(
            [self.binary, self.mnt, "--config-path", self.config, "-o", "allow_other", "-o", "modules=subdir",
             "-o", "subdir=" + self.backing, "-f"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while not os.path.ismount(self.mnt):
            if self.process.poll() is not None or time.time() > deadline:
                raise Inconclusive("LazyFS did not mount")
            time.sleep(0.02)

    def clear_cache(self):
        done = os.open(self.done, os.O_RDONLY | os.O_NONBLOCK)
        try:
            with open(self.fifo, "w") as f:
                f.write("lazyfs::clear-cache\n")
            deadline = time.time() + 20
            data = b""
            while b"\n" not in data and time.time() < deadline:
                try:
                    data += os.read(done, 100)
                except BlockingIOError:
                    pass
                if self.process.poll() is not None:
                    raise Inconclusive("LazyFS exited while clearing its cache")
                time.sleep(0.01)
            if b"\n" not in data:
                raise Inconclusive("LazyFS did not confirm the cache clear")
        finally:
            os.close(done)

    def unmount(self):
        # LazyFS exits with SIGABRT on every unmount ("terminate called without an active
        # exception"), so only a LazyFS that was gone before the unmount counts as a crash.
        crashed = self.process is not None and self.process.poll() is not None
        subprocess.run(["fusermount3", "-u", "-z", self.mnt], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if self.process is not None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None
        if crashed:
            raise Inconclusive("LazyFS crashed")


def freeze(pid):
    os.kill(pid, signal.SIGSTOP)
    deadline = time.time() + 5
    while time.time() < deadline:
        try:
            states = []
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/stat") as f:
                    states.append(f.read().rsplit(")", 1)[1].split()[0])
        except FileNotFoundError:
            return
        if all(s in ("T", "t", "Z", "X") for s in states):
            return
        time.sleep(0.001)
    raise Inconclusive("the program did not stop")


def run(arguments, timeout=120):
    return subprocess.run(arguments, capture_output=True, text=True, timeout=timeout)


def documents(store):
    """Every document's bytes, by path relative to the store (dot names and store.json left out:
    store.json's migration record carries times)."""
    out = {}
    for folder, dirs, files in os.walk(store):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if name.startswith(".") or (folder == store and name == "store.json"):
                continue
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, store)] = f.read()
    return out


def schema_version(store):
    with open(os.path.join(store, "store.json")) as f:
        return json.load(f)["schema_version"]


class Operation:
    """One kind of trial: `prepare(backing)` lays out the files, `command(mnt)` is what runs,
    `check(mnt, finished, output)` returns the problems found after the cut."""

    def __init__(self, name, prepare, command, check):
        self.name, self.prepare, self.command, self.check = name, prepare, command, check


def generated(version, streams=200, messages=3, seed=7):
    def prepare(backing, cache={}):
        key = (version, streams, messages, seed)
        if key not in cache:
            folder = tempfile.mkdtemp(prefix="lazyfs-sample-")
            store = os.path.join(folder, "store")
            arguments = [GENERATE, store, "--work-streams", str(streams), "--messages", str(messages), "--seed", str(seed)]
            subprocess.run(arguments, check=True, capture_output=True)
            if version == 3:
                subprocess.run([TOOL, "migrate", store, "--no-backup"], check=True, capture_output=True)
            cache[key] = store
        # An older build removes its old folders in a detached process: never copy them.
        shutil.copytree(cache[key], os.path.join(backing, "store"), symlinks=True, ignore=shutil.ignore_patterns(".migration-*"))
    return prepare


def migrated_reference(arguments_after_store, prepare):
    """The documents a migration with these arguments gives on an ordinary disk."""
    folder = tempfile.mkdtemp(prefix="lazyfs-reference-")
    prepare(folder)
    subprocess.run([TOOL, "migrate", os.path.join(folder, "store")] + arguments_after_store, check=True, capture_output=True)
    reference = documents(os.path.join(folder, "store"))
    shutil.rmtree(folder, ignore_errors=True)
    return reference


def migrate_operation(name, extra, target):
    prepare = generated(1)
    reference = {}

    def command(mnt):
        return [TOOL, "migrate", os.path.join(mnt, "store")] + extra

    def check(mnt, finished, output):
        store = os.path.join(mnt, "store")
        if not reference:
            reference.update(migrated_reference(extra, prepare))
        problems = []
        if finished and schema_version(store) != target:
            problems.append(f"acknowledged migration to {target}, but store.json says {schema_version(store)}")
        validate = run([TOOL, "validate", store])
        # Cut mid-way, the store is at the old version with part of the new one written: validate
        # says so ("a migration stopped before its end"), and the run below must finish it.
        interrupted = not finished and validate.returncode == 65 and validate.stdout.count("a migration stopped before its end") == 1 \
            and " 1 problem " in validate.stdout
        if validate.returncode != 0 and not interrupted:
            found = [line for line in validate.stdout.splitlines() if line and "allowed" not in line]
            problems.append(f"validate after the cut: exit {validate.returncode}: {found[:2]} {validate.stderr[-300:]}")
        again = run([TOOL, "migrate", store] + extra)   # the same arguments: --no-backup, or the breaking step's own backup
        if again.returncode != 0:
            problems.append(f"the migration run again: exit {again.returncode}: {again.stderr[-300:]}")
        elif documents(store) != reference:
            got = documents(store)
            differing = sorted(k for k in set(got) | set(reference) if got.get(k) != reference.get(k))
            problems.append(f"after finishing, {len(differing)} documents differ from the reference, e.g. {differing[:3]}")
        return problems

    return Operation(name, prepare, command, check)


def backup_operation():
    def command(mnt):
        return [TOOL, "backup", os.path.join(mnt, "store"), os.path.join(mnt, "backup")]

    def check(mnt, finished, output):
        backup = os.path.join(mnt, "backup")
        if not os.path.exists(backup):
            return ["the backup was reported verified but is missing"] if finished else []
        verify = run([TOOL, "verify-backup", backup])
        return [] if verify.returncode == 0 else [f"verify-backup: exit {verify.returncode}: {verify.stdout[-300:]}"]

    return Operation("backup", generated(3), command, check)


def restore_operation():
    base = generated(3)
    originals = {}

    def prepare(backing):
        base(backing)
        subprocess.run([TOOL, "backup", os.path.join(backing, "store"), os.path.join(backing, "backup")], check=True, capture_output=True)
        # The store moves on after the backup: one more write, so old and restored differ.
        subprocess.run([TOOL, "migrate", os.path.join(backing, "store"), "--to", "4", "--allow-breaking",
                        "--backup-dir", os.path.join(backing, "pre-v4")], check=True, capture_output=True)
        shutil.rmtree(os.path.join(backing, "pre-v4"))
        if not originals:
            originals["backup"] = documents(os.path.join(backing, "backup"))
            originals["store"] = documents(os.path.join(backing, "store"))

    def command(mnt):
        return [TOOL, "restore", os.path.join(mnt, "backup"), os.path.join(mnt, "store"), "--force"]

    def check(mnt, finished, output):
        store = os.path.join(mnt, "store")
        status = run([TOOL, "status", store])   # a read opens nothing for writing; recovery needs a writer:
        run([TOOL, "validate", store])
        got = documents(store) if os.path.exists(os.path.join(store, "store.json")) else None
        restored = {k: v for k, v in originals["backup"].items() if k not in ("SHA256SUMS", "backup.json")}
        if finished:
            return [] if got == restored else ["acknowledged restore: the store is not the backup's documents"]
        if got not in (restored, originals["store"]):
            # An interrupted restore is finished by the next command that opens the store for writing.
            run([TOOL, "migrate", store, "--no-backup"])
            got = documents(store) if os.path.exists(os.path.join(store, "store.json")) else None
            if got not in (restored, originals["store"]):
                return [f"the store is neither the old one nor the restored one (status exit {status.returncode})"]
        return []

    return Operation("restore", prepare, command, check)


def export_operation():
    def command(mnt):
        return [TOOL, "export", os.path.join(mnt, "store"), os.path.join(mnt, "store.jsonl")]

    def check(mnt, finished, output):
        path = os.path.join(mnt, "store.jsonl")
        if not os.path.exists(path):
            return ["the export was reported written but is missing"] if finished else []
        folder = tempfile.mkdtemp(prefix="lazyfs-import-")
        try:
            imported = run([TOOL, "import", path, os.path.join(folder, "store")])
            if imported.returncode != 0:
                return [f"the export does not import: exit {imported.returncode}: {imported.stderr[-300:]}"]
            same = documents(os.path.join(folder, "store")) == documents(os.path.join(mnt, "store"))
            return [] if same else ["the export's documents differ from the store's"]
        finally:
            shutil.rmtree(folder)

    return Operation("export", generated(3), command, check)


def import_operation():
    base = generated(3)
    source = {}

    def prepare(backing):
        base(backing)
        store = os.path.join(backing, "store")
        subprocess.run([TOOL, "export", store, os.path.join(backing, "store.jsonl")], check=True, capture_output=True)
        if not source:
            source.update(documents(store))
        shutil.rmtree(store)

    def command(mnt):
        return [TOOL, "import", os.path.join(mnt, "store.jsonl"), os.path.join(mnt, "imported")]

    def check(mnt, finished, output):
        imported = os.path.join(mnt, "imported")
        if not os.path.exists(os.path.join(imported, "store.json")):
            return ["the import was reported done but there is no store"] if finished else []
        got = documents(imported)
        return [] if got == source else ["the imported store's documents differ from the exported store's"]

    return Operation("import", prepare, command, check)


def library_writes_operation():
    prepare = generated(3, streams=40, messages=2)
    state = {}

    def command(mnt):
        store = os.path.join(mnt, "store")
        with open(os.path.join(mnt, "store", "sessions", sorted(os.listdir(os.path.join(mnt, "store", "sessions")))[0]), "rb") as f:
            document = json.loads(f.read())
        state["id"], state["start"] = document["id"], document["unread_count"]
        return [HELPER, "write-loop", store, document["id"], "100000"]

    def check(mnt, finished, output):
        acknowledged = max([int(line.split()[1]) for line in output.splitlines() if line.startswith("ack ")] or [0])
        path = os.path.join(mnt, "store", "sessions", state["id"] + ".json")
        try:
            with open(path, "rb") as f:
                count = json.loads(f.read())["unread_count"]
        except Exception as error:
            return [f"the work stream written to does not read after the cut: {error}"]
        problems = []
        if count < state["start"] + acknowledged:
            problems.append(f"{acknowledged} writes acknowledged, but unread_count is {count} (started at {state['start']})")
        validate = run([TOOL, "validate", os.path.join(mnt, "store")])
        if validate.returncode != 0:
            found = [line for line in validate.stdout.splitlines() if line and "allowed" not in line]
            problems.append(f"validate: exit {validate.returncode}: {found[:3]}")
        return problems

    return Operation("library writes", prepare, command, check)


def library_queue_batches_operation():
    """Queue moves that renumber many mirrors at once (the batch commit of many documents)."""
    prepare = generated(3, streams=40, messages=1, seed=11)

    def command(mnt):
        store = os.path.join(mnt, "store")
        ids = ",".join(sorted(name[:-5] for name in os.listdir(os.path.join(store, "sessions"))))
        return [HELPER, "mix", store, "0", "60", "5", ids]

    def check(mnt, finished, output):
        # Every document must be whole. queue.json is written before the mirror keys of a move,
        # so a cut between them leaves the two disagreeing (validate's §7 check (d)) until the
        # next writer reconciles; nothing else may be wrong, and after that open nothing at all.
        store = os.path.join(mnt, "store")
        validate = run([TOOL, "validate", store])
        found = [line for line in validate.stdout.splitlines() if line and "allowed" not in line]
        if validate.returncode == 0:
            return []
        if not (validate.returncode == 65 and " 1 problem " in validate.stdout and "disagrees with the session keys" in validate.stdout):
            return [f"validate: exit {validate.returncode}: {found[:3]}"]
        reconcile = run([TOOL, "migrate", store, "--no-backup"])
        again = run([TOOL, "validate", store])
        if reconcile.returncode != 0 or again.returncode != 0:
            return [f"after the reconcile: migrate exit {reconcile.returncode}, validate exit {again.returncode}: {again.stdout[-300:]}"]
        return []

    return Operation("library queue batches", prepare, command, check)


OPERATIONS = {
    "migrate-to-2": lambda: migrate_operation("migrate --to 2", ["--to", "2", "--no-backup"], 2),
    "migrate": lambda: migrate_operation("migrate (to 3)", ["--no-backup"], 3),
    "migrate-to-4": lambda: migrate_operation("migrate --to 4 --allow-breaking", ["--to", "4", "--allow-breaking"], 4),
    "backup": backup_operation,
    "restore": restore_operation,
    "export": export_operation,
    "import": import_operation,
    "library-writes": library_writes_operation,
    "library-queue": library_queue_batches_operation,
}


def trial(fs, operation, delay):
    shutil.rmtree(fs.backing, ignore_errors=True)
    os.makedirs(fs.backing)
    operation.prepare(fs.backing)
    fs.mount()
    try:
        arguments = operation.command(fs.mnt)
        out = tempfile.TemporaryFile()
        process = subprocess.Popen(arguments, stdout=out, stderr=subprocess.STDOUT)
        started = time.time()
        while (time.time() - started < delay or CUT_AFTER) and process.poll() is None:
            time.sleep(0.001)
        finished = process.poll() is not None
        if not finished:
            freeze(process.pid)
        elif process.returncode != 0:
            out.seek(0)
            raise Inconclusive(f"the operation failed before the cut: exit {process.returncode}: {out.read()[-300:]!r}")
        fs.clear_cache()
        process.kill()
        process.wait()
        out.seek(0)
        output = out.read().decode(errors="replace")
    finally:
        fs.unmount()
    fs.mount()
    try:
        return finished, operation.check(fs.mnt, finished, output)
    finally:
        fs.unmount()


def calibrate(fs, operation):
    shutil.rmtree(fs.backing, ignore_errors=True)
    os.makedirs(fs.backing)
    operation.prepare(fs.backing)
    fs.mount()
    try:
        started = time.time()
        process = subprocess.run(operation.command(fs.mnt), capture_output=True, timeout=300)
        return time.time() - started if process.returncode == 0 else 2.0
    except subprocess.TimeoutExpired:
        return 2.0
    finally:
        fs.unmount()


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    binary, trials = sys.argv[1], int(sys.argv[2])
    names = sys.argv[3:] or list(OPERATIONS)
    work = tempfile.mkdtemp(prefix="lazyfs-check-")
    fs = LazyFS(binary, work)
    random.seed(int(os.environ.get("LAZYFS_SEED", "1")))
    failed = False
    for name in names:
        operation = OPERATIONS[name]()
        duration = calibrate(fs, operation) if name not in ("library-writes",) else 3.0
        counts = {"pass": 0, "fail": 0, "inconclusive": 0, "cut mid-way": 0}
        for number in range(trials):
            try:
                finished, problems = trial(fs, operation, random.uniform(0, 1.2 * duration))
            except Inconclusive as reason:
                counts["inconclusive"] += 1
                print(f"  [{operation.name}] trial {number}: inconclusive: {reason}", flush=True)
                continue
            except subprocess.TimeoutExpired:
                counts["inconclusive"] += 1
                continue
            counts["cut mid-way"] += 0 if finished else 1
            if problems:
                counts["fail"] += 1
                failed = True
                print(f"  [{operation.name}] trial {number} ({'after' if finished else 'during'} the operation): " + "; ".join(problems), flush=True)
            else:
                counts["pass"] += 1
        print(f"{operation.name}: {trials} trials ({duration:.2f} s each uncut), {counts['pass']} passed, {counts['fail']} failed, "
              f"{counts['inconclusive']} inconclusive; {counts['cut mid-way']} cut the operation mid-way", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
