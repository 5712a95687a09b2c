import Foundation
import StoreJSON

@testable import JSONStore

/// The in-memory computation `verify --against` made before it streamed, kept as the test oracle
/// of `BackupChain`, `BackupComparison.compare(_:expected:)` and `BreakingStepVerifier`
/// (`BackupChainDifferentialTests`): every document of the backup in one `StoreSnapshot`, taken
/// through the chain by `StoreMigration` (the in-memory engine) and by the breaking step applied
/// to the whole snapshot. The code is the production code of commit 93ba574, unchanged but for
/// its names (the folder rename spelled as `MigrationChain.folderRenamingStep`).
enum BackupChainOracle {
    /// Every document of `backup` (a store or a backup folder, opened as a store), in memory.
    ///
    /// - Throws: `StoreError` `.invalidDocument` naming the backup's documents that can't be read
    ///   (a damaged backup can't say what the store should hold), or the code of a failed read.
    static func snapshot(of backup: Store) throws(StoreError) -> StoreSnapshot {
        var snapshot = StoreSnapshot(manifest: try backup.manifest())
        let ids = try backup.workStreamIDs()
        var problems = ids.problems
        try ParallelBatches.run(
            ids.items, system: backup.system,
            work: { (id) -> Result<WorkStreamDocument, StoreError> in
                do throws(StoreError) { return .success(try backup.workStream(id)) } catch { return .failure(error) }
            },
            consume: { (_, outcome) throws(StoreError) in
                switch outcome {
                case .success(let document): snapshot.sessions[document.fields.id] = document
                case .failure(let error): problems.append(error)
                }
            })
        let customisations = try backup.customisations()
        problems += customisations.problems
        for document in customisations.items { snapshot.userSessions[document.id] = document }
        let newer = backup.acceptsNewerDocuments
        do throws(StoreError) {
            snapshot.settings = try backup.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in
                try Settings(bytes: b, acceptingNewerVersions: newer)
            }
        } catch { problems.append(error) }
        do throws(StoreError) { snapshot.queue = try backup.queueDocument() } catch { problems.append(error) }
        guard let first = problems.first else { return snapshot }
        let check = StoreError.Recovery.runCommand(
            .verifyBackup(backup.path), advice: "Verify the backup to see every problem, or give another backup.",
            before: "Run ", after: " to see every problem, or give another backup.")
        let unreadable =
            "Can't compare with the backup '\(backup.path)': \(TextFormat.plural(problems.count, "of its documents", "of its documents")) can't be read"
        var text = StoreError.Text(unreadable + " (")
        text.append(first.text)
        text.append("), so it can't say what the store should hold. ")
        text.append(check)
        throw StoreError(.invalidDocument, text: text, path: backup.path, underlying: first)
    }

    /// `snapshot` (a store at its manifest's version) taken to `target`: forward as `migrate` takes
    /// a store (the rollback-safe steps in one `StoreMigration` run; before a breaking step, a
    /// re-upgrade at the store's own version, then the step on every work stream with the store's
    /// queue and only `schema_version` changed in the other documents, as the store engine does across the folder rename),
    /// or back through the inverses of breaking steps.
    ///
    /// - Returns: nil when no chain leads to `target` (back through a rollback-safe step, which
    ///   has no inverse).
    static func migrate(_ snapshot: StoreSnapshot, to target: Int) throws(SchemaError) -> StoreSnapshot? {
        var out = snapshot
        if out.manifest.schemaVersion > target {
            let steps = MigrationChain.steps(from: target, to: out.manifest.schemaVersion)
            guard !steps.isEmpty, steps.allSatisfy({ $0.inverse != nil }) else { return nil }
            for step in steps.reversed() {
                guard let inverse = step.inverse else { return nil }
                out = try apply(out, to: step.from) { (d, c) throws(SchemaError) in try inverse.migrate(d, context: c) }
            }
            return out
        }
        while out.manifest.schemaVersion < target {
            let version = out.manifest.schemaVersion
            let safe = min(target, MigrationChain.defaultTarget(from: version))
            if safe > version {
                out = try StoreMigration.migrate(out, context: context(safe)).0
                continue
            }
            guard let step = MigrationChain.steps(from: version, to: version + 1).first else { return nil }
            out = try StoreMigration.migrate(out, context: context(version)).0
            out = try apply(out, to: step.to) { (d, c) throws(SchemaError) in try step.migrate(d, context: c) }
        }
        return out
    }

    /// A migration context; its times and tool only go into migration records, which the
    /// comparison leaves out.
    private static func context(_ target: Int) -> StoreMigration.Context {
        StoreMigration.Context(
            startedAt: Date(timeIntervalSince1970: 0), finishedAt: Date(timeIntervalSince1970: 0),
            toolVersion: "", target: target)
    }

    /// A breaking step (or its inverse) on a whole store: every work stream through `transform`,
    /// given the store's queue; customisations, settings and `queue.json` at `version`.
    private static func apply(
        _ snapshot: StoreSnapshot, to version: Int,
        _ transform: (WorkStreamDocument, StepContext) throws(SchemaError) -> (WorkStreamDocument, [Change])
    )
        throws(SchemaError) -> StoreSnapshot
    {
        let from = snapshot.manifest.schemaVersion
        guard case .v2(let manifest) = snapshot.manifest else {
            throw SchemaError(code: .invalidValue, file: StoreLayout.manifest, detail: "a v\(from) store.json has no layout change")
        }
        var out = snapshot
        let step = StepContext(writtenByOlderWriter: false, queue: QueueIndex(snapshot.queue ?? QueueV2(schemaVersion: from)))
        for (id, document) in snapshot.sessions {
            do { out.sessions[id] = try transform(document, step).0 } catch {
                throw error.inFile(StoreLayout.workStreamPath(id, schemaVersion: from))
            }
        }
        for id in snapshot.userSessions.keys { out.userSessions[id]?.schemaVersion = version }
        out.settings?.schemaVersion = version
        out.queue?.schemaVersion = version
        out.manifest = .v2(StoreMigration.layoutChangeManifest(manifest, to: version, counts: [:], context: context(version)))
        return out
    }
    /// Compares `store` with `expected`, the backup (at `backupVersion`) taken to the store's version.
    static func compare(_ store: Store, expected: StoreSnapshot, backupVersion: Int) throws(StoreError) -> BackupComparison.Result {
        let version = store.compatibility.storeSchemaVersion
        var result = BackupComparison.Result(backupVersion: backupVersion, storeVersion: version)
        let side = "the backup taken to v\(version)"
        func differ(_ file: String, _ actual: JSONValue?, _ wanted: JSONValue?) {
            switch (actual, wanted) {
            case (nil, nil): return
            case (nil, _?): result.differences.append(BackupComparison.Difference(file: file, reason: "in the backup but not in the store"))
            case (_?, nil): result.differences.append(BackupComparison.Difference(file: file, reason: "in the store but not in the backup"))
            case (let actual?, let wanted?):
                var reasons: [String] = []
                BackupComparison.describe(actual, wanted, at: "", side: side, into: &reasons)
                guard !reasons.isEmpty else { return }
                let shown = reasons.prefix(3).joined(separator: "; ") + (reasons.count > 3 ? "; and \(reasons.count - 3) more" : "")
                result.differences.append(BackupComparison.Difference(file: file, reason: shown))
            }
        }
        func unreadable(_ file: String, _ error: StoreError) {
            result.differences.append(BackupComparison.Difference(file: file, reason: "can't be read, so it can't be compared: \(error.message)"))
        }
        if case .object(let manifest) = try store.manifest().json, case .object(let wanted) = expected.manifest.json,
            manifest["created_at"] != wanted["created_at"]
        {
            result.differences.append(
                BackupComparison.Difference(
                    file: StoreLayout.manifest,
                    reason: "created_at is \(manifest["created_at"]?.briefDescription ?? "absent") "
                        + "in the store, \(wanted["created_at"]?.briefDescription ?? "absent") in the backup: a backup of another store"))
        }
        let ids = try store.workStreamIDs()
        for problem in ids.problems { unreadable(problem.path ?? store.path, problem) }
        let present = Set(ids.items)
        for id in sorted(present.union(expected.sessions.keys)) {
            result.workStreams += 1
            let file = StoreLayout.workStreamPath(id, schemaVersion: version)
            guard present.contains(id) else { differ(file, nil, expected.sessions[id]?.json); continue }
            do throws(StoreError) { differ(file, try store.workStream(id).json, expected.sessions[id]?.json) } catch { unreadable(file, error) }
        }
        let customisations = try store.customisations()
        for problem in customisations.problems { unreadable(problem.path ?? store.path, problem) }
        let stored = Dictionary(customisations.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in sorted(Set(stored.keys).union(expected.userSessions.keys)) {
            result.customisations += 1
            differ(StoreLayout.customisationPath(id), stored[id]?.json, expected.userSessions[id]?.json)
        }
        let newer = store.acceptsNewerDocuments
        do throws(StoreError) {
            let settings = try store.readIfPresent(StoreLayout.settings) { (b) throws(SchemaError) in try Settings(bytes: b, acceptingNewerVersions: newer) }
            result.settings = settings != nil || expected.settings != nil
            differ(StoreLayout.settings, settings?.json, expected.settings?.json)
        } catch { unreadable(StoreLayout.settings, error) }
        do throws(StoreError) {
            let queue = try store.queueDocument()
            result.queue = queue != nil || expected.queue != nil
            differ(StoreLayout.queue, queue?.json, expected.queue?.json)
        } catch { unreadable(StoreLayout.queue, error) }
        return result
    }

    private static func sorted(_ ids: Set<UUID>) -> [UUID] { ids.sorted { $0.lowercased < $1.lowercased } }
}
