import Foundation

/// Steps 3–5 of `Backup.create`, inside the staging folder: capture under the lock, hash and
/// describe, verify. The caller renames the folder into place or discards it.
///
/// The guarantee "verified after writing": every file of the backup is read back from the
/// backup's own path after it was written (linked or copied), and what it holds is the source as
/// captured: a copy is compared byte for byte with the source bytes it was written from
/// (`BackupCapture`); a hard link is the captured inode itself. The SHA-256 in the manifest is
/// taken from those read-back bytes, once per file, and the documents are decoded from them,
/// once. After everything is durable, `confirmWritten` checks the folder against the manifest
/// (file set, types, sizes) and reads `backup.json` and `SHA256SUMS` back. The store files are
/// not read and hashed a second time: a second read would be served from the same page cache as
/// the first (neither goes to the disk), so it would only hash the same bytes again.
struct BackupWriter {
    let store: String
    let stagingDirectory: StagingDirectory
    let target: SiblingPath
    let tool: String
    let version: String
    let options: Backup.Options
    /// The store's lock when the caller holds it already; nil to take it here.
    let heldLock: StoreLock?
    let system: SystemCalls
    /// Told of a lock wait and of each file captured and read back (`StoreProgress`).
    let progress: (StoreProgress) -> Void

    init(
        store: String, staging: StagingDirectory, target: SiblingPath, tool: String, version: String,
        options: Backup.Options, heldLock: StoreLock?, system: SystemCalls, progress: @escaping (StoreProgress) -> Void = { _ in }
    ) {
        self.store = store
        self.stagingDirectory = staging
        self.target = target
        self.tool = tool
        self.version = version
        self.options = options
        self.heldLock = heldLock
        self.system = system
        self.progress = progress
    }

    private var staging: String { stagingDirectory.path }

    func write() throws(StoreError) -> BackupReport {
        let capture = BackupCapture(
            store: store, staging: staging, destination: target.path, tryLinks: try linksPossible(),
            system: system)
        let (files, skipped, folderModes, folders) = try withStoreLock { () throws(StoreError) in
            let (files, skipped, folders) = try capture.capture(progress: progress)
            let modes = try RecordedMode.folderModes(of: store, system: system).filter { $0.key == "." || folders.contains($0.key) }
            return (files, skipped, modes, folders)
        }
        let described = try describe(files)
        let manifest = BackupManifest(
            toolVersion: version, storeSchemaVersion: described.schemaVersion,
            createdAt: Date(), storeIdentity: described.identity, files: described.entries,
            folderModes: folderModes.mapValues { Int($0) })
        let written = WrittenManifest(manifest)
        try NewFiles.write(joinPath(staging, ChecksumFile.fileName), written.checksums, sync: false, system: system)
        try NewFiles.write(joinPath(staging, BackupManifest.fileName), written.manifestBytes, sync: false, system: system)
        // Linked files too: their data was written by the store's writer, which fsyncs, but the
        // backup does not rely on another program's care.
        try stagingDirectory.makeDurable(
            files.map { $0.path.absolute(in: staging) }
                + [ChecksumFile.fileName, BackupManifest.fileName].map { joinPath(staging, $0) })
        for folder in folders.sorted() {
            try NewFiles.syncDirectory(joinPath(staging, folder), system: system)
        }
        try NewFiles.syncDirectory(staging, system: system)
        try confirmWritten(written)
        let linked = files.filter(\.linked).count
        return BackupReport(
            destination: target.path, manifest: manifest, linkedFiles: linked, copiedFiles: files.count - linked,
            clonedFiles: files.filter { $0.method == .cloned }.count,
            unreadableDocuments: described.unreadable, skippedDotNames: skipped)
    }

    /// True when hard links may work: allowed, and the store and the staging folder are on the
    /// same device (`st_dev`). A link can still fail (`EXDEV`, `EPERM`); the capture copies then.
    private func linksPossible() throws(StoreError) -> Bool {
        guard options.allowHardLinks else { return false }
        let context = ErrorContext("back up", store)
        guard let source = try system.linkStatus(joinPath(store, StoreLayout.manifest), context: context),
            let destination = try system.linkStatus(staging, context: context)
        else { return false }
        return source.device == destination.device
    }

    /// Runs `body` holding the store's exclusive lock. A store on a read-only file system cannot
    /// be locked (the lock file cannot be created or written), but nobody can write to it either,
    /// so it is read without the lock.
    private func withStoreLock<R>(_ body: () throws(StoreError) -> R) throws(StoreError) -> R {
        if heldLock != nil { return try body() }
        let lock: StoreLock
        do {
            // A backup only reads: the message says it can't back up, not that it can't write.
            lock = try StoreLock(
                store: store, tool: tool, version: version, timeout: options.lockTimeout, system: system,
                action: "back up"
            ) { holder in progress(.waitingForLock(store: store, holder: holder)) }
        } catch  where error.code == .readOnlyFileSystem {
            return try body()
        }
        defer { lock.release() }
        return try body()
    }

    /// `store.json`'s `schema_version`, from the header every version shares.
    static func schemaVersion(of bytes: [UInt8], store: String) throws(StoreError) -> Int {
        do {
            return try ManifestHeader(json: try DocumentVersion.parse(bytes)).schemaVersion
        } catch {
            throw StoreError(
                .notAStore,
                "Can't back up '\(store)': its store.json does not read (\(error.reason)), so the "
                    + "store's schema version is unknown. Repair store.json and try again.", path: store, underlying: error)
        }
    }
}
