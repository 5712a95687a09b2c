import Foundation
import JSONStore
import Schema

/// `migrate-store queue <store> [--locked ID,...]`
///
/// Both queues in order, each entry marked with the reasons a client would hide it (spec §5):
/// `queue_disabled`, `locked` (only for the provider sessions given with `--locked`: a lock is
/// not knowable offline), `deleted`, `missing`, and `unreadable` (the document exists but
/// can't be read). Then where the queue comes from and whether `queue.json` and its mirror agree.
struct QueueCommand: Subcommand {
    static let locked = OptionSpec.list(
        "locked", valueName: "id,...",
        help: "Provider session ids to treat as locked (the agent is still working). Comma-separated; may be repeated.")

    static let spec = CommandSpec(
        name: "queue", group: .inspecting,
        abstract: "Show the queues as the app displays them.",
        discussion: """
            Shows both queues in order. Entries the app hides are marked: work streams the user \
            deleted, work streams that no longer exist, and those whose provider session is locked. \
            Hidden entries keep their place.
            """,
        arguments: [.store],
        options: [locked])

    let storePath: String
    let lockedIDs: [String]

    init(_ arguments: ParsedArguments) {
        storePath = arguments.value(.store)
        lockedIDs = arguments.list(Self.locked)
    }

    func run(_ out: Output) throws -> ExitCode {
        let inspected = try InspectedStore(path: storePath)
        let report = try QueueReport(inspected, locked: lockedIDs)
        out.printEscaping(report.lines)
        out.emitJSON(report.json)
        return try ListCommand.finish(report.problems, store: inspected.path, out)
    }
}

/// What `queue` shows, gathered once for both audiences.
struct QueueReport {
    /// One queue entry with what a client needs to show it.
    struct Row {
        var visibility: QueueEntryVisibility
        var reasons: [String]
        var name: String?
        var fifo: FIFOEntry?
        var priority: PriorityEntry?
    }

    /// Whether `queue.json` and the per-session keys (the mirror v1 readers use) agree.
    enum MirrorStatus: String {
        case agrees, disagrees
        case notApplicable = "not_applicable"
        case notChecked = "not_checked"
    }

    let inspected: InspectedStore
    let settings: Settings
    let source: QueueSource
    let locked: [String]
    /// `--locked` values that are no work stream's provider session.
    let unmatchedLocked: [String]
    let fifo: [Row]
    let priority: [Row]
    var mirror: MirrorStatus = .notApplicable
    var mirrorDetail: String?
    /// A v5 store: its work streams have no mirror keys (spec §12).
    var hasNoMirror = false
    var problems: [StoreProblem] = []
    /// Why the next writer rewrites the queue or its mirror (spec §7), when it will.
    let pendingReconcile: String?
    let pendingLine: String?

    init(_ inspected: InspectedStore, locked lockedArguments: [String]) throws {
        self.inspected = inspected
        let store = inspected.store
        let listing = try inspected.call { () throws(StoreError) in try store.listWorkStreams() }
        let files = Set(try inspected.call { () throws(StoreError) in try store.workStreamIDs() }.items)
        let customisations = try inspected.call { () throws(StoreError) in try store.customisations() }
        settings = try inspected.call { () throws(StoreError) in try store.settings() }
        let inspectedQueue = try inspected.queue(summaries: listing.items, complete: listing.problems.isEmpty)
        let queue = inspectedQueue.queue
        source = inspectedQueue.source
        (pendingReconcile, pendingLine) = (inspectedQueue.pendingReconcile, inspectedQueue.pendingLine)
        problems = (listing.problems + customisations.problems).map { StoreProblem($0, in: inspected.store) }

        locked = lockedArguments.map { $0.lowercased() }
        let sessions = Dictionary(listing.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let providerSessions = Set(sessions.values.map(\.effectiveProviderSessionID))
        unmatchedLocked = locked.filter { !providerSessions.contains($0) }
        let custom = Dictionary(customisations.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let context = QueueContext(
            providerSessionIDs: sessions.mapValues(\.effectiveProviderSessionID),
            deleted: Set(custom.values.filter(\.isUserDeleted).map(\.id)),
            lockedProviderSessions: Set(locked))
        let unreadable = files.subtracting(sessions.keys)
        func row(_ v: QueueEntryVisibility) -> Row {
            let reasons = v.hiddenBecause.map { $0 == .missing && unreadable.contains(v.workStreamID) ? "unreadable" : $0.rawValue }
            let name = sessions[v.workStreamID].map { WorkStreamRules.displayName(backendName: $0.backendName, customisation: custom[v.workStreamID]) }
            return Row(visibility: v, reasons: reasons, name: name)
        }
        fifo = zip(queue.fifoVisibility(context, enabled: settings.queueEnabled), queue.fifo).map {
            var r = row($0); r.fifo = $1; return r
        }
        priority = zip(queue.priorityVisibility(context, enabled: settings.priorityQueueEnabled), queue.priority).map {
            var r = row($0); r.priority = $1; return r
        }
        // A v5 store has no mirror (spec §12): not applicable.
        hasNoMirror = store.hasRenamedLayout
        checkMirror(store.hasRenamedLayout ? nil : inspectedQueue.document, listing: listing)
    }

    /// Check (d) of spec §7, and which side §7 makes the truth when they disagree.
    private mutating func checkMirror(_ document: QueueV2?, listing: ScanResult<WorkStreamSummary>) {
        guard let queue = document else { return }
        guard listing.problems.isEmpty else {
            mirror = .notChecked
            mirrorDetail = "\(TextFormat.plural(listing.problems.count, "work stream")) can't be read"
            return
        }
        guard let failure = RollbackCheck.checkMirror(sessions: listing.items.map(\.queueSummary), queue: queue) else {
            mirror = .agrees
            return
        }
        mirror = .disagrees
        let v1Written = listing.items.filter { $0.schemaVersion < 2 }.count
        let repair =
            v1Written > 0
            ? "the session keys are the truth because a v1 writer wrote \(TextFormat.plural(v1Written, "work stream")) (spec §7): 'migrate-store migrate' rebuilds queue.json from them"
            : "queue.json is the truth (spec §7): 'migrate-store migrate', or any client opening the store for writing, rewrites the mirror"
        mirrorDetail = "\(failure.reason); \(repair)"
    }
}
