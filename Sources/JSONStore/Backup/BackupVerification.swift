/// What `BackupVerification.verify` found.
public struct BackupVerificationReport: Sendable, Equatable {
    /// The verdict, which `verify-backup` turns into its exit status.
    public enum Status: Sendable, Equatable {
        /// Exactly the files `backup.json` lists, each with its size and SHA-256, every document reads.
        case ok
        /// Something is missing, extra, changed, truncated, hostile or unreadable.
        case corrupt
        /// Intact as far as this tool can tell, but it cannot read it: newer backup format or store schema.
        case incompatible
    }

    /// The backup folder, as given.
    public var backup: String
    /// The verdict.
    public var status: Status
    /// Every problem found, sorted by entry; empty when `status` is `.ok`.
    public var problems: [ArchiveProblem]
    /// `backup.json`, when it could be read.
    public var manifest: BackupManifest?
    /// Dot names in the backup folder, which are ignored (never restored).
    public var ignoredDotNames: [String]

    /// The number of store files `backup.json` lists (0 when it could not be read).
    public var fileCount: Int { manifest?.files.count ?? 0 }
    /// Their total size in bytes.
    public var totalBytes: Int64 { manifest?.files.reduce(0) { $0 + $1.size } ?? 0 }
}

/// Checks a backup made by `Backup.create` without changing anything in it.
///
/// The checks, each reported by entry name (none hides another):
/// 1. The folder holds only the store's paths (STORE-FORMAT §1) as regular files, plus
///    `backup.json` and `SHA256SUMS`; dot names are ignored. Symbolic links, FIFOs, folders in
///    a file's place and unexpected names are problems; nothing is followed.
/// 2. `backup.json` parses, has this format and a known `format_version`; every path in it is a
///    valid store path and appears once.
/// 3. `SHA256SUMS` lists exactly the same paths with the same hashes.
/// 4. The files on disk are exactly the listed ones, each with the recorded size and SHA-256.
/// 5. Every document decodes with the Schema decoders (a newer store is read as STORE-FORMAT §4
///    allows), and `store.json`'s `schema_version` matches `store_schema_version`.
public enum BackupVerification {
    /// Verifies the backup at `backup`.
    ///
    /// ```swift
    /// let report = try BackupVerification.verify(backup: "/backups/store-1")
    /// if report.status != .ok { report.problems.forEach { print($0) } }
    /// ```
    ///
    /// - Parameters:
    ///   - backup: The backup folder.
    ///   - progress: Called on the calling thread with `.phase(.verifyingBackup, …)` once
    ///     `backup.json` is read and after each file it lists is checked, counting to the number of
    ///     valid entries. Not called when `backup.json` does not read. The default does nothing.
    /// - Returns: The report; problems with the backup's content are in it, not thrown.
    /// - Throws: `StoreError` when the backup cannot be examined at all: `.notFound` if the folder
    ///   does not exist, `.notARegularFile` if it is not a folder, `.permissionDenied`, `.io`.
    public static func verify(backup: String, progress: (StoreProgress) -> Void = { _ in }) throws(StoreError) -> BackupVerificationReport {
        try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in
            try verify(backup: backup, system: .real, progress: progress).report
        }
    }

    /// The report and the bytes of every file whose size and hash matched, by path.
    static func verify(backup: String, system: SystemCalls, progress: @escaping (StoreProgress) -> Void = { _ in })
        throws(StoreError) -> (report: BackupVerificationReport, verified: [StoreFilePath: BackupManifest.Entry])
    {
        try requireFolder(backup, system: system)
        let scan = try TreeScan.scan(backup, extraFiles: [BackupManifest.fileName, ChecksumFile.fileName], system: system)
        var problems = scan.problems
        var report = BackupVerificationReport(
            backup: backup, status: .ok, problems: [], manifest: nil,
            ignoredDotNames: scan.skippedDotNames)
        var verified: [StoreFilePath: BackupManifest.Entry] = [:]
        if let manifest = try readManifest(backup, scan: scan, problems: &problems, system: system) {
            report.manifest = manifest
            let listed = ListedFiles(manifest, problems: &problems)
            try checkChecksumFile(backup, scan: scan, listed: listed, problems: &problems, system: system)
            let contents = ArchiveContents(root: backup, system: system)
            verified = try contents.check(
                listed: listed, present: Set(scan.files),
                storeSchemaVersion: manifest.storeSchemaVersion, problems: &problems, progress: progress)
        }
        report.problems = problems.sorted { ($0.entry.utf8.lexicographicallyPrecedes($1.entry.utf8)) }
        report.status = status(of: report.problems)
        return (report, report.status == .ok ? verified : [:])
    }

    /// `.corrupt` wins over `.incompatible`: a damaged backup is damaged whatever its version.
    static func status(of problems: [ArchiveProblem]) -> BackupVerificationReport.Status {
        if problems.isEmpty { return .ok }
        return problems.contains { $0.kind == .corrupt } ? .corrupt : .incompatible
    }

    static func requireFolder(_ path: String, system: SystemCalls) throws(StoreError) {
        let context = ErrorContext("read the backup", path)
        guard let status = try system.linkStatus(path, context: context) else {
            throw StoreError(.notFound, "Can't read the backup '\(path)': it does not exist. Check the path.", path: path)
        }
        // The folder the user names may be a link to a folder; entries inside it are never followed.
        if status.type == .directory || status.type == .symbolicLink { return }
        throw StoreError(.notARegularFile, "Can't read the backup '\(path)': it is not a folder. Check the path.", path: path)
    }

    private static func readManifest(
        _ backup: String, scan: TreeScan, problems: inout [ArchiveProblem],
        system: SystemCalls
    ) throws(StoreError) -> BackupManifest? {
        guard scan.extras.contains(BackupManifest.fileName) else {
            if !scan.problems.contains(where: { $0.entry == BackupManifest.fileName }) {
                problems.append(
                    ArchiveProblem(
                        .corrupt, entry: BackupManifest.fileName,
                        "is missing: this folder is not a backup made by this tool, or it is incomplete"))
            }
            return nil
        }
        let bytes = try FileReader.read(joinPath(backup, BackupManifest.fileName), system: system)
        do {
            return try BackupManifest(bytes: bytes)
        } catch {
            problems.append(error)
            return nil
        }
    }

    private static func checkChecksumFile(
        _ backup: String, scan: TreeScan, listed: ListedFiles,
        problems: inout [ArchiveProblem], system: SystemCalls
    ) throws(StoreError) {
        let name = ChecksumFile.fileName
        guard scan.extras.contains(name) else {
            if !scan.problems.contains(where: { $0.entry == name }) {
                problems.append(ArchiveProblem(.corrupt, entry: name, "is missing"))
            }
            return
        }
        let pairs: [(path: String, sha256: String)]
        do {
            pairs = try ChecksumFile.parse(try FileReader.read(joinPath(backup, name), system: system))
        } catch let error as ArchiveProblem {
            problems.append(error)
            return
        } catch let error as StoreError {
            throw error
        } catch {
            preconditionFailure("checkChecksumFile: unexpected error \(error)")
        }
        var seen = Set<String>()
        for pair in pairs {
            if !seen.insert(pair.path).inserted {
                problems.append(ArchiveProblem(.corrupt, entry: pair.path, "is listed twice in \(name)"))
            } else if let entry = listed.byPath[pair.path], entry.sha256 != pair.sha256 {
                problems.append(
                    ArchiveProblem(.corrupt, entry: pair.path, "has SHA-256 \(pair.sha256) in \(name) but \(entry.sha256) in \(BackupManifest.fileName)"))
            } else if listed.byPath[pair.path] == nil {
                problems.append(ArchiveProblem(.corrupt, entry: pair.path, "is in \(name) but not in \(BackupManifest.fileName)"))
            }
        }
        for path in listed.byPath.keys.sorted() where !seen.contains(path) {
            problems.append(ArchiveProblem(.corrupt, entry: path, "is in \(BackupManifest.fileName) but not in \(name)"))
        }
    }
}

