import Foundation

/// What this process wrote to one store, for the observers that leave its own writes out.
///
/// The `Store` holds it (`Store.ownWrites`), its writers record into it and its `StoreWatcher`s
/// register with it. Each such observer registers a log. Every document write and delete then
/// records, in each log, the document's file as the write left it (`lstat` right after the
/// rename: still under the store's lock, so no other writer can have replaced it in between), or
/// its absence. When the observer sees the document change, it takes the entry: a file that is
/// still the one recorded is this process's write and is not reported; any other file (another
/// process wrote after) is. With no observer registered a write records nothing and costs one
/// look-up.
///
/// The record is made just after the rename: a scan that runs in between (the writing thread held
/// up for longer than the coalescing window) reports that write as another process's, a harmless
/// extra re-read; the entry then left over never matches a later file and is simply taken.
///
/// "Own" is this process, through any `Store` or `AsyncStore` of that path as spelt: every store
/// value of one path gets the same instance (`OwnWrites.of(_:)`) unless it is given one. Writes that
/// opening a store makes (the temp-file sweep, the queue reconcile) are not recorded: observers
/// see them as another process's.
package final class OwnWrites: Sendable {
    /// The logs of this store's observers.
    private let logs = LockedState<[ObjectIdentifier: Log]>([:])

    init() {}

    /// One observer's record: document path → the file the last own write left (nil: removed).
    final class Log: Sendable {
        let entries = LockedState<[String: FileIdentity?]>([:])

        /// Takes the entry of `document`; true when `current` is the file (or absence) it recorded.
        func takeIsOwn(_ document: String, current: FileIdentity?) -> Bool {
            entries.withLock { map in
                guard let recorded = map.removeValue(forKey: document) else { return false }
                return recorded == current
            }
        }
    }

    func register() -> Log {
        let log = Log()
        logs.withLock { $0[ObjectIdentifier(log)] = log }
        return log
    }

    func unregister(_ log: Log) {
        logs.withLock { $0[ObjectIdentifier(log)] = nil }
    }

    /// How many observers leave out this process's writes (for tests).
    var observers: Int { logs.withLock(\.count) }

    /// Records that this process just replaced `document` (a full path in the store).
    func recordWrite(document: String, system: SystemCalls) {
        let targets = logs.withLock { Array($0.values) }
        guard !targets.isEmpty else { return }
        let identity: FileIdentity?
        do {
            identity = try system.linkStatus(document, context: ErrorContext("observe", document)).map(FileIdentity.init)
        } catch {
            // Not knowing the file only means the observer reports this write as another process's.
            return
        }
        for log in targets { log.entries.withLock { $0[document] = .some(identity) } }
    }

    /// Records that this process just removed `document`.
    func recordDeletion(document: String) {
        for log in logs.withLock({ Array($0.values) }) { log.entries.withLock { $0[document] = .some(nil) } }
    }

    /// The instance every store value of `store` (a path as spelt) shares in this process while
    /// one of them exists: a store opened twice on one path must leave out the writes of both.
    static func of(_ store: String) -> OwnWrites {
        byPath.withLock { table in
            if let existing = table[store]?.instance { return existing }
            table = table.filter { $0.value.instance != nil }
            let created = OwnWrites()
            table[store] = Weak(instance: created)
            return created
        }
    }

    /// The instances of the paths whose stores are alive, held weakly so a path no store uses
    /// any more is forgotten.
    private static let byPath = LockedState<[String: Weak]>([:])

    private struct Weak: Sendable {
        weak var instance: OwnWrites?
    }
}

/// What tells one version of a document's file from another: a writer replaces the file with a
/// new one (new inode), and the times tell a reused inode number apart.
struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: Int64
    var changed: Int64

    init(_ status: FileStatus) {
        device = status.device; inode = status.inode; size = status.size
        modified = status.modified; changed = status.changed
    }

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device; self.inode = inode; self.size = size; self.modified = modified; self.changed = changed
    }
}
