import Foundation
import JSONStore
import Schema
import StoreJSON

/// `migrate-store ls <store> [--sort last-modified|name|queue] [--deleted] [--queued]`
///
/// One line per work stream, read through `Store.listWorkStreams()` (summaries: the messages are
/// not kept). Work streams the user deleted are hidden as a client hides them, unless `--deleted`.
/// Unreadable documents are listed after the table as warnings, and the exit status is then 65.
struct ListCommand: Subcommand {
    static let sortOrder = OptionSpec.choice(
        "sort", valueName: "order", choices: ["last-modified", "name", "queue"],
        help: "The order of the list: newest first, by display name, or by queue position.", default: "last-modified")
    static let deleted = OptionSpec.flag("deleted", help: "Include work streams the user deleted.")
    static let queued = OptionSpec.flag("queued", help: "Show only work streams in the FIFO or priority queue.")

    static let spec = CommandSpec(
        name: "ls", group: .inspecting,
        abstract: "List the work streams in a store.",
        discussion: """
            One line per work stream: its id, display name, provider and provider session, message \
            count, last change, FIFO position, priority and flags (local, deleted, hidden). Work \
            streams the user deleted are hidden, as the app hides them, unless --deleted is given. \
            Documents that can't be read are listed as warnings after the table (exit status 65).
            """,
        arguments: [.store],
        options: [sortOrder, deleted, queued])

    let storePath: String, sort: String
    let includeDeleted: Bool, queuedOnly: Bool

    init(_ arguments: ParsedArguments) {
        (storePath, sort) = (arguments.value(.store), arguments.string(Self.sortOrder) ?? "last-modified")
        (includeDeleted, queuedOnly) = (arguments.flag(Self.deleted), arguments.flag(Self.queued))
    }

