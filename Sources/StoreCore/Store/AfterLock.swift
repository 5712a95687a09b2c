/// What a write of `Store.groupWriting` leaves for after the store's lock (group commit):
/// the `fsync` of the folder its rename went into, shared with other threads through
/// `FolderSyncGroup`, then the `WriteRecord` captured under the lock.
///
/// The write is confirmed only by `complete`: until that returns, the new document is in place
/// (readers see it, the next writer reads it) but its name may not survive a power loss.
package final class AfterLock {
    private var folder: ReplacedFile?
    /// The record taken under the lock and its number (`WriterGate.nextRecordNumber`).
    var record: (WriteRecord, UInt64)?
    /// Set by `Store.lockForWriting`'s caller: the gate whose numbering `record` follows.
    var gate: WriterGate?

    /// The first component of the written document's path in the store (`sessions`,
    /// `user-sessions`, …); nil until a document was written.
    private(set) var writtenEntry: String?

    /// Keeps the folder of a renamed document for `complete`. Once per write. `relative` is the
    /// document's path in the store (`sessions/<id>.json`).
    func `defer`(_ replaced: consuming ReplacedFile, relative: String) {
        precondition(folder == nil, "AfterLock: a second document was written in one groupWriting")
        folder = consume replaced
        writtenEntry = relative.utf8.firstIndex(of: UInt8(ascii: "/")).map { String(relative[..<$0]) } ?? relative
    }

    /// Waits for a folder `fsync` after the rename (shared), then stores the record unless a newer
    /// one was stored meanwhile. The record is written only once the document is durable, as in
    /// `Store.writing`: a record never describes a folder whose change could still be lost.
    func complete(store: String, system: SystemCalls) throws(StoreError) {
        if let replaced = folder.take() {
            try FolderSyncGroup.shared.sync(replaced.directory, system: system, context: replaced.context)
        }
        if let (record, number) = record, let gate {
            gate.storeRecord(record, number: number, store: store, system: system)
        }
    }
}

/// The store's lock as `Store.lockForWriting` takes it: this process's `WriterGate`, then the
/// `flock` of `StoreLock`. Released in the reverse order.
struct HeldWriteLock {
    let gate: WriterGate
    let lock: StoreLock

    func release() {
        lock.release()
        gate.leave()
    }
}
