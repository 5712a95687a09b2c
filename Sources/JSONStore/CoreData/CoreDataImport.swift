import Foundation

/// Creating a store from the shipped app's Core Data file (`VoiceCode.sqlite`, spec §12).
///
/// The source is never touched: its main file and `-wal` are copied to a private folder and only
/// the copy is opened (`CoreDataSource`). The new store is built in a staging folder next to the
/// target and swapped in with the same crash-safe commit as `import` and `restore`
/// (`StagedStore`, `StagedSwap`): it appears whole or not at all.
///
/// ```swift
/// let report = try CoreDataImport.run(source: "/backup/VoiceCode.sqlite", into: "/data/store",
///                                     tool: "migrate-store", version: "0.1.0")
/// print(report.workStreams, report.findings.count)
/// ```
public enum CoreDataImport {
    /// The schema the import writes: v3, the newest rollback-safe schema (spec §10).
    public static let schemaVersion = SessionV3.version

    /// Imports `source` into the new or empty folder `target`.
    ///
    /// - Parameters:
    ///   - preferences: The app's preferences file (binary or XML property list) for
    ///     `settings.json`. The default is nil: the settings' defaults hold.
    ///   - dryRun: Read and report everything, write nothing. The default is `false`.
    /// - Throws: `StoreError`: `.alreadyExists` for a target that is not empty; `.corruptDocument`
    ///   for a file that is not SQLite or is damaged; `.invalidDocument` for SQLite that is not
    ///   the app's Core Data store (the message says what was found); `.locked` while another
    ///   process writes to it; or the code of a failed call. Nothing is written then.
    /// - Warning: Don't call it in a process that has `source` open with SQLite (the app's own
    ///   Core Data stack): it opens and closes the file to read and copy it, and closing any
    ///   descriptor of a file drops every POSIX lock the process holds on it (man 2 fcntl), which
    ///   SQLite's locking in that process relies on. The command-line tool is its own process.
    public static func run(source: String, into target: String, preferences: String? = nil, dryRun: Bool = false,
                           tool: String, version: String) throws(StoreError) -> CoreDataImportReport {
        try run(source: source, into: target, preferences: preferences, dryRun: dryRun, tool: tool, version: version, system: .real)
    }

    static func run(source path: String, into targetPath: String, preferences: String?, dryRun: Bool,
                    tool: String, version: String, system: SystemCalls) throws(StoreError) -> CoreDataImportReport {
        let target = try SiblingPath(targetPath)
        try Restore.requireParent(target, verb: "import", system: system)
        if !dryRun { _ = try StoreSwap.recover(target, tool: tool, version: version, system: system) }
        let hint = "Import into a new or empty folder."
        if let refusal = try TargetState.inspect(target, verb: "import", system: system).refusal(target, verb: "import", forceHint: hint) {
            throw refusal
        }
        let prefs = try preferences.map { (p: String) throws(StoreError) in try AppPreferences.read(p, system: system) }
        let source = try CoreDataSource(path, system: system)
        let model = try CoreDataModel.recognise(source.database)
        let output = try DocumentOutput(dryRun ? nil : StagedStore(besides: target, system: system))
        do throws(StoreError) {
            var reader = CoreDataReader(source: source, model: model, now: Date())
            let queue = try reader.buildQueue()
            let counts = try reader.writeWorkStreams(queue: queue, to: output)
            let customizations = try reader.writeCustomizations(to: output)
            let settings = prefs?.settings ?? SettingsV1(schemaVersion: schemaVersion)
            try output.add(StoreLayout.settings, settings.encoded)
            try output.add(StoreLayout.queue, queue.encoded)
            let manifest = ManifestV2(createdAt: reader.now, minReaderVersion: 1, schemaVersion: schemaVersion)
            try output.add(StoreLayout.manifest, manifest.encoded)
            if let staged = output.staged {
                try staged.seal()
                _ = try StagedSwap.commit(staged, force: false, tool: tool, version: version, forceHint: hint, system: system)
            }
            return CoreDataImportReport(
                source: path, target: targetPath, modelVersion: model.version, hadWAL: source.hadWAL,
                workStreams: counts.workStreams, messages: counts.messages, customizations: customizations,
                fifo: queue.fifo.map { $0.workStreamID }, priority: queue.priority.map { $0.workStreamID }, settings: settings,
                preferences: preferences, preferenceKeysFound: prefs?.keysFound ?? [], findings: reader.findings.all,
                files: output.files, bytes: output.bytes, dryRun: dryRun, storeSchemaVersion: schemaVersion)
        } catch {
            output.staged?.directory.discard()
            throw error
        }
    }
}

/// Where the documents go: a staging folder, or (a dry run) only counted.
final class DocumentOutput {
    let staged: StagedStore?
    private(set) var files = 0
    private(set) var bytes: Int64 = 0

    init(_ staged: StagedStore?) { self.staged = staged }

    func add(_ path: String, _ content: [UInt8]) throws(StoreError) {
        guard let filePath = StoreFilePath(path) else { preconditionFailure("CoreDataImport: '\(path)' is no store path") }
        try staged?.add(filePath, content)
        files += 1
        bytes += Int64(content.count)
    }
}
