import Foundation
import StoreJSON

extension CoreDataImport {
    /// How ``firstLaunch(source:into:preferences:allowUnknown:tool:version:progress:shouldContinue:)`` ended.
    public enum FirstLaunchOutcome: Sendable {
        /// The app's data was imported now: the store at the target is new and complete.
        case imported(CoreDataImportReport)
        /// The target already holds the store an import made (its `store.json` has the import's
        /// migration record, whatever happened to the store since): nothing was read from the
        /// Core Data file and nothing was written. `importedAt` is the time in that record.
        /// `finishedNow` is true when this call found an import that a killed run had staged
        /// completely and put it in place (`StoreSwap`'s recovery).
        case alreadyImported(importedAt: Date, finishedNow: Bool)
        /// There is no file at the source (a new install, or the app's data was removed), and no
        /// imported store at the target: nothing was written.
        case noCoreDataStore
    }

    /// Moves the app's data from its Core Data store into a new store, from inside the app, on
    /// the first launch of a version that uses this store; safe to call on every launch until it
    /// returns something other than an error.
    ///
    /// The import of ``run(source:into:preferences:allowUnknown:dryRun:tool:version:)``, with the
    /// preferences as the app has them, made to be called again after a crash or a kill at any
    /// point: the new store is built in a staging folder beside the target and put in place by
    /// one crash-safe swap, so the target is either absent or a complete store, never part of
    /// one. A later call first finishes a swap that a killed call left (then answers
    /// ``FirstLaunchOutcome/alreadyImported(importedAt:finishedNow:)``), or removes a staging
    /// folder that a killed call left unfinished and imports again. The Core Data files are read
    /// from a private copy and never changed: the app may delete them once this has returned
    /// `.imported` or `.alreadyImported`.
    ///
    /// ```swift
    /// switch try CoreDataImport.firstLaunch(
    ///     source: support + "/VoiceCode.sqlite", into: support + "/store",
    ///     preferences: .userDefaults(UserDefaults.standard.dictionaryRepresentation()),
    ///     tool: "VoiceCode", version: "4.0") {
    /// case .imported(let report): log(report.workStreams, report.findings)
    /// case .alreadyImported, .noCoreDataStore: break
    /// }
    /// let store = try Store.open(at: support + "/store")
    /// ```
    ///
    /// - Parameters:
    ///   - source: The app's `VoiceCode.sqlite` (its `-wal` is read from beside it).
    ///   - target: The folder that becomes the store: absent or empty, or the store an earlier
    ///     call imported.
    ///   - preferences: The app's preferences (``Preferences``). The default is nil: the
    ///     settings' defaults hold and no draft is carried.
    ///   - allowUnknown: As for `run`. The default is `false`.
    ///   - tool: Recorded in the locks the import takes.
    ///   - version: Recorded in the locks and in the store's migration record.
    ///   - progress: Called on the calling thread: `.phase(.importing, done:total:)` for each
    ///     document staged (files), then `.phase(.verifyingCopy, …)` as they are read back, and
    ///     `.waitingForLock` when another process holds a lock the swap needs.
    ///   - shouldContinue: Asked before the work, after each document staged and before the swap;
    ///     returning false stops the import with `.cancelled`, its staging folder removed and
    ///     nothing written. Not asked once the swap has started. The default always continues.
    /// - Returns: What was done (``FirstLaunchOutcome``).
    /// - Throws: `StoreError`: what `run` throws (the file is not the app's store, it is being
    ///   written to, `.alreadyExists` for a target that holds anything but the imported store, a
    ///   failed write), or `.cancelled`. Nothing is written then.
    /// - Warning: Call it before the app opens `source` with Core Data (see `run`).
    public static func firstLaunch(
        source: String, into target: String, preferences: Preferences? = nil, allowUnknown: Bool = false,
        tool: String, version: String, progress: @escaping (StoreProgress) -> Void = { _ in },
        shouldContinue: @escaping () -> Bool = { true }
    ) throws(StoreError) -> FirstLaunchOutcome {
        try firstLaunch(
            source: source, into: target, preferences: preferences, allowUnknown: allowUnknown, tool: tool, version: version,
            system: .real, progress: progress, shouldContinue: shouldContinue)
    }

    static func firstLaunch(
        source: String, into targetPath: String, preferences: Preferences?, allowUnknown: Bool, tool: String, version: String,
        system: SystemCalls, progress: @escaping (StoreProgress) -> Void, shouldContinue: @escaping () -> Bool
    ) throws(StoreError) -> FirstLaunchOutcome {
        if !shouldContinue() {
            throw StoreError(
                .cancelled, "The import into '\(targetPath)' was cancelled before it started. Nothing was written.", path: targetPath)
        }
        let target = try SiblingPath(targetPath)
        try Restore.requireParent(target, verb: "import", system: system)
        let recovery = try StoreSwap.recover(target, tool: tool, version: version, system: system, progress: progress)
        let finishedNow = recovery.map { $0.outcome == .finished } ?? false
        if let importedAt = try importTime(target, system: system) { return .alreadyImported(importedAt: importedAt, finishedNow: finishedNow) }
        guard try system.linkStatus(source, context: ErrorContext("read", source)) != nil else { return .noCoreDataStore }
        do {
            return .imported(
                try run(
                    source: source, into: targetPath, preferences: preferences, allowUnknown: allowUnknown, dryRun: false,
                    tool: tool, version: version, system: system, progress: progress, shouldContinue: shouldContinue))
        } catch  where error.code == .alreadyExists {
            // Another process (the app's extension, a second launch) imported while this one read.
            guard let importedAt = try importTime(target, system: system) else { throw error }
            return .alreadyImported(importedAt: importedAt, finishedNow: false)
        }
    }

    /// The time of the import's migration record in the store at `target` (its `source` is
    /// `core_data`), or nil when there is no `store.json` or no such record in it.
    static func importTime(_ target: SiblingPath, system: SystemCalls) throws(StoreError) -> Date? {
        let path = joinPath(target.path, StoreLayout.manifest)
        guard try system.linkStatus(path, context: ErrorContext("read", path)) != nil else { return nil }
        let bytes = try FileReader.read(path, system: system)
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            // Not the store an import wrote: the import refuses the folder as not empty, saying so.
            return nil
        }
        guard case .object(let manifest) = json, case .array(let records)? = manifest["migrations"] else { return nil }
        for case .object(let record) in records where record["source"] == .string("core_data") {
            if case .string(let finished)? = record["finished_at"], let date = RFC3339.parse(finished) { return date }
        }
        return nil
    }
}
