extension BackupWriter {
    /// What step 4 of `Backup.create` learns from the files read back.
    struct Description {
        /// Every file's size and SHA-256, sorted by path.
        var entries: [BackupManifest.Entry]
        /// `store.json`'s `schema_version`.
        var schemaVersion: Int
        /// `store.json`'s `created_at` and `format`, recorded in `backup.json`.
        var identity: StoreIdentity?
        /// The documents that do not decode, sorted by entry.
        var unreadable: [ArchiveProblem]
    }

    /// Reads every captured file back from the staging folder, hashes it (the only hash of its
    /// bytes) and decodes it. `store.json` comes first: its version decides how the other
    /// documents are read (STORE-FORMAT §4). The others are independent, so with the real file
    /// system they are read, hashed and decoded on several threads (`ParallelBatches`).
    func describe(_ files: [BackupCapture.File]) throws(StoreError) -> Description {
        let reader = StagedFileReader(staging: stagingDirectory.path, store: store, destination: target.path, system: system)
        var description = Description(entries: [], schemaVersion: 0, identity: nil, unreadable: [])
        var newer: Bool?
        var counter = PhaseCounter(.verifyingBackup, total: files.count, report: progress)
        for file in files where file.path.kind == .manifest {
            let bytes = try reader.read(file)
            counter.step()
            description.entries.append(StagedFileReader.entry(file, bytes))
            description.schemaVersion = try Self.schemaVersion(of: bytes, store: store)
            description.identity = StoreIdentity(manifestBytes: bytes)
            switch DocumentCheck.manifest(bytes) {
            case .success: newer = description.schemaVersion > DocumentVersion.newest
            case .failure(let problem): description.unreadable.append(problem)
            }
        }
        let documents = files.filter { $0.path.kind != .manifest }
        let acceptingNewer = newer
        let storeSchemaVersion = description.schemaVersion
        // Not decoded when store.json is unreadable: every document would fail the same way.
        try ParallelBatches.run(
            documents, system: system,
            work: { (file) -> Result<(BackupManifest.Entry, ArchiveProblem?), StoreError> in
                do throws(StoreError) {
                    let bytes = try reader.read(file)
                    let problem = acceptingNewer.flatMap { DocumentCheck.check(file.path, bytes, acceptingNewer: $0, storeSchemaVersion: storeSchemaVersion) }
                    return .success((StagedFileReader.entry(file, bytes), problem))
                } catch { return .failure(error) }
            },
            consume: { (_, result) throws(StoreError) in
                let (entry, problem) = try result.get()
                counter.step()
                description.entries.append(entry)
                if let problem { description.unreadable.append(problem) }
            })
        description.entries.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        description.unreadable.sort { $0.entry.utf8.lexicographicallyPrecedes($1.entry.utf8) }
        return description
    }
}

/// Reads the files of a staging folder back (a value that threads may share).
struct StagedFileReader: Sendable {
    let staging: String
    let store: String
    /// The backup folder the staging folder becomes, for messages.
    let destination: String
    let system: SystemCalls

    /// The file's bytes as the staging folder holds them. A copy must still have the size it was
    /// written with (its bytes were compared with the source's when it was written).
    func read(_ file: BackupCapture.File) throws(StoreError) -> [UInt8] {
        let path = file.path.absolute(in: staging)
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, system: system) } catch { throw naming(error, file, staged: path) }
        if !file.linked && Int64(bytes.count) != file.size {
            throw StoreError(
                .io,
                "Can't back up '\(store)': the copy of '\(file.path)' reads back different from what was written. "
                    + "Check the disk of '\(destination)'.", path: path)
        }
        return bytes
    }

    /// `error`, read from the staging folder, naming the store's file instead: a linked file is
    /// that file, and a copy is named as the copy of it in the backup. The staging folder is
    /// removed when the backup fails, so its name would point at nothing.
    private func naming(_ error: StoreError, _ file: BackupCapture.File, staged: String) -> StoreError {
        let original = file.path.absolute(in: store)
        let name = file.linked ? "'\(original)'" : "the copy of '\(original)' in the backup '\(destination)'"
        var named = error.replacingInMessage("'\(staged)'", with: name)
        named.path = original
        return named
    }

    /// The manifest entry of `file`: its size, the SHA-256 of the bytes read back, and the
    /// source's permission bits (setuid, setgid and sticky dropped: `RecordedMode`).
    static func entry(_ file: BackupCapture.File, _ bytes: [UInt8]) -> BackupManifest.Entry {
        BackupManifest.Entry(
            path: file.path.rawValue, size: Int64(bytes.count), sha256: SHA256.hex(of: bytes),
            mode: Int(file.permissions & 0o777))
    }
}
