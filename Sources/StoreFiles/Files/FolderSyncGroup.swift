import Foundation

/// Group commit of folder `fsync`s: writers of one process whose renames landed in the
/// same folder share one `fsync` of it, and each still returns only once its own rename is durable.
///
/// A rename is durable once an `fsync` of its folder that *started after the rename* has completed
/// (man 2 fsync: the folder's entries as they are when the call is made). So a writer that has
/// renamed takes a ticket and waits:
/// 1. while no `fsync` of its folder is running, it leads: it takes every waiting ticket (its own
///    among them, all of them renamed before they were taken), runs one `fsync` through its own
///    descriptor, and hands the result to each ticket of that batch;
/// 2. while one is running, it waits: that `fsync` may have started before its rename, so it is
///    never counted; the ticket goes into the next batch, led by whoever wakes first.
///
/// A batch shares its `fsync`'s outcome: when it fails, every writer of the batch reports the
/// failure (the new version is in place but not confirmed, as `AtomicFile.durableReplace` says)
/// and nobody retries it (a failed fsync is never retried, see `SystemCalls.sync`).
///
/// Folders are told apart by device and inode (`fstat` of the caller's descriptor), never by
/// path: a folder replaced under its path (a restore, a migration's exchange) is another folder,
/// and an `fsync` of one never stands in for the other.
///
/// Nothing here waits on a clock: a writer sleeps only while another thread's `fsync` runs.
package final class FolderSyncGroup: @unchecked Sendable {
    /// The process's group, which `Store` writes use.
    package static let shared = FolderSyncGroup()

    // @unchecked: `folders` and every `Ticket` are touched only while holding `condition`.
    private let condition = NSCondition()
    private var folders: [FolderKey: Folder] = [:]
    /// How many `fsync`s this group ran (for tests).
    private var syncs = 0

    /// A group of its own, apart from `shared` (for tests).
    package init() {}

    private struct FolderKey: Hashable {
        /// The seam the calls go through (`SystemCalls.seamIdentity`): two model file systems of
        /// tests running at once have the same device and inode numbers.
        var seam: ObjectIdentifier?
        var device: UInt64
        var inode: UInt64
    }

    private final class Ticket {
        var done = false
        var errno: Int32?
        var error: StoreError?
    }

    private struct Folder {
        var waiting: [Ticket] = []
        var syncing = false
    }

    /// Returns once an `fsync` of the folder `directory` refers to, started after this call began,
    /// has completed; throws that `fsync`'s error (with this caller's `context`) if it failed.
    ///
    /// - Parameters:
    ///   - directory: The folder, opened before the caller's rename (`AtomicFile.openDirectory`).
    ///   - system: The calls `directory` was opened through.
    ///   - context: What the caller was doing, for the error.
    /// - Throws: `StoreError` from `fstat` or the shared `fsync`.
    package func sync(_ directory: borrowing FileDescriptor, system: SystemCalls, context: ErrorContext) throws(StoreError) {
        let status = try directory.status(context: context)
        let key = FolderKey(seam: system.seamIdentity, device: status.device, inode: status.inode)
        let ticket = Ticket()
        condition.lock()
        folders[key, default: Folder()].waiting.append(ticket)
        while !ticket.done {
            if folders[key]!.syncing {
                condition.wait()
                continue
            }
            let batch = folders[key]!.waiting
            folders[key]!.waiting = []
            folders[key]!.syncing = true
            syncs += 1
            condition.unlock()
            var failure: StoreError?
            do {
                try directory.sync(context: context)
            } catch {
                failure = error
            }
            condition.lock()
            for member in batch {
                member.done = true
                member.error = failure
                member.errno = failure?.errno
            }
            folders[key]!.syncing = false
            // Every ticket not done is in `waiting` (the only batch in flight was this one).
            if folders[key]!.waiting.isEmpty { folders[key] = nil }
            condition.broadcast()
        }
        condition.unlock()
        guard let error = ticket.error else { return }
        // Another writer's fsync failed: the same errno, told about this caller's file.
        if let errno = ticket.errno { throw StoreError.systemCall("fsync", errno: errno, context: context) }
        throw error
    }

    /// How many `fsync`s have run, and how many writers wait for one (for tests).
    package var counts: (syncs: Int, waiting: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (syncs, folders.values.reduce(0) { $0 + $1.waiting.count })
    }
}
