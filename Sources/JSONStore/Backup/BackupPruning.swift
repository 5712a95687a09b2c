#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `Backup.prune(besides:keeping:dryRun:)` did, or would do with `dryRun`.
public struct BackupPruneReport: Sendable, Equatable {
    /// The backups found before anything was removed (`Backup.list(besides:)`).
    public var listing: BackupListing
    /// The number of backups asked to keep.
    public var keep: Int
    /// True when nothing was removed: `removed` is what a run without `dryRun` would remove.
    public var dryRun: Bool
    /// The backups that may be pruned and are kept, the newest `keep` of them; oldest first.
    public var kept: [ListedBackup]
    /// The backups removed (or, in a dry run, to be removed); oldest first.
    public var removed: [ListedBackup]
    /// Folders of an interrupted earlier prune, removed first (none in a dry run).
    public var finishedRemovals: [String]

    /// The backups never pruned, each with its `keptBecause`; oldest first.
    public var untouched: [ListedBackup] { listing.backups.filter { $0.keptBecause != nil } }
    /// The disk space `removed` took, in bytes.
    public var bytesFreed: Int64 { removed.reduce(0) { $0 + $1.bytesOnDisk } }
}

extension Backup {
    /// Removes the oldest backups beside `store`, keeping the newest `keep` of those it may remove.
    ///
    /// It may remove a folder only when all of these hold (`ListedBackup.keptBecause` is nil):
    /// it has the name `migrate` gives (`<store>.backup-<yyyyMMdd'T'HHmmss'Z'>`, in the store's
    /// parent folder), it is a real folder (not a link), its `backup.json` reads and records the
    /// identity of the store's `store.json`, and every file it lists is there with its size. Any
    /// other folder, backup or not, is never touched and does not count towards `keep`; so the
    /// `keep` newest are complete backups of this store.
    ///
    /// Each folder is removed so that a crash never leaves a partial folder under a backup's name:
    /// it is locked (`flock`), renamed to `.<name>.removing-<16 hex>` and the rename is made
    /// durable (fsync of the parent) before anything in it is deleted. A prune that was
    /// interrupted leaves only such a dot-named folder, which `Backup.list` reports and the next
    /// prune removes first.
    ///
    /// ```swift
    /// let report = try Backup.prune(besides: "/data/store", keeping: 2)
    /// print(report.removed.map(\.name), report.bytesFreed)
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store folder. Its `store.json` must read: it is what identifies the backups.
    ///   - keep: How many of the prunable backups to keep, the newest; at least 1.
    ///   - dryRun: Remove nothing; report what would be removed. The default is `false`.
    /// - Throws: `StoreError`: `.invalidArgument` for `keep` below 1; `.notFound` or `.notAStore`
    ///   for a store that is not there; `.invalidDocument` when its `store.json` has no identity
    ///   (nothing is removed then); the code of a failed system call, with the folders removed
    ///   before it named in the message.
    public static func prune(besides store: String, keeping keep: Int, dryRun: Bool = false) throws(StoreError) -> BackupPruneReport {
        try prune(besides: store, keeping: keep, dryRun: dryRun, system: .real)
    }

    static func prune(besides store: String, keeping keep: Int, dryRun: Bool, system: SystemCalls) throws(StoreError) -> BackupPruneReport {
        guard keep >= 1 else {
            throw StoreError(
                .invalidArgument, "Can't prune the backups of '\(store)' keeping \(keep): keep at least 1. Nothing was removed.",
                path: store)
        }
        try requireStoreFolder(store, system: system)
        let target = try SiblingPath(store)
        guard storeIdentity(of: target.path, system: system) != nil else {
            throw StoreError(
                .invalidDocument,
                "Can't prune the backups of '\(store)': its \(StoreLayout.manifest) does not read, so no "
                    + "backup can be shown to be of this store. Nothing was removed. Check the store with 'validate'.",
                path: store)
        }
        let finished = dryRun ? [] : StagingDirectory.removeInterruptedRemovals(besides: target, system: system)
        let listing = try list(besides: store, system: system)
        let prunable = listing.backups.filter { $0.keptBecause == nil }
        let kept = Array(prunable.suffix(keep))
        let removing = Array(prunable.dropLast(keep))
        var report = BackupPruneReport(
            listing: listing, keep: keep, dryRun: dryRun, kept: kept, removed: dryRun ? removing : [],
            finishedRemovals: finished)
        guard !dryRun else { return report }
        for backup in removing {
            do {
                try remove(backup, system: system)
            } catch {
                let done =
                    report.removed.isEmpty
                    ? "No backup was removed."
                    : "Removed before it: " + report.removed.map { "'\($0.name)'" }.joined(separator: ", ") + "."
                var named = error
                named.message = "\(error.message) \(done)"
                throw named
            }
            report.removed.append(backup)
        }
        return report
    }

    /// Locks the folder, renames it to a dot name, makes the rename durable, then deletes it.
    private static func remove(_ backup: ListedBackup, system: SystemCalls) throws(StoreError) {
        let folder = try SiblingPath(backup.path)
        let context = ErrorContext("remove the backup", backup.path)
        let fd = try FileDescriptor(
            opening: backup.path, flags: O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
            system: system, context: context)
        guard try fd.tryLock(LOCK_EX, context: context) else {
            throw StoreError(
                .locked, "Can't remove the backup '\(backup.path)': another process locked it. Try again later.",
                path: backup.path)
        }
        let removing = folder.sibling(".\(folder.name)\(removingMarker)\(NewFiles.randomSuffix())")
        try system.rename(backup.path, to: removing, context: context)
        try NewFiles.syncDirectory(folder.parent, system: system)
        try NewFiles.removeTree(removing, system: system)
        fd.unlock()
        fd.discard()
    }
}

extension StagingDirectory {
    /// Removes the folders an interrupted `Backup.prune` left (`.<store>.backup-<time>.removing-*`)
    /// that no process holds a lock on.
    ///
    /// - Returns: The paths removed. One that can't be removed stays, and `Backup.list` reports it.
    static func removeInterruptedRemovals(besides store: SiblingPath, system: SystemCalls = .real) -> [String] {
        let prefix = ".\(store.name).backup-"
        // Named as `Backup.list` names them: `store.sibling(name)`, not `./name` for a bare store name.
        return removeStale(in: store.parent, system: system) { $0.hasPrefix(prefix) && $0.contains(Backup.removingMarker) }
            .map { store.sibling(String($0.split(separator: "/").last ?? "")) }
    }
}
