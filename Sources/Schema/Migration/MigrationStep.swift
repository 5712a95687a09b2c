import Foundation
import StoreJSON

/// The two kinds of step of spec §9.
public enum StepKind: String, Sendable, Hashable {
    /// Additive: the older version's reader reads and writes the newer store (`min_reader_version`
    /// stays where it was). Verified by the four checks of §7 for every older reader.
    case rollbackSafe = "rollback-safe"
    /// Older readers are refused (`min_reader_version` rises to the new version). Applied only when
    /// asked for by name; ships with an exact inverse.
    case breaking
}

/// What a step does to the store's folders besides its documents (spec §12). The store engine
/// reads it from the chain to move the folders; the per-document transforms never see it.
public enum LayoutEffect: Sendable, Hashable {
    /// The documents stay in their folders.
    case none
    /// The work streams' folder is renamed: `from` in a store below the step's `to` version,
    /// `to` from that version on. Only a breaking step can rename a folder (a reader of the
    /// older version would not find its documents).
    case renamesWorkStreamsFolder(from: String, to: String)
}

/// What a step's transform knows besides the document.
public struct StepContext: Sendable {
    /// The document's `schema_version` is lower than the store's: an older writer rewrote it after
    /// the store was upgraded (spec §7, §10), so what that writer does not maintain can't be trusted.
    public var writtenByOlderWriter: Bool
    /// The store's queue (`queue.json`): what v4 keeps instead of each work stream's mirror keys,
    /// and what the inverse writes them back from (§11). Empty for the rollback-safe steps.
    public var queue: QueueIndex

    public init(writtenByOlderWriter: Bool, queue: QueueIndex = QueueIndex(QueueV2())) {
        self.writtenByOlderWriter = writtenByOlderWriter
        self.queue = queue
    }
}

/// One step of the version chain (spec §9): a frozen pair of versions and the pure per-document
/// transforms between them. A value: the chain is the ordered list `MigrationChain.steps`.
///
/// Every transform is idempotent on its own output and keeps every key it does not know.
public struct MigrationStep: Sendable {
    public typealias WorkStreamTransform = @Sendable (WorkStreamDocument, StepContext) throws(SchemaError) -> (WorkStreamDocument, [Change])
    /// A transform of a small document (a customisation, `settings.json`) on its JSON object: the
    /// document at version `from` in (with `schema_version` not yet changed), its new keys out,
    /// with the changes it made. The engine sets `schema_version` and decodes the result.
    public typealias DocumentTransform = @Sendable (JSONObject) throws(SchemaError) -> (JSONObject, [Change])

    public let from: Int
    public let to: Int
    public let kind: StepKind
    /// One line for `plan` and `status`: what the step does.
    public let summary: String
    /// The work-stream transform: a document of version `from` (or, for the first step a store
    /// takes, lower) in, a document of version `to` out, with the changes it made.
    let workStream: WorkStreamTransform
    /// The keys the step adds to a work stream, which every older reader's write must keep (§7 (c)).
    public let addedWorkStreamKeys: [String]
    /// The keys the step adds to each message.
    public let addedMessageKeys: [String]
    /// The keys the step adds to each customisation (`user-sessions/<id>.json`).
    public let addedCustomisationKeys: [String]
    /// The keys the step adds to `settings.json`.
    public let addedSettingsKeys: [String]
    /// The customisation transform; nil when only `schema_version` changes.
    let customisation: DocumentTransform?
    /// The `settings.json` transform; nil when only `schema_version` changes.
    let settings: DocumentTransform?
    /// The change codes this step may report that change a value an older reader sees: the
    /// normalisations that check (b) allows (§7).
    public let normalisations: Set<String>
    /// For a breaking step, its exact inverse (§9); nil for a rollback-safe step.
    public let inverse: InverseStep?
    /// What the step does to the store's folders (its inverse undoes it).
    public let layout: LayoutEffect

    public init(
        from: Int, to: Int, kind: StepKind, summary: String, addedWorkStreamKeys: [String], addedMessageKeys: [String],
        normalisations: Set<String>, inverse: InverseStep? = nil, layout: LayoutEffect = .none,
        addedCustomisationKeys: [String] = [], customisation: DocumentTransform? = nil,
        addedSettingsKeys: [String] = [], settings: DocumentTransform? = nil,
        workStream: @escaping WorkStreamTransform
    ) {
        precondition(to == from + 1, "MigrationStep: a step goes from one version to the next")
        precondition((kind == .breaking) == (inverse != nil), "MigrationStep: a breaking step, and only one, ships with its inverse")
        precondition(layout == .none || kind == .breaking, "MigrationStep: only a breaking step changes the store's folders")
        precondition(
            kind == .rollbackSafe || (customisation == nil && settings == nil),
            "MigrationStep: a breaking step changes only the work streams' documents (its inverse has no small-document transform)")
        self.from = from; self.to = to; self.kind = kind; self.summary = summary
        self.addedWorkStreamKeys = addedWorkStreamKeys; self.addedMessageKeys = addedMessageKeys
        self.normalisations = normalisations; self.inverse = inverse; self.layout = layout; self.workStream = workStream
        self.addedCustomisationKeys = addedCustomisationKeys; self.customisation = customisation
        self.addedSettingsKeys = addedSettingsKeys; self.settings = settings
    }

    /// The work streams' folder before and after the step, when it renames it (``LayoutEffect``).
    public var renamedWorkStreamsFolder: (from: String, to: String)? {
        guard case .renamesWorkStreamsFolder(let from, let to) = layout else { return nil }
        return (from, to)
    }

    /// Applies the work-stream transform.
    public func migrate(_ document: WorkStreamDocument, context: StepContext) throws(SchemaError) -> (WorkStreamDocument, [Change]) {
        try workStream(document, context)
    }
}

/// The exact inverse of a breaking step (§9): for every document, inverse(step(d)) equals d except
/// the normalisations the step reports.
public struct InverseStep: Sendable {
    public let from: Int
    public let to: Int
    let workStream: MigrationStep.WorkStreamTransform

    public init(from: Int, to: Int, workStream: @escaping MigrationStep.WorkStreamTransform) {
        self.from = from; self.to = to; self.workStream = workStream
    }

    public func migrate(_ document: WorkStreamDocument, context: StepContext) throws(SchemaError) -> (WorkStreamDocument, [Change]) {
        try workStream(document, context)
    }
}
