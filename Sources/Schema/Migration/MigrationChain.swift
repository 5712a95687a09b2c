import Foundation

/// The store's versions: an ordered list of steps (spec §9), registered here and nowhere else.
///
/// Adding a version is one folder of frozen types (`Models/V<n>`) and one step file
/// (`Migration/Steps`), listed in ``steps``.
public enum MigrationChain {
    /// Every step, oldest first: step i goes from version i + 1 to i + 2.
    public static let steps: [MigrationStep] = [.v1ToV2, .v2ToV3, .v3ToV4, .v4ToV5]

    /// The newest version this code knows.
    public static var newest: Int { steps.last!.to }

    /// The oldest version.
    public static var oldest: Int { steps.first!.from }

    /// The step that renames the work streams' folder (its ``LayoutEffect``, spec §12): the
    /// breaking step the store engine runs as a layout change. The chain has exactly one.
    public static let folderRenamingStep: MigrationStep = {
        let renaming = steps.filter { $0.renamedWorkStreamsFolder != nil }
        precondition(renaming.count == 1, "MigrationChain: exactly one step renames the work streams' folder")
        return renaming[0]
    }()

    /// The steps from version `from` up to `to`, in order (empty when `to` ≤ `from`).
    public static func steps(from: Int, to: Int) -> [MigrationStep] {
        steps.filter { $0.from >= from && $0.to <= to }
    }

    /// Where `migrate` goes without a target (§9): the newest version every reader the store
    /// admits today can still read: along rollback-safe steps from `version`, up to the first
    /// breaking one.
    public static func defaultTarget(from version: Int) -> Int {
        var target = version
        for step in steps where step.from >= version {
            guard step.kind == .rollbackSafe, step.from == target else { break }
            target = step.to
        }
        return target
    }

    /// The oldest reader version that may read a store of `version` that this chain wrote:
    /// raised to a breaking step's `to`, kept by rollback-safe ones.
    public static func minReaderVersion(at version: Int) -> Int {
        var minimum = oldest
        for step in steps where step.to <= version && step.kind == .breaking { minimum = step.to }
        return minimum
    }

    /// The reader versions that can read (and write) a store of `version`, oldest first.
    public static func readers(at version: Int) -> ClosedRange<Int> { minReaderVersion(at: version)...version }

    /// A work stream through every step from its own version up to `target`.
    ///
    /// - Parameters:
    ///   - storeVersion: the store's `schema_version` before this run: a document below it was
    ///     rewritten by an older writer after the upgrade (``StepContext``).
    /// - Returns: the document (unchanged when it is at `target` or newer) and its changes, with the
    ///   `schema_version` changes of the steps merged into one (`1 → 3`).
    ///   - queue: the store's queue, which the breaking step v3 → v4 needs (§11).
    public static func migrateWorkStream(
        _ document: WorkStreamDocument, storeVersion: Int, to target: Int,
        queue: QueueIndex = QueueIndex(QueueV2())
    ) throws(SchemaError) -> (WorkStreamDocument, [Change]) {
        let start = document.schemaVersion
        guard start < target else { return (document, []) }
        let context = StepContext(writtenByOlderWriter: start < storeVersion, queue: queue)
        var current = document
        var changes: [Change] = []
        for step in steps where step.to > start && step.to <= target {
            let (next, stepChanges) = try step.migrate(current, context: context)
            current = next
            changes += stepChanges
        }
        return (current, mergingVersionChanges(changes))
    }

    /// One `schema_version` change from the first `from` to the last `to`, in the first one's place.
    static func mergingVersionChanges(_ changes: [Change]) -> [Change] {
        var first: Int?, last: Int?, at: Int?
        var out: [Change] = []
        out.reserveCapacity(changes.count)
        for change in changes {
            if case .schemaVersion(let from, let to) = change {
                if first == nil { first = from; at = out.count; out.append(change) }
                last = to
            } else {
                out.append(change)
            }
        }
        if let first, let last, let at { out[at] = .schemaVersion(from: first, to: last) }
        return out
    }

    /// `queue.json` at `target`: only `schema_version` changes (no step changes the queue's keys).
    public static func upgradedVersion(_ version: Int, to target: Int) -> (Int, [Change]) {
        version < target ? (target, [.schemaVersion(from: version, to: target)]) : (version, [])
    }

    /// A customisation taken up to `target` by the steps' customisation transforms: unchanged when
    /// it is at `target` or newer.
    public static func migrateCustomisation(_ document: Customisation, to target: Int) throws(SchemaError) -> (Customisation, [Change]) {
        guard document.schemaVersion < target else { return (document, []) }
        let (object, changes) = try migrate(document.json, from: document.schemaVersion, to: target, \.customisation)
        return (try Customisation(json: .object(object), acceptingNewerVersions: true), changes)
    }

    /// `settings.json` taken to `target`, as ``migrateCustomisation(_:to:)``.
    public static func migrateSettings(_ document: Settings, to target: Int) throws(SchemaError) -> (Settings, [Change]) {
        guard document.schemaVersion < target else { return (document, []) }
        let (object, changes) = try migrate(document.json, from: document.schemaVersion, to: target, \.settings)
        return (try Settings(json: .object(object), acceptingNewerVersions: true), changes)
    }

    private static func migrate(
        _ json: JSONValue, from version: Int, to target: Int, _ transform: KeyPath<MigrationStep, MigrationStep.DocumentTransform?>
    ) throws(SchemaError) -> (JSONObject, [Change]) {
        guard case .object(var object) = json else { preconditionFailure("MigrationChain: a document's JSON is an object") }
        var changes: [Change] = [.schemaVersion(from: version, to: target)]
        for step in steps where step.from >= version && step.to <= target {
            guard let transform = step[keyPath: transform] else { continue }
            let (next, stepChanges) = try transform(object)
            object = next
            changes += stepChanges
        }
        object["schema_version"] = .number(JSONNumber(target))
        return (object, changes)
    }
}
