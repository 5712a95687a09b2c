import Foundation

/// What this process wrote, for the observers that leave its own writes out.
///
/// Each such observer registers a log for its store path. Every document write and delete a
/// `Store` of that path makes then records, in each log, the document's file as the write left it
/// (`lstat` right after the rename: still under the store's lock, so no other writer can have
/// replaced it in between), or its absence. When the observer sees the document change, it takes
/// the entry: a file that is still the one recorded is this process's write and is not reported;
/// any other file (another process wrote after) is. With no observer registered a write records
/// nothing and costs one dictionary look-up.
///
/// The record is made just after the rename: a scan that runs in between (the writing thread held
/// up for longer than the coalescing window) reports that write as another process's, a harmless
/// extra re-read; the entry then left over never matches a later file and is simply taken.
///
/// "Own" is this process, through any `Store` or `AsyncStore` of that path as spelt. Writes that
/// opening a store makes (the temp-file sweep, the queue reconcile) are not recorded: observers
/// see them as another process's.
final class OwnWrites: Sendable {
    static let shared = OwnWrites()

    /// Store path → the logs of its observers.
    private let logs = LockedState<[String: [ObjectIdentifier: Log]]>([:])

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

    func register(store: String) -> Log {
        let log = Log()
        logs.withLock { $0[store, default: [:]][ObjectIdentifier(log)] = log }
        return log
    }

    func unregister(_ log: Log, store: String) {
        logs.withLock { map in
            map[store]?[ObjectIdentifier(log)] = nil
            if map[store]?.isEmpty == true { map[store] = nil }
        }
    }

    /// How many observers leave out this process's writes to `store` (for tests).
    func observers(of store: String) -> Int {
        logs.withLock { $0[store]?.count ?? 0 }
    }

    /// Records that this process just replaced `document` (a full path in `store`).
    func recordWrite(store: String, document: String, system: SystemCalls) {
        guard let targets = logs.withLock({ $0[store].map { Array($0.values) } }) else { return }
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
    func recordDeletion(store: String, document: String) {
        guard let targets = logs.withLock({ $0[store].map { Array($0.values) } }) else { return }
        for log in targets { log.entries.withLock { $0[document] = .some(nil) } }
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
