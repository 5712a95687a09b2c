import Foundation

/// Where the threads of one process that write one store take turns before `flock`.
///
/// `StoreLock` is a `flock` on a descriptor of its own, so a second thread of the same process
/// waits for it like another process would: by polling `LOCK_NB` every 20 ms. Between threads that
/// is a waste (several writers spend most of their time asleep with the lock free); here they queue
/// on a condition variable instead, and the one that enters takes the `flock` (which it then gets at
/// once unless another process holds it). The gate never replaces the `flock`: other processes
/// still see and respect only the file lock.
///
/// One gate per store path as given (two spellings of one path get two gates and fall back to the
/// `flock` polling between them, which is correct, only slower). Gates are kept for the life of the
/// process: one small object per store written.
final class WriterGate: @unchecked Sendable {
    // @unchecked: `busy` and `recordsTaken` are touched only while holding `condition`,
    // `recordsStored` under `records`, `gates` under `registry`.
    private let condition = NSCondition()
    private var busy = false
    private var recordsTaken: UInt64 = 0
    // Guarded by `records`: record writes may run after the lock (`AfterLock`), one at a time.
    private let records = NSLock()
    private var recordsStored: UInt64 = 0
    /// The `WriteRecord` this process stored last in the store's `.writes`, nil when the last
    /// attempt failed or none was stored (see `lastStoredRecord`).
    private var lastStored: WriteRecord?

    private static let registry = NSLock()
    nonisolated(unsafe) private static var gates: [Key: WriterGate] = [:]

    private struct Key: Hashable {
        var path: String
        /// `SystemCalls.seamIdentity`: tests run stores of the same path on different model file systems.
        var seam: ObjectIdentifier?
    }

    /// The gate of the store at `path`, reached through `system`.
    static func of(store path: String, system: SystemCalls) -> WriterGate {
        let key = Key(path: path, seam: system.seamIdentity)
        return registry.guarded {
            if let gate = gates[key] { return gate }
            let gate = WriterGate()
            gates[key] = gate
            return gate
        }
    }

    /// Enters the gate, waiting up to `timeout` for the thread inside to leave. Returns false
    /// when the time passed first (with a zero timeout: when another thread is inside).
    func enter(timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let deadline = Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while busy {
            if !condition.wait(until: deadline) && busy { return false }
        }
        busy = true
        return true
    }

    /// The number of the next `WriteRecord` taken under the lock; called by the thread inside.
    func nextRecordNumber() -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        recordsTaken += 1
        return recordsTaken
    }

    /// Stores `record` (number `number`) in the store's `.writes` unless a record taken later was
    /// stored already, and keeps it as `lastStoredRecord` when the write succeeded.
    func storeRecord(_ record: WriteRecord, number: UInt64, store: String, system: SystemCalls) {
        records.guarded {
            guard number > recordsStored else { return }
            recordsStored = number
            lastStored = record.store(in: store, system: system) ? record : nil
        }
    }

    /// The record this process stored last through this gate (nil if the last attempt failed).
    ///
    /// What `Store.writing` checks the folders against before it reads `.writes` (reading
    /// it is an `open`, two `read`s, a `close`, a SHA-256 and a parse per write). When the
    /// tracked entries equal it, nobody changed them since this process's write that it
    /// describes, which left the store reconciled (that write's own check before it matched), so
    /// the store is still as this library left it, whatever `.writes` holds now (a record another
    /// process stored since describes another state of those entries, which then differ: the
    /// file is read as before). An entry's change time never goes back, so entries that equal
    /// the record are the ones it described, not the same numbers again.
    func lastStoredRecord() -> WriteRecord? {
        records.guarded { lastStored }
    }

    /// Forgets `lastStoredRecord`: for `WriteRecord.remove`, whose caller wants the next open and
    /// write to trust no record.
    func forgetStoredRecord() {
        records.guarded { lastStored = nil }
    }

    /// Leaves the gate and wakes one waiting thread.
    func leave() {
        condition.lock()
        busy = false
        condition.signal()
        condition.unlock()
    }
}
