import Foundation
import StoreJSON

/// Creating a store from the shipped app's Core Data file (`VoiceCode.sqlite`, spec §13).
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
    /// The schema the import writes: the newest rollback-safe schema (spec §9, §13).
    public static let schemaVersion = DocumentVersion.current

    /// Imports `source` into the new or empty folder `target`.
    ///
    /// - Parameters:
    ///   - source: The app's `VoiceCode.sqlite` (its `-wal` is read from beside it).
    ///   - target: The new or empty folder that becomes the store.
    ///   - preferences: The app's preferences file (binary or XML property list) for
    ///     `settings.json`. The default is nil: the settings' defaults hold.
    ///   - allowUnknown: Import a file with tables, columns or entities none of the app's models
    ///     has, leaving them out and reporting each. The default is `false`: such a file is refused.
    ///   - dryRun: Read and report everything, write nothing. The default is `false`.
    ///   - tool: Recorded in the locks the import takes.
    ///   - version: Recorded in the locks the import takes and in the store's migration record.
    /// - Throws: `StoreError`: `.alreadyExists` for a target that is not empty; `.corruptDocument`
    ///   for a file that is not SQLite or is damaged; `.invalidDocument` for SQLite that is not
    ///   the app's Core Data store (the message says what was found), or that has tables, columns or
    ///   entities the import does not know without `allowUnknown` (each named); `.locked` while another
    ///   process writes to it; or the code of a failed call. Nothing is written then.
    /// - Warning: Don't call it in a process that has `source` open with SQLite (the app's own
    ///   Core Data stack): it opens and closes the file to read and copy it, and closing any
    ///   descriptor of a file drops every POSIX lock the process holds on it (man 2 fcntl), which
    ///   SQLite's locking in that process relies on. The command-line tool is its own process.
    public static func run(
        source: String, into target: String, preferences: String? = nil, allowUnknown: Bool = false, dryRun: Bool = false,
        tool: String, version: String
    ) throws(StoreError) -> CoreDataImportReport {
        try run(
            source: source, into: target, preferences: preferences, allowUnknown: allowUnknown, dryRun: dryRun, tool: tool,
            version: version, system: .real)
    }

    static func run(
        source path: String, into targetPath: String, preferences: String?, allowUnknown: Bool, dryRun: Bool,
        tool: String, version: String, system: SystemCalls
    ) throws(StoreError) -> CoreDataImportReport {
        try run(
            source: path, into: targetPath, preferences: preferences.map(Preferences.file), allowUnknown: allowUnknown, dryRun: dryRun,
            tool: tool, version: version, system: system)
    }

    /// The import, with the preferences from anywhere, told the progress and asked whether to go
    /// on after each document staged and before the swap (`firstLaunch`).
    static func run(
        source path: String, into targetPath: String, preferences: Preferences?, allowUnknown: Bool, dryRun: Bool,
        tool: String, version: String, system: SystemCalls, progress: @escaping (StoreProgress) -> Void = { _ in },
        shouldContinue: @escaping () -> Bool = { true }
    ) throws(StoreError) -> CoreDataImportReport {
        let target = try SiblingPath(targetPath)
        try Restore.requireParent(target, verb: "import", system: system)
        if !dryRun { _ = try StoreSwap.recover(target, tool: tool, version: version, system: system, progress: progress) }
        let hint = "Import into a new or empty folder."
        if let refusal = try TargetState.inspect(target, verb: "import", system: system).refusal(target, verb: "import", forceHint: hint) {
            throw refusal
        }
        let prefs = try preferences.map { (p: Preferences) throws(StoreError) in try AppPreferences.read(p, system: system) }
        let source = try CoreDataSource(path, system: system)
        let model = source.model
        if !model.unknown.isEmpty && !allowUnknown { throw unknownRefusal(path, model.unknown) }
        let backfill = CoreDataBackfill.decide(model: model, preferences: prefs)
        let started = Date()
        let output = try DocumentOutput(dryRun ? nil : StagedStore(besides: target, system: system), shouldContinue: shouldContinue)
        do throws(StoreError) {
            var reader = CoreDataReader(source: source, model: model, backfill: backfill.applied, now: started)
            let queue = try reader.buildQueue()
            let customisations = try reader.readCustomisations(drafts: prefs?.drafts ?? [:])
            output.count(.importing, total: reader.workStreamCount + customisations.documents.count + 3, progress: progress)
            let counts = try reader.writeWorkStreams(queue: queue, to: output)
            for customisation in customisations.documents {
                try output.add(StoreLayout.customisationPath(customisation.id), customisation.encoded)
            }
            let settings = prefs?.settings ?? Settings(schemaVersion: schemaVersion)
            try output.add(StoreLayout.settings, settings.encoded)
            try output.add(StoreLayout.queue, queue.encoded)
            let backfilled = reader.findings.all.filter { $0.kind == .offsetBackfilled }.count
            let recorded = [
                "work_streams": counts.workStreams, "messages": counts.messages, "customizations": customisations.documents.count,
                "drafts": customisations.drafts, "offsets_backfilled": backfilled, "findings": reader.findings.all.count,
                "preference_findings": prefs?.findings.count ?? 0,
            ]
            let manifest = ManifestV2(
                createdAt: reader.now, migrations: [record(model, counts: recorded, at: reader.now, version: version)],
                minReaderVersion: MigrationChain.minReaderVersion(at: schemaVersion), schemaVersion: schemaVersion)
            try output.add(StoreLayout.manifest, manifest.encoded)
            if let staged = output.staged {
                try staged.seal(progress: progress)
                try output.checkContinue()
                _ = try StagedSwap.commit(staged, force: false, tool: tool, version: version, forceHint: hint, system: system, progress: progress)
            }
            return CoreDataImportReport(
                source: path, target: targetPath, modelVersion: model.version, earlyBuild: model.build == .early,
                modelExplanation: model.explanation, entityHashes: model.metadata.base64Hashes, unknown: model.unknown,
                hadWAL: source.wal != nil, walCommits: source.wal?.commits ?? 0, walIgnoredBytes: source.wal?.ignoredBytes ?? 0,
                backfillApplied: backfill.applied, backfillReason: backfill.reason, offsetsBackfilled: backfilled,
                workStreams: counts.workStreams, messages: counts.messages, customisations: customisations.documents.count,
                fifo: queue.fifo.map { $0.workStreamID }, priority: queue.priority.map { $0.workStreamID }, settings: settings,
                preferences: preferences?.shown, preferenceKeysCarried: prefs?.keysCarried ?? [],
                preferenceKeysNotCarried: prefs?.keysNotCarried ?? [], drafts: customisations.drafts,
                customisationsForDrafts: customisations.created, preferenceFindings: prefs?.findings ?? [],
                findings: reader.findings.all, files: output.files, bytes: output.bytes, dryRun: dryRun, storeSchemaVersion: schemaVersion,
                importedAt: reader.now)
        } catch {
            output.staged?.directory.discard()
            throw error
        }
    }
}

