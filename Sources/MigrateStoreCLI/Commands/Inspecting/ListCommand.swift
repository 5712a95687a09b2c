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
            Documents that can't be read are listed as warnings after the table (exit status 65, \
            or 74 when the operating system failed to read one).
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
        let customisations = try inspected.call { () throws(StoreError) in try store.customisations() }
        let inspectedQueue = try inspected.queue(summaries: listing.items, complete: listing.problems.isEmpty)
        let (queue, source) = (inspectedQueue.queue, inspectedQueue.source)
        let byID = Dictionary(customisations.items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let lookup = QueueLookup(queue)
        let all = listing.items.map { WorkStreamRow($0, customisation: byID[$0.id], queue: lookup) }

        // Row numbers in `all`, not copies of the rows (large values: every string of a summary).
        let shown = Self.sorted(
            all.indices.filter { (includeDeleted || !all[$0].isUserDeleted) && (!queuedOnly || all[$0].isQueued) },
            of: all, by: sort)
        let problems = StoreProblem.sorted((listing.problems + customisations.problems).map { StoreProblem($0, in: inspected.store) })

        let notShownDeleted = includeDeleted ? 0 : all.count { $0.isUserDeleted && (!queuedOnly || $0.isQueued) }
        // Only the output of the mode is built: the table of 50,000 rows was 7 % of `ls --json`.
        guard out.isJSON else {
            out.printEscaping(
                Self.table(shown.map { all[$0] }) + [
                    Self.footer(shown: shown.count, total: all.count, deletedNotShown: notShownDeleted, queuedOnly: queuedOnly)
                ]
                    + (inspectedQueue.pendingLine.map { [$0] } ?? []))
            return try Self.finish(problems, store: store.path, out)
        }
        var json: [String: JSONOutputValue] = [
            "store": .string(store.path), "store_schema_version": .int(inspected.schemaVersion),
            "sort": .string(sort), "include_deleted": .bool(includeDeleted), "queued_only": .bool(queuedOnly),
            "queue_source": .string(source.code),
            "total": .int(all.count), "shown": .int(shown.count), "deleted_not_shown": .int(notShownDeleted),
            "work_streams": .array(shown.map { all[$0].json }), "problems": .array(problems.map(\.json)),
        ]
        // Only when pending, so a store that needs no reconcile lists as it always did.
        if let pending = inspectedQueue.pendingReconcile { json["reconcile_pending"] = .string(pending) }
        out.emitJSON(json)
        return try Self.finish(problems, store: store.path, out)
    }

    /// `shown` (numbers of rows in `all`) in the order of `--sort`: newest first (`last-modified`,
    /// and any other value), by ``QueueOrderKey`` (`queue`), or by display name ignoring case
    /// (`name`); ties fall back to the id, so the output is stable.
    ///
    /// Row numbers are sorted, on keys made once per row: a row is a large value (every string
    /// of its summary), and moving 50,000 of them through the merge sort was 9 % of `ls --json`.
    static func sorted(_ shown: [Int], of all: [WorkStreamRow], by sort: String) -> [Int] {
        let order: [Int]
        switch sort {
        case "name":
            // By display name ignoring case, then by its exact bytes, then by id.
            let names = shown.map { all[$0].displayName }
            let lowercased = names.map { $0.lowercased() }
            order = shown.indices.sorted { a, b in
                if lowercased[a] != lowercased[b] { return lowercased[a].utf8.lexicographicallyPrecedes(lowercased[b].utf8) }
                return names[a] != names[b]
                    ? names[a].utf8.lexicographicallyPrecedes(names[b].utf8)
                    : all[shown[a]].id.textOrderKey < all[shown[b]].id.textOrderKey
            }
        case "queue":
            let keys = shown.map { QueueOrderKey(all[$0]) }
            order = shown.indices.sorted { keys[$0].precedes(keys[$1]) }
        default:
            let keys = shown.map { NewestFirstKey(all[$0]) }
            order = shown.indices.sorted { keys[$0].precedes(keys[$1]) }
        }
        return order.map { shown[$0] }
    }

    /// Newest first, then by id (in the order of the ids' lowercase text, ``UUID/textOrderKey``).
    struct NewestFirstKey {
        var lastModified: Date
        var id: (UInt64, UInt64)

        init(_ row: WorkStreamRow) { (lastModified, id) = (row.summary.lastModified, row.id.textOrderKey) }

        func precedes(_ other: Self) -> Bool {
            lastModified != other.lastModified ? lastModified > other.lastModified : id < other.id
        }
    }

    /// FIFO position first (unqueued last), then priority-queue place, then newest first.
    struct QueueOrderKey {
        var fifoPosition: Int
        var priorityPosition: Int
        var newestFirst: NewestFirstKey

        init(_ row: WorkStreamRow) {
            (fifoPosition, priorityPosition) = (row.fifoPosition ?? Int.max, row.priorityPosition ?? Int.max)
            newestFirst = NewestFirstKey(row)
        }

        func precedes(_ other: Self) -> Bool {
            if fifoPosition != other.fifoPosition { return fifoPosition < other.fifoPosition }
            if priorityPosition != other.priorityPosition { return priorityPosition < other.priorityPosition }
            return newestFirst.precedes(other.newestFirst)
        }
    }

    /// The table's lines; names and providers longer than ``TerminalText/nameWidth`` are cut.
    private static func table(_ rows: [WorkStreamRow]) -> [String] {
        guard !rows.isEmpty else { return [] }
        let short = ShortIDs(rows.map(\.id))
        var table = TextTable(
            ["ID", "NAME", "PROVIDER", "PROVIDER SESSION", "MSGS", "LAST MODIFIED", "FIFO", "PRIO", "FLAGS"],
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
        var text =
            queuedOnly
            ? "\(TextFormat.count(shown)) queued of \(TextFormat.plural(total, "work stream"))"
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
        for problem in problems { out.warning(problem.printedLine) }
        throw CommandError(
            ProblemExit.code(problems),
            "\(TextFormat.plural(problems.count, "document")) of '\(store)' can't be read and \(problems.count == 1 ? "is" : "are") left out. Run '\(ToolInfo.command("validate", store))' for every problem."
        )
    }
}
