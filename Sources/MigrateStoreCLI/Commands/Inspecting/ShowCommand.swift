import Foundation
import JSONStore
import Schema

/// `migrate-store show <store> <id-or-prefix> [--messages N] [--full]`
///
/// One work stream in full: its file, every key of its document (unknown keys included), the
/// values derived by spec §4, its customisation, its place in both queues and its latest
/// messages, newest last, long texts cut at ``ShowReport/cutLength`` characters unless `--full`.
struct ShowCommand: Subcommand {
    static let idOrPrefix = ArgumentSpec(name: "id-or-prefix", help: "A work stream id, or a unique prefix of one.")
    static let messages = OptionSpec.integer(
        "messages", valueName: "n", help: "How many of the latest messages to show.", minimum: 0, default: 5)
    static let full = OptionSpec.flag("full", help: "Show whole message texts instead of their first 200 characters.")

    static let spec = CommandSpec(
        name: "show", group: .inspecting,
        abstract: "Show one work stream and its latest messages.",
        discussion: """
            Prints the work stream's keys, its user customisation, its queue entries and its latest \
            messages. A unique prefix of the id (4 hexadecimal digits or more) is enough; an \
            ambiguous prefix lists the matches (exit status 64), an unknown id exits with 65.
            """,
        arguments: [.store, idOrPrefix],
        options: [messages, full])

    let storePath: String, idText: String
    let messageCount: Int, fullTexts: Bool

    init(_ arguments: ParsedArguments) {
        (storePath, idText) = (arguments.value(.store), arguments.value(Self.idOrPrefix))
        (messageCount, fullTexts) = (arguments.integer(Self.messages) ?? 5, arguments.flag(Self.full))
    }

    func run(_ out: Output) throws -> ExitCode {
        let inspected = try InspectedStore(path: storePath)
        let id = try IDPrefix.resolve(idText, in: inspected, command: Self.spec.name)
        let report = try ShowReport(id: id, in: inspected, messages: messageCount, full: fullTexts)
        out.printEscaping(report.lines)
        out.emitJSON(report.json)
        return try ListCommand.finish(report.problems, store: inspected.path, out)
    }
}

/// What `show` prints, gathered once for both audiences.
struct ShowReport {
    /// Message texts longer than this many characters are cut unless `--full`.
    static let cutLength = 200

    let inspected: InspectedStore
    let id: UUID
    let document: WorkStreamDocument
    let fileSize: Int
    let customisation: Customisation?
    let queue: QueueV2
    let queueSource: QueueSource
    /// Why the next writer rewrites the queue or its mirror (spec §7), when it will.
    let pendingReconcile: String?
    /// Indexes into `messages` of the ones shown (the last N).
    let shownMessages: Range<Int>
    let full: Bool
    /// The customisation, when it can't be read.
    var problems: [StoreProblem] = []

    init(id: UUID, in inspected: InspectedStore, messages: Int, full: Bool) throws {
        self.inspected = inspected; self.id = id; self.full = full
        let store = inspected.store
        let stored: StoredDocument<WorkStreamDocument>
        do { stored = try store.storedWorkStream(id) } catch  where error.code == .notFound {
            throw CommandError(
                .dataError, "'\(store.path)' has no work stream '\(id.lowercased)'. Run '\(ToolInfo.command("ls", store.path, "--deleted"))' to see every id.")
        } catch { throw InspectFailure.commandError(error) }
        guard stored.value.fields.id == id else {
            throw CommandError(
                .dataError,
                "Can't show '\(Self.file(id, in: store))': its id is '\(stored.value.fields.id.lowercased)' but its file name says '\(id.lowercased)'. Rename the file or fix the id by hand."
            )
        }
        document = stored.value; fileSize = stored.size
        do { customisation = try store.customisation(id) } catch {
            customisation = nil
            problems.append(StoreProblem(error, in: inspected.store))
        }
        let inspectedQueue = try Self.queue(inspected)
        (queue, queueSource, pendingReconcile) = (inspectedQueue.queue, inspectedQueue.source, inspectedQueue.pendingReconcile)
        let count = document.storedMessageCount
        shownMessages = max(0, count - messages)..<count
    }

    /// The queue the next writer establishes (spec §7; this reads the top level of every work stream).
    private static func queue(_ inspected: InspectedStore) throws -> InspectedQueue {
        let store = inspected.store
        let listing = try inspected.call { () throws(StoreError) in try store.listWorkStreams() }
        return try inspected.queue(summaries: listing.items, complete: listing.problems.isEmpty)
    }

    static func file(_ id: UUID, in store: Store) -> String {
        let base = store.path.hasSuffix("/") ? store.path : store.path + "/"
        return base + StoreLayout.workStreamPath(id, schemaVersion: store.compatibility.layoutVersion)
    }

    var path: String { Self.file(id, in: inspected.store) }
    var fields: WorkStreamKeys { document.fields }
    /// The messages shown, each with its 0-based place in `messages`.
    var shownMessageList: [(index: Int, message: any WorkStreamMessage)] {
        switch document {
        case .v1(let s): shownMessages.map { ($0, s.fields.messages[$0]) }
        case .v2(let s): shownMessages.map { ($0, s.fields.messages[$0]) }
        case .v3(let s): shownMessages.map { ($0, s.fields.messages[$0]) }
        case .v5(let s): shownMessages.map { ($0, s.messages[$0]) }
        }
    }
    var displayName: String { WorkStreamRules.displayName(backendName: fields.backendName, customisation: customisation) }
    var displayNameSource: WorkStreamRules.DisplayNameSource {
        WorkStreamRules.displayNameSource(backendName: fields.backendName, customisation: customisation)
    }
    var providerSessionID: String { WorkStreamRules.effectiveProviderSessionID(document) }
    var provider: String { WorkStreamRules.effectiveProvider(document) }
    /// True when the document has the key itself (a v2 document, or a v1 one that kept it).
    func hasKey(_ key: String) -> Bool {
        guard case .object(let object) = document.json else { return false }
        return object[key] != nil
    }
    var isUserDeleted: Bool { customisation?.isUserDeleted ?? false }
    var fifoPosition: Int? { queue.fifoPosition(of: id) }
    var priorityPlace: (entry: PriorityEntry, position: Int)? {
        queue.priority.firstIndex { $0.workStreamID == id }.map { (queue.priority[$0], $0 + 1) }
    }

    /// The message text as shown: whole with `--full`, else its first ``cutLength`` characters.
    func shownText(_ text: String) -> (text: String, cut: Int) {
        guard !full, text.count > Self.cutLength else { return (text, 0) }
        return (String(text.prefix(Self.cutLength)), text.count - Self.cutLength)
    }
}