/// The entries of `backup.json`, checked: valid store paths, each once.
struct ListedFiles {
    /// Valid, unique entries by validated path, sorted.
    var valid: [(path: StoreFilePath, entry: BackupManifest.Entry)] = []
    /// Every entry by its raw path (first occurrence), valid or not.
    var byPath: [String: BackupManifest.Entry] = [:]

    init(_ manifest: BackupManifest, problems: inout [ArchiveProblem]) {
        for entry in manifest.files {
            guard byPath[entry.path] == nil else {
                problems.append(ArchiveProblem(.corrupt, entry: entry.path, "is listed twice in \(BackupManifest.fileName)"))
                continue
            }
            byPath[entry.path] = entry
            guard let path = StoreFilePath(entry.path) else {
                problems.append(ArchiveProblem(.corrupt, entry: entry.path, ArchiveContents.invalidPathMessage))
                continue
            }
            valid.append((path, entry))
        }
        valid.sort { $0.path < $1.path }
    }
}

/// Why a restore or an import refused its input: the verdict and every problem. Travels as the
/// `underlying` error of the `StoreError` they throw, so a caller can list the problems.
public struct ArchiveRejection: Error, Sendable, Equatable {
    /// `.corrupt` or `.incompatible` (never `.ok`).
    public var status: BackupVerificationReport.Status
    /// Every problem found, each naming its entry.
    public var problems: [ArchiveProblem]

    /// The error to throw: "Can't restore from '/b': the backup is corrupt: 'x.json': .... Nothing
    /// was written." The first problem is in the message; all are in `underlying`.
    func storeError(_ action: String, archive: String, what: String) -> StoreError {
        let first = problems.first.map { ": \($0)" } ?? ""
        let more = problems.count > 1 ? " (and \(problems.count - 1) more problem\(problems.count == 2 ? "" : "s"))" : ""
        let verdict = status == .incompatible ? "this tool can't read \(what)" : "\(what) is corrupt"
        let code: StoreError.Code = status == .incompatible ? .unsupportedVersion : .corruptDocument
        return StoreError(
            code, "Can't \(action) '\(archive)': \(verdict)\(first)\(more). Nothing was written.",
            path: archive, underlying: self)
    }
}
