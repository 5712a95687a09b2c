import Foundation

/// What `Backup.create` made.
public struct BackupReport: Sendable, Equatable {
    /// The backup folder, as given.
    public var destination: String
    /// The backup's `backup.json`: every file with its size and SHA-256.
    public var manifest: BackupManifest
    /// How many files are hard links to the store's (only with `Backup.Options.allowHardLinks`;
    /// see `BackupCapture`).
    public var linkedFiles: Int
    /// How many files are independent copies: byte copies and copy-on-write clones.
    public var copiedFiles: Int
    /// How many of the `copiedFiles` are copy-on-write clones (the file system shares their
    /// blocks with the store's until either file changes; as independent as a byte copy).
    public var clonedFiles: Int
    /// Documents of the store that do not decode: backed up as they are (a backup of a damaged
    /// store is still worth having), but `verify-backup` and `restore` will report them.
    public var unreadableDocuments: [ArchiveProblem]
    /// Dot names in the store that were left out (lock file, temp files, journals).
    public var skippedDotNames: [String]
    /// Staging folders of earlier backups that were interrupted (a crash or a kill), removed
    /// before this one started: partial copies that no process held.
    public var removedStagingFolders: [String] = []

    /// The total size of the store files, in bytes.
    public var totalBytes: Int64 { manifest.files.reduce(0) { $0 + $1.size } }
}

/// Consistent, verified backups of a store.
///
/// A backup is a folder with the store's files at the same relative paths, plus `SHA256SUMS`
/// (checkable with `cd <backup> && sha256sum -c SHA256SUMS`) and `backup.json` (see
/// `BackupManifest`). Bookkeeping files (dot names) are never in it.
public enum Backup {
    /// How to take a backup.
    public struct Options: Sendable {
        /// Hard-link the store's files when the destination is on the same file system, instead
        /// of cloning or copying them. The default is `false`.
        ///
        /// - Warning: A linked file is the store's file under a second name. The store never
        ///   writes in place, but anything that does (an editor, a script opening a store file with
        ///   `r+`) changes the backup too. Link only for a short-lived backup on a store nothing
        ///   else edits.
        public var allowHardLinks: Bool
        /// How long to wait for a writer that holds the store's lock. The default is 10 seconds.
        public var lockTimeout: Duration

        /// Options with the given values; every default is the documented one.
        public init(allowHardLinks: Bool = false, lockTimeout: Duration = StoreLock.defaultTimeout) {
            self.allowHardLinks = allowHardLinks
            self.lockTimeout = lockTimeout
        }
    }

