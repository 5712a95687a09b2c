import Foundation

extension Store {
    /// Opens an existing store and classifies it (spec §4 reader rule).
    ///
    /// Opened for writing (the default), it takes the lock once to sweep temp files a crash left
    /// behind and, for a v2 store, to reconcile the queue with its mirror (spec §7). Read-only,
    /// it writes nothing at all.
    ///
    /// - Throws: `.notAStore` when there is no `store.json`; `.unsupportedVersion` naming both
    ///   versions when `min_reader_version` excludes this code; `.locked`; a document error.
    public static func open(at path: String, options: Options = Options()) throws(StoreError) -> Store {
        try open(at: path, options: options, system: .real)
    }

    static func open(at path: String, options: Options, system: SystemCalls) throws(StoreError) -> Store {
        var recovered: String?
        if !options.readOnly {
            // A restore killed between its two renames leaves no store at the path but a journal
            // next to it; finish it first (it writes nothing when there is no journal).
            recovered = try Restore.recoverInterrupted(target: path, tool: options.tool, version: options.version)?.summary
        }
        let compatibility = try classify(path, system: system)
        if case .refused = compatibility {
            throw StoreError(.unsupportedVersion, "Can't open '\(path)': \(compatibility.refusal!).", path: joinPath(path, "store.json"))
        }
        var warnings: [String] = recovered.map { [$0] } ?? []
        if !options.readOnly {
            let lock = try StoreLock(store: path, tool: options.tool, version: options.version, timeout: options.lockTimeout, system: system)
            defer { lock.release() }
            if let warning = lock.fileSystemWarning { warnings.append(warning) }
            _ = try TempSweep.sweep(store: path, holding: lock, system: system)
            let probe = Store(path: path, options: options, compatibility: compatibility, warnings: warnings, system: system)
            guard probe.isWritable else { return probe }
            do {
                _ = try StoreMigrator(store: probe).reconcileHoldingLock()
            } catch where error.underlying is StoreProblems {
                // The queue cannot be reconciled without every session's keys; the store stays usable
                // and each unreadable document is still reported by the scans that meet it.
                warnings.append("The queue of '\(path)' was not checked against its mirror: \((error.underlying as! StoreProblems).problems.count) document(s) can't be read. Run 'migrate-store validate \(path)'.")
            }
            return Store(path: path, options: options, compatibility: compatibility, warnings: warnings, system: system)
        }
        return Store(path: path, options: options, compatibility: compatibility, warnings: warnings, system: system)
    }

    /// Reads `store.json` and applies the reader rule, without opening anything else.
    public static func classify(_ path: String) throws(StoreError) -> StoreCompatibility {
        try classify(path, system: .real)
    }

    static func classify(_ path: String, system: SystemCalls) throws(StoreError) -> StoreCompatibility {
        let manifestPath = joinPath(path, "store.json")
        let bytes: [UInt8]
        do {
            bytes = try FileReader.read(manifestPath, system: system)
        } catch where error.code == .notFound {
            throw StoreError(.notAStore, "'\(path)' is not a work-stream store: it has no store.json. Check the path, or create a store first.", path: manifestPath)
        }
        do {
            let header = try ManifestHeader(json: try DocumentVersion.parse(bytes))
            return header.compatibility()
        } catch {
            throw StoreError.document(error, path: manifestPath)
        }
    }

    /// Creates a new, empty v2 store: `store.json`, `settings.json` with the defaults, empty
    /// `queue.json`, and the two document folders (0700; files 0600).
    ///
    /// - Throws: `.alreadyExists` when the folder already holds a `store.json`.
    public static func create(at path: String, options: Options = Options(), now: Date = Date()) throws(StoreError) -> Store {
        try create(at: path, options: options, now: now, system: .real)
    }

    static func create(at path: String, options: Options, now: Date, system: SystemCalls) throws(StoreError) -> Store {
        _ = try Directories.create(path, system: system)
        let lock = try StoreLock(store: path, tool: options.tool, version: options.version, timeout: options.lockTimeout, system: system)
        defer { lock.release() }
        let context = ErrorContext("create the store", path)
        if try system.linkStatus(joinPath(path, "store.json"), context: context) != nil {
            throw StoreError(.alreadyExists, "Can't create a store in '\(path)': it already has a store.json. Open it instead.", path: path)
        }
        _ = try Directories.create(joinPath(path, "sessions"), system: system)
        _ = try Directories.create(joinPath(path, "user-sessions"), system: system)
        // store.json last: until it exists the folder is not a store, so a crash leaves nothing half-made.
        try BatchCommit.commit([
            FileChange(directory: path, name: "settings.json", bytes: SettingsV1.defaults.encoded),
            FileChange(directory: path, name: "queue.json", bytes: QueueV2.empty.encoded),
        ], system: system)
        try AtomicFile.durableReplace(directory: path, name: "store.json", bytes: ManifestV2(createdAt: now).encoded, system: system)
        return Store(path: path, options: options, compatibility: .current, warnings: lock.fileSystemWarning.map { [$0] } ?? [], system: system)
    }
}