    func run(_ out: Output) throws -> ExitCode {
        let inspected = try InspectedStore(path: storePath)
        let store = inspected.store
        let listing = try inspected.call { () throws(StoreError) in try store.listWorkStreams() }
        let customizations = try inspected.call { () throws(StoreError) in try store.customizations() }
        let inspectedQueue = try inspected.queue(summaries: listing.items, complete: listing.problems.isEmpty)
        let (queue, source) = (inspectedQueue.queue, inspectedQueue.source)
        let byID = Dictionary(customizations.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let lookup = QueueLookup(queue)
        let all = listing.items.map { WorkStreamRow($0, customization: byID[$0.id], queue: lookup) }

        let rows = Self.sorted(all.filter { (includeDeleted || !$0.isUserDeleted) && (!queuedOnly || $0.isQueued) }, by: sort)
        let problems = StoreProblem.sorted((listing.problems + customizations.problems).map { StoreProblem($0, in: inspected.store) })

        let notShownDeleted = includeDeleted ? 0 : all.filter { $0.isUserDeleted && (!queuedOnly || $0.isQueued) }.count
        // Only the output of the mode is built: the table of 50,000 rows was 7 % of `ls --json`.
        guard out.isJSON else {
            out.printEscaping(Self.table(rows) + [Self.footer(shown: rows.count, total: all.count, deletedNotShown: notShownDeleted, queuedOnly: queuedOnly)]
                              + (inspectedQueue.pendingLine.map { [$0] } ?? []))
            return try Self.finish(problems, store: store.path, out)
        }
        var json: [String: JSONOutputValue] = [
            "store": .string(store.path), "store_schema_version": .int(inspected.schemaVersion),
            "sort": .string(sort), "include_deleted": .bool(includeDeleted), "queued_only": .bool(queuedOnly),
            "queue_source": .string(source.code),
            "total": .int(all.count), "shown": .int(rows.count), "deleted_not_shown": .int(notShownDeleted),
            "work_streams": .array(rows.map(\.json)), "problems": .array(problems.map(\.json)),
        ]
        // Only when pending, so a store that needs no reconcile lists as it always did.
        if let pending = inspectedQueue.pendingReconcile { json["reconcile_pending"] = .string(pending) }
        out.emitJSON(json)
        return try Self.finish(problems, store: store.path, out)
    }

    /// `rows` in the order of `--sort`; ties fall back to the id, so the output is stable.
    static func sorted(_ rows: [WorkStreamRow], by sort: String) -> [WorkStreamRow] {
        guard sort == "name" else { return rows.sorted(by: order(sort)) }
        // By display name ignoring case, then by its exact bytes, then by id; the lowercased
        // names are made once per row, not twice per comparison.
        let keyed = rows.map { (name: $0.displayName.lowercased(), row: $0) }
        return keyed.sorted { a, b in
            if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
            return a.row.displayName != b.row.displayName
                ? a.row.displayName.utf8.lexicographicallyPrecedes(b.row.displayName.utf8) : byID(a.row, b.row)
        }.map(\.row)
    }

    /// The id order, which is the order of the ids' lowercase text (``UUID/textOrderKey``).
    static func byID(_ a: WorkStreamRow, _ b: WorkStreamRow) -> Bool { a.id.textOrderKey < b.id.textOrderKey }

    /// The ordering of `--sort last-modified` (any other value) and `--sort queue`; `name` is
    /// in ``sorted(_:by:)``.
    private static func order(_ sort: String) -> (WorkStreamRow, WorkStreamRow) -> Bool {
        func newestFirst(_ a: WorkStreamRow, _ b: WorkStreamRow) -> Bool {
            a.summary.lastModified != b.summary.lastModified ? a.summary.lastModified > b.summary.lastModified : byID(a, b)
        }
        switch sort {
        case "queue":
            // FIFO position first (unqueued last), then priority-queue place, then newest first.
            return { a, b in
                let (fa, fb) = (a.fifoPosition ?? Int.max, b.fifoPosition ?? Int.max)
                if fa != fb { return fa < fb }
                let (pa, pb) = (a.priorityPosition ?? Int.max, b.priorityPosition ?? Int.max)
                if pa != pb { return pa < pb }
                return newestFirst(a, b)
            }
        default:
            return newestFirst
        }
    }

    /// The table's lines; names and providers longer than ``TerminalText/nameWidth`` are cut.
    private static func table(_ rows: [WorkStreamRow]) -> [String] {
        guard !rows.isEmpty else { return [] }
        let short = ShortIDs(rows.map(\.id))
        var table = TextTable(["ID", "NAME", "PROVIDER", "PROVIDER SESSION", "MSGS", "LAST MODIFIED", "FIFO", "PRIO", "FLAGS"],
                              rightAligned: [4, 6, 7], maximumWidths: [1: TerminalText.nameWidth, 2: TerminalText.nameWidth])
        for row in rows {
            let session = row.summary.effectiveProviderSessionID
            table.append([
                short(row.id), row.displayName, row.summary.effectiveProvider,
                session == row.id.lowercased ? "= id" : String(session.prefix(max(short.length, 8))),
                TextFormat.count(Int(row.summary.messageCount)), RFC3339.format(row.summary.lastModified),
                row.fifoPosition.map(String.init) ?? "-", row.priorityEntry.map { String($0.priority) } ?? "-",
                row.flags.joined(separator: ","),
            ])
        }
        return table.render()
    }

    static func footer(shown: Int, total: Int, deletedNotShown: Int, queuedOnly: Bool) -> String {
        var text = queuedOnly ? "\(TextFormat.count(shown)) queued of \(TextFormat.plural(total, "work stream"))"
                              : TextFormat.plural(shown, "work stream")
        if deletedNotShown > 0 {
            text += " (\(TextFormat.count(deletedNotShown)) deleted by the user not shown; --deleted shows \(deletedNotShown == 1 ? "it" : "them"))"
        }
        return text + "."
    }

    /// Warnings for every unreadable document, then, if there was any, exit status 74 when one
    /// of them failed to read (``ProblemExit``), else 65.
    static func finish(_ problems: [StoreProblem], store: String, _ out: Output) throws -> ExitCode {
        guard !problems.isEmpty else { return .success }
        for problem in problems { out.warning(problem.line) }
        throw CommandError(ProblemExit.code(problems), "\(TextFormat.plural(problems.count, "document")) of '\(store)' can't be read and \(problems.count == 1 ? "is" : "are") left out. Run '\(ToolInfo.command("validate", store))' for every problem.")
    }
}
