/// Checks the files of a backup folder (or a staging folder) against what its manifest lists:
/// presence, size, SHA-256, and that every document decodes.
struct ArchiveContents {
    /// The folder holding the files.
    let root: String
    let system: SystemCalls

    static let invalidPathMessage =
        "is not a path a store may contain (STORE-FORMAT §1 allows store.json, settings.json, "
        + "queue.json, sessions/<lowercase uuid>.json and user-sessions/<lowercase uuid>.json, nothing else); it is never read or written"

    /// Checks every listed file, `store.json` first (its version decides how newer documents are
    /// read), and reports files on disk that are not listed.
    ///
    /// - Parameters:
    ///   - present: The valid store paths found on disk as regular files (`TreeScan.files`).
    ///   - storeSchemaVersion: What the manifest says `store.json` holds; a mismatch is a problem.
    ///   - progress: Told `.phase(.verifyingBackup, …)` before the first listed file and after each.
    /// - Returns: The entries whose file matched in size and hash and whose document decodes.
    /// - Throws: `StoreError` for a failure to read that says nothing about the backup itself
    ///   (`.permissionDenied`, `.io`); a missing file or a file that is not regular is a problem.
    func check(
        listed: ListedFiles, present: Set<StoreFilePath>, storeSchemaVersion: Int,
        problems: inout [ArchiveProblem],
        progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> [StoreFilePath: BackupManifest.Entry] {
        var verified: [StoreFilePath: BackupManifest.Entry] = [:]
        let listedPaths = Set(listed.valid.map(\.path))
        for path in present.subtracting(listedPaths).sorted() {
            problems.append(ArchiveProblem(.corrupt, entry: path.rawValue, "is in the backup folder but not listed in \(BackupManifest.fileName)"))
        }
        let ordered = listed.valid.filter { $0.path.kind == .manifest } + listed.valid.filter { $0.path.kind != .manifest }
        if !listedPaths.contains(where: { $0.kind == .manifest }) {
            problems.append(ArchiveProblem(.corrupt, entry: StoreLayout.manifest, "is not in the backup: a backup of a store always has it"))
        }
        // nil until store.json decoded; documents of a store this tool may not read are not decoded.
        var newer: Bool? = nil
        var counter = PhaseCounter(.verifyingBackup, total: ordered.count, report: progress)
        for (path, entry) in ordered {
            // A file that is missing or can't be read counts as checked, too.
            guard present.contains(path) else {
                if !problems.contains(where: { $0.entry == path.rawValue }) {
                    problems.append(
                        ArchiveProblem(.corrupt, entry: path.rawValue, "is listed in \(BackupManifest.fileName) but missing from the backup folder"))
                }
                counter.step()
                continue
            }
            guard let bytes = try read(path, problems: &problems) else {
                counter.step()
                continue
            }
            if let problem = Self.integrityProblem(
                path.rawValue, bytes, size: entry.size, sha256: entry.sha256,
                recordedIn: BackupManifest.fileName)
                ?? decodeProblem(path, bytes, storeSchemaVersion: storeSchemaVersion, newer: &newer)
            {
                problems.append(problem)
            } else {
                verified[path] = entry
            }
            counter.step()
        }
        return verified
    }

    /// The file's bytes, or nil with a problem when it vanished or is not a regular file.
    private func read(_ path: StoreFilePath, problems: inout [ArchiveProblem]) throws(StoreError) -> [UInt8]? {
        do {
            return try FileReader.read(path.absolute(in: root), system: system)
        } catch  where [.notFound, .symlinkRefused, .notARegularFile, .fileTooLarge].contains(error.code) {
            problems.append(ArchiveProblem(.corrupt, entry: path.rawValue, "can't be read: \(error.message)"))
            return nil
        }
    }

    /// A size or hash mismatch, or nil when both match.
    static func integrityProblem(
        _ entry: String, _ bytes: [UInt8], size: Int64, sha256: String,
        recordedIn source: String
    ) -> ArchiveProblem? {
        if Int64(bytes.count) != size {
            let hint = Int64(bytes.count) < size ? " (truncated?)" : ""
            return ArchiveProblem(.corrupt, entry: entry, "is \(bytes.count) bytes but \(source) records \(size)\(hint)")
        }
        let actual = SHA256.hex(of: bytes)
        guard actual == sha256 else {
            return ArchiveProblem(
                .corrupt, entry: entry,
                "has SHA-256 \(actual) but \(source) records \(sha256): the file was changed or damaged")
        }
        return nil
    }

    /// Decodes a verified document; for `store.json` also checks the recorded schema version and
    /// sets `newer` (read newer documents, STORE-FORMAT §4) for the documents after it. Other
    /// documents are not decoded when `store.json` is unreadable: every one would fail the same way.
    private func decodeProblem(
        _ path: StoreFilePath, _ bytes: [UInt8], storeSchemaVersion: Int,
        newer: inout Bool?
    ) -> ArchiveProblem? {
        guard path.kind == .manifest else {
            guard let acceptingNewer = newer else { return nil }
            return DocumentCheck.check(path, bytes, acceptingNewer: acceptingNewer, storeSchemaVersion: storeSchemaVersion)
        }
        switch DocumentCheck.manifest(bytes) {
        case .failure(let problem):
            return problem
        case .success(let version):
            newer = version > DocumentVersion.newest
            guard version == storeSchemaVersion else {
                return ArchiveProblem(
                    .corrupt, entry: path.rawValue,
                    "has schema_version \(version) but \(BackupManifest.fileName) records store_schema_version \(storeSchemaVersion)")
            }
            return nil
        }
    }
}