    /// Takes a consistent backup of `store` into the new folder `destination`, and verifies it.
    ///
    /// The steps:
    /// 1. Refuse if `destination` exists. Remove staging folders of earlier crashed backups to the
    ///    same destination (`StagingDirectory.removeStale`).
    /// 2. Create the staging folder `<parent>/.<name>.staging-<16 hex>` next to `destination`.
    /// 3. Under the store's exclusive lock, so that no writer can interleave: list the store (an
    ///    entry that does not belong is an error, never skipped silently) and put every file into
    ///    staging as a copy-on-write clone where the file system offers one, else a byte copy (a
    ///    hard link only with `allowHardLinks`; `BackupCapture`); a clone or copy is read back at
    ///    once and compared byte for byte with the source bytes. The lock is released right
    ///    after: the snapshot is complete, and its files are its own.
    /// 4. Read every file back from staging, hash it (once) and decode it; write `SHA256SUMS` and
    ///    `backup.json`; make every file durable (one `syncfs` on Linux, else an fsync each),
    ///    fsync the staging folders.
    /// 5. Check the staging folder against the manifest (file set, types, sizes) and read
    ///    `backup.json` and `SHA256SUMS` back (`BackupWriter.confirmWritten`).
    /// 6. Rename staging to `destination` and fsync the parent. A crash before this leaves only a
    ///    dot-named staging folder; `destination` never holds a partial backup.
    ///
    /// ```swift
    /// let report = try Backup.create(store: "/data/store", destination: "/data/store.backup-1",
    ///                                tool: "migrate-store", version: "0.1.0")
    /// print(report.manifest.files.count, report.totalBytes)
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store folder.
    ///   - destination: The backup folder to create. It must not exist; its parent must.
    ///   - tool: The calling tool's name, recorded in the store's lock file while it is held.
    ///   - version: The calling tool's version: recorded in the lock file and in `backup.json`.
    ///   - options: Linking and lock timeout. The default clones or copies (never links) and waits 10 s.
    ///   - lock: The store's lock when the caller already holds it (`migrate` backs up inside
    ///     its own locked section; taking the lock again would wait for itself, since flock
    ///     locks of two descriptors conflict even in one process). The default is nil: the
    ///     backup takes the lock itself.
    ///   - progress: Called on the calling thread as the backup goes: `.waitingForLock` when a
    ///     writer holds the store, then `.phase(.backingUp, …)` for each file put into the backup
    ///     and `.phase(.verifyingBackup, …)` for each file read back, both counting to the number
    ///     of store files. The default does nothing; the backup is the same without it.
    /// - Throws: `StoreError`: `.unsupportedVersion` or `.invalidDocument` for a store this tool
    ///   can't read as a store (`StoreReadability`: a version it does not know, or work streams
    ///   outside the folder `store.json` names), before anything is created;
    ///   `.invalidArgument` when `lock` is released or another store's;
    ///   `.alreadyExists` when `destination` exists; `.locked` when a writer
    ///   holds the store longer than the timeout; `.notAStore`; `.invalidFileName` naming every
    ///   entry of the store that does not belong; `.io` if the written backup does not verify; or
    ///   the code of a failed system call. Nothing is left at `destination` after an error.
    public static func create(
        store: String, destination: String, tool: String, version: String,
        options: Options = Options(), holding lock: StoreLock? = nil,
        progress: (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> BackupReport {
        // A backup claims to hold the store: read it as a store first (a version this tool knows,
        // its work streams where store.json says). A caller holding the lock (migrate) has done so.
        if lock == nil {
            try requireStoreFolder(store, system: .real)
            _ = try StoreReadability.require(store, action: "back up")
        }
        // Kept only for the duration of this call.
        return try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in
            try create(
                store: store, destination: destination, tool: tool, version: version, options: options,
                holding: lock, system: .real, progress: progress)
        }
    }

    /// The default place for a backup of `store` taken at `date`: a new folder next to it,
    /// `<store>.backup-<yyyyMMdd'T'HHmmss'Z'>` (UTC), for `migrate`'s backup before its first write.
    ///
    /// - Throws: `StoreError` `.invalidFileName` for a store path without a last component (`/`, `..`).
    public static func defaultDestination(store: String, date: Date = Date()) throws(StoreError) -> String {
        let target = try SiblingPath(store)
        return target.sibling("\(target.name).backup-\(AsideName.stamp(date))")
    }

    static func create(
        store: String, destination: String, tool: String, version: String,
        options: Options, holding lock: StoreLock? = nil, system: SystemCalls,
        progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> BackupReport {
        if let lock { try checkHeld(lock, store: store, destination: destination) }
        let target = try SiblingPath(destination)
        try refuseExisting(target, system: system)
        try requireStoreFolder(store, system: system)
        guard !target.isInside(store) else {
            throw StoreError(
                .invalidFileName,
                "Can't create the backup '\(destination)' inside the store '\(store)': it would "
                    + "become part of what it copies. Choose a folder outside the store.", path: destination)
        }
        let removed =
            StagingDirectory.removeStale(besides: target, purpose: "staging", system: system)
            + StagingDirectory.removeStaleDefaultBackups(of: try SiblingPath(store), system: system)
        let staging = try StagingDirectory(besides: target, purpose: "staging", system: system)
        do {
            var report = try BackupWriter(
                store: store, staging: staging, target: target, tool: tool, version: version,
                options: options, heldLock: lock, system: system, progress: progress
            ).write()
            try refuseExisting(target, system: system)
            try system.rename(staging.path, to: target.path, context: ErrorContext("create the backup", target.path))
            staging.release()
            try NewFiles.syncDirectory(target.parent, note: "the backup is complete but may not survive a power failure", system: system)
            report.removedStagingFolders = Array(Set(removed)).sorted()
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// The lock a caller passes must be this store's (the same path as given) and still held:
    /// otherwise the backup would run with no lock at all, and a writer could interleave.
    private static func checkHeld(_ lock: StoreLock, store: String, destination: String) throws(StoreError) {
        if lock.isHeld && lock.storePath == store { return }
        let why = lock.isHeld ? "the lock passed in is the lock of '\(lock.storePath)'" : "the lock passed in was released"
        let fix = "Pass the held StoreLock of '\(store)' (the same path), or nil to let the backup take the lock itself."
        throw StoreError(
            .invalidArgument, "Can't back up '\(store)' into '\(destination)': \(why). \(fix) Nothing was created.",
            path: store, recovery: .advice(fix))
    }

    private static func refuseExisting(_ target: SiblingPath, system: SystemCalls) throws(StoreError) {
        guard try system.linkStatus(target.path, context: ErrorContext("create the backup", target.path)) != nil else { return }
        throw StoreError(
            .alreadyExists,
            "Can't create the backup '\(target.path)': it already exists. Choose a new folder name; an existing backup is never overwritten.",
            path: target.path)
    }

    static func requireStoreFolder(_ store: String, system: SystemCalls) throws(StoreError) {
        let context = ErrorContext("read the store", store)
        guard let status = try system.linkStatus(store, context: context) else {
            if let interrupted = InterruptedRestore.error(store, system: system) { throw interrupted }
            throw StoreError(.notFound, "Can't read the store '\(store)': it does not exist. Check the path.", path: store)
        }
        guard status.type == .directory || status.type == .symbolicLink else {
            throw StoreError(.notAStore, "Can't read the store '\(store)': it is not a folder. Check the path.", path: store)
        }
    }
}
