#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `StoreImport.read` did.
public struct ImportReport: Sendable {
    /// The number of files imported, their total size in bytes, and the store's schema version.
    public var files: Int
    public var bytes: Int64
    public var storeSchemaVersion: Int
    /// An interrupted earlier restore or import into the target that was finished first.
    public var recovered: RestoreRecovery?
    /// Where the old target was moved (only with `force` and a non-empty target).
    public var aside: String?
}

/// Creating a store from an export written by `StoreExport` (see `ExportFormat`).
public enum StoreImport {
    /// Where the export comes from.
    public enum Source: Sendable, Equatable {
        /// Standard input (`-` on the command line), read as it arrives.
        case standardInput
        /// A file (or a named pipe).
        case file(String)

        var name: String {
            switch self {
            case .standardInput: "standard input"
            case .file(let path): path
            }
        }
    }

    /// Imports the export from `source` into the folder `target`.
    ///
    /// Everything is validated before the target is touched (see `ExportReader` for the checks):
    /// the files go into a staging folder next to the target as they are verified; a problem
    /// anywhere removes the staging folder and leaves the target as it was. Only a complete,
    /// verified store is swapped in, with the same crash-safe `StoreSwap` as a restore.
    ///
    /// ```swift
    /// let report = try StoreImport.read(from: .file("/tmp/store.jsonl"), into: "/data/new-store",
    ///                                   tool: "migrate-store", version: "0.1.0")
    /// ```
    ///
    /// - Parameters:
    ///   - source: The export: a file, or standard input.
    ///   - target: The folder that becomes the store: new or empty, unless `force`.
    ///   - tool: Recorded in the locks the import takes.
    ///   - version: Recorded in the locks the import takes.
    ///   - force: Replace a target that holds files, keeping it as `<name>.replaced-<time>` like
    ///     `restore --force`. The default is `false`.
    ///   - progress: Called on the calling thread: `.phase(.importing, …)` once the header is read
    ///     (its total is the file count the header announces; nil for an export written before
    ///     headers recorded it) and after each file checked and staged,
    ///     `.phase(.verifyingCopy, …)` as the staged files are read back, and
    ///     `.waitingForLock` when another restore into the target or a writer of the store it
    ///     replaces holds a lock. The default does nothing.
    /// - Throws: `StoreError`: with an `ArchiveRejection` as `underlying` (`.corruptDocument` or
    ///   `.unsupportedVersion`) naming the first bad line and entry; `.alreadyExists` for a
    ///   non-empty target without `force`; `.locked`; or the code of a failed call.
    /// - Warning: With `force`, the target is replaced. Its content is kept in the aside folder.
    public static func read(
        from source: Source, into target: String, tool: String, version: String,
        force: Bool = false, progress: (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> ImportReport {
        try withoutActuallyEscaping(progress) { (progress) throws(StoreError) in
            try read(from: source, into: target, tool: tool, version: version, force: force, system: .real, progress: progress)
        }
    }

    static func read(
        from source: Source, into path: String, tool: String, version: String, force: Bool,
        system: SystemCalls, progress: @escaping (StoreProgress) -> Void = { _ in }
    ) throws(StoreError) -> ImportReport {
        let target = try SiblingPath(path)
        try Restore.requireParent(target, verb: "import", system: system)
        let recovered = try StoreSwap.recover(target, tool: tool, version: version, system: system, progress: progress)
        let hint = "Import into a new or empty folder."
        if !force, let refusal = try TargetState.inspect(target, verb: "import", system: system).refusal(target, verb: "import", forceHint: hint) {
            throw refusal
        }
        guard case .file(let filePath) = source else {
            // Standard input: descriptor 0, which is not ours to close.
            return try read(
                fd: 0, from: source, into: target, recovered: recovered, tool: tool, version: version, force: force,
                hint: hint, system: system, progress: progress)
        }
        // The user names this file; following a link to it is fine. Folders are refused by read(2).
        let file = try FileDescriptor(opening: filePath, flags: O_RDONLY | O_CLOEXEC, system: system, context: ErrorContext("read", filePath))
        // `file` is closed when this returns or throws, after the import.
        return try read(
            fd: file.rawValue, from: source, into: target, recovered: recovered, tool: tool, version: version,
            force: force, hint: hint, system: system, progress: progress)
    }

    /// The import once the export is open as `fd`.
    private static func read(
        fd: Int32, from source: Source, into target: SiblingPath, recovered: RestoreRecovery?,
        tool: String, version: String, force: Bool, hint: String,
        system: SystemCalls, progress: @escaping (StoreProgress) -> Void
    ) throws(StoreError) -> ImportReport {
        let context = ErrorContext("read", source.name)
        var reader = ExportReader(reader: LineReader(fd: fd, limit: FileReader.defaultLimit + 1024 * 1024, context: context, system: system))
        var staged: StagedStore?
        // Counted from the header, which gives the total (nil in an export written before it did).
        var counter: PhaseCounter?
        do {
            try reader.read(onHeader: { header in counter = PhaseCounter(.importing, total: header.files, report: progress) }) {
                (path, bytes, mode, schemaVersion) throws(StoreError) in
                // The header's version (every file was checked against it) gives the document folders.
                if staged == nil { staged = try StagedStore(besides: target, schemaVersion: schemaVersion, system: system) }
                try staged?.add(path, bytes, mode: mode)
                counter?.step()
            }
        } catch {
            staged?.directory.discard()
            switch error {
            case .store(let failure): throw failure
            case .archive(let problem):
                throw ArchiveRejection(status: problem.kind == .corrupt ? .corrupt : .incompatible, problems: [problem])
                    .storeError("import", archive: source.name, what: "the export")
            }
        }
        guard let staged, let header = reader.header else { preconditionFailure("StoreImport: a complete export without files") }
        do {
            try staged.setFolderModes(header.folderModes)
            try staged.seal(progress: progress)
        } catch {
            staged.directory.discard()
            throw error
        }
        let aside = try StagedSwap.commit(
            staged, force: force, tool: tool, version: version, forceHint: hint, system: system,
            progress: progress)
        let totals = staged.totals
        return ImportReport(
            files: totals.files, bytes: totals.bytes, storeSchemaVersion: header.storeSchemaVersion,
            recovered: recovered, aside: aside)
    }
}
