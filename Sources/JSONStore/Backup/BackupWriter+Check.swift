/// `backup.json` and `SHA256SUMS` of a backup being written: the manifest and the exact bytes of
/// both files, kept so that they can be compared with what reads back.
struct WrittenManifest {
    let manifest: BackupManifest
    let manifestBytes: [UInt8]
    let checksums: [UInt8]

    init(_ manifest: BackupManifest) {
        self.manifest = manifest
        self.manifestBytes = manifest.encoded
        self.checksums = ChecksumFile.render(manifest.files)
    }
}

extension BackupWriter {
    /// Step 5 of `Backup.create`, once everything is durable: the staging folder holds exactly
    /// the files `backup.json` lists, as regular files of the listed sizes, plus `backup.json`
    /// and `SHA256SUMS`, which read back as written and parse back to the same content (so that
    /// `verify-backup` and `sha256sum -c` read what was meant).
    ///
    /// The files' content was read back and hashed once already (see `BackupWriter`); it is
    /// not hashed again here.
    ///
    /// - Throws: `StoreError` `.io` listing every difference, or the code of a failed call.
    func confirmWritten(_ written: WrittenManifest) throws(StoreError) {
        let scan = try TreeScan.scan(
            stagingDirectory.path, extraFiles: [BackupManifest.fileName, ChecksumFile.fileName],
            system: system)
        var problems = scan.problems
        let present = Dictionary(uniqueKeysWithValues: scan.files.map { ($0.rawValue, $0) })
        for entry in written.manifest.files {
            guard let file = present[entry.path] else {
                problems.append(ArchiveProblem(.corrupt, entry: entry.path, "is listed in \(BackupManifest.fileName) but missing"))
                continue
            }
            let path = file.absolute(in: stagingDirectory.path)
            switch try system.linkStatus(path, context: ErrorContext("verify", path))?.size {
            case entry.size?:
                break
            case let size?:
                problems.append(
                    ArchiveProblem(
                        .corrupt, entry: entry.path,
                        "is \(size) bytes after writing but \(BackupManifest.fileName) records \(entry.size)"))
            case nil:
                problems.append(ArchiveProblem(.corrupt, entry: entry.path, "disappeared after writing"))
            }
        }
        let listed = Set(written.manifest.files.map(\.path))
        for extra in Set(present.keys).subtracting(listed).sorted() {
            problems.append(ArchiveProblem(.corrupt, entry: extra, "is in the backup folder but not listed in \(BackupManifest.fileName)"))
        }
        problems += try readBack(BackupManifest.fileName, expecting: written.manifestBytes, present: scan.extras) { bytes in
            (try? BackupManifest(bytes: bytes)) == written.manifest
        }
        problems += try readBack(ChecksumFile.fileName, expecting: written.checksums, present: scan.extras) { bytes in
            guard let pairs = try? ChecksumFile.parse(bytes) else { return false }
            return pairs.map(\.path) == written.manifest.files.map(\.path)
                && pairs.map(\.sha256) == written.manifest.files.map(\.sha256)
        }
        guard problems.isEmpty else {
            let list = problems.map(\.description).joined(separator: "; ")
            throw StoreError(
                .io,
                "Can't back up '\(store)': the backup did not verify after writing: \(list). "
                    + "Check the disk of '\(target.path)'; nothing was left at the destination.", path: target.path)
        }
    }

    /// The problems of one of the backup's own files: missing, different bytes, or bytes that do
    /// not parse back to what they were rendered from (`parsesBack`).
    private func readBack(
        _ name: String, expecting bytes: [UInt8], present: Set<String>,
        parsesBack: ([UInt8]) -> Bool
    ) throws(StoreError) -> [ArchiveProblem] {
        guard present.contains(name) else { return [ArchiveProblem(.corrupt, entry: name, "is missing after writing")] }
        let back = try FileReader.read(joinPath(stagingDirectory.path, name), system: system)
        guard sameBytes(back, bytes) else {
            return [ArchiveProblem(.corrupt, entry: name, "reads back different from what was written")]
        }
        guard parsesBack(back) else {
            return [ArchiveProblem(.corrupt, entry: name, "does not read back as what was written (an encoding error)")]
        }
        return []
    }
}