extension CoreDataImport {
    /// The refusal of a file with tables, columns or entities the import does not know.
    static func unknownRefusal(_ path: String, _ unknown: [CoreDataUnknown]) -> StoreError {
        StoreError(
            .invalidDocument,
            "Can't import '\(path)': it has \(unknown.count) table\(unknown.count == 1 ? "" : "s"), column"
                + "\(unknown.count == 1 ? "" : "s") or entit\(unknown.count == 1 ? "y" : "ies") that no model of the app has (a newer "
                + "model, or an edit), whose data would not be imported: \(unknown.map(\.description).joined(separator: "; ")). "
                + "Run again with --allow-unknown to import the rest and have each one reported. Nothing was written.", path: path)
    }

    /// The migration record of the import: from and to the schema it writes, with the Core Data
    /// model it read and the plist's entity hashes (base64), so that a later tool can tell models apart.
    static func record(_ model: CoreDataModel, counts: [String: Int], at finished: Date, version: String) -> MigrationRecord {
        let hashes = model.metadata.base64Hashes.mapValues { JSONValue.string($0) }
        return MigrationRecord(
            from: schemaVersion, to: schemaVersion, startedAt: finished, finishedAt: finished, toolVersion: version,
            counts: counts,
            unknown: [
                "source": .string("core_data"), "core_data_model_version": .number(JSONNumber(model.version)),
                "core_data_entity_hashes": .object(hashes),
            ])
    }
}

/// Where the documents go: a staging folder, or (a dry run) only counted; each one told to the
/// progress (`.importing`), and the caller asked whether to go on after each.
final class DocumentOutput {
    let staged: StagedStore?
    private let shouldContinue: () -> Bool
    private var counter: PhaseCounter?
    private(set) var files = 0
    private(set) var bytes: Int64 = 0

    init(_ staged: StagedStore?, shouldContinue: @escaping () -> Bool = { true }) {
        self.staged = staged
        self.shouldContinue = shouldContinue
    }

    /// From now on, each document is one of `total` told to `progress` (`0 of total` at once).
    func count(_ phase: StoreProgress.Phase, total: Int, progress: @escaping (StoreProgress) -> Void) {
        counter = PhaseCounter(phase, total: total, report: progress)
    }

    func add(_ path: String, _ content: [UInt8]) throws(StoreError) {
        guard let filePath = StoreFilePath(path) else { preconditionFailure("CoreDataImport: '\(path)' is no store path") }
        try checkContinue()
        try staged?.add(filePath, content)
        files += 1
        bytes += Int64(content.count)
        counter?.step()
    }

    /// Throws `.cancelled` when the caller said to stop; the import then discards what it staged.
    func checkContinue() throws(StoreError) {
        guard !shouldContinue() else { return }
        throw StoreError(
            .cancelled,
            "The import into '\(staged?.target.path ?? "")' was cancelled before the store was put in place. "
                + "Nothing was written: the next call starts again.", path: staged?.target.path)
    }
}
