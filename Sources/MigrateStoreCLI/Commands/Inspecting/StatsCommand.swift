import Foundation
import JSONStore
import Schema

/// `migrate-store stats <store>`
///
/// Counts and sizes per kind of document, the mix of schema versions, the largest documents,
/// messages, queues, and the anomalies `validate` reports, summarised by code. Exit status 65
/// when a document can't be read (the counts leave it out), else 0: anomalies are reported,
/// `validate` is the command whose status says whether there are any.
struct StatsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "stats", group: .inspecting,
        abstract: "Count the documents, messages and bytes in a store.",
        discussion: """
            Counts, bytes and schema versions per kind of document, the largest documents, \
            messages, queue sizes, and the anomalies 'validate' reports, counted by code.
            """,
        arguments: [.store])

    let storePath: String

    init(_ arguments: ParsedArguments) { storePath = arguments.value(.store) }

    /// The problem codes of an entry of `sessions/` or `user-sessions/` that readers skip (see
    /// `StoreProblem(_:in:)`).
    static let notADocumentCodes: Set<String> = ["symbolic_link", "not_a_regular_file", "invalid_file_name"]

    func run(_ out: Output) throws -> ExitCode {
        let inspected = try InspectedStore(path: storePath)
        // The same scan as 'validate', drawn the same way on a terminal.
        let progress = OperationProgress(out)
        let stats = StoreStats(try inspected.call { () throws(StoreError) in try StoreValidator(inspected.store) { progress.show($0) } })
        progress.finish()
        for line in stats.lines { out.print(line) }
        out.emitJSON(stats.json)
        // Unreadable documents, and entries of a document folder that are no documents (a
        // symbolic link, FIFO, folder or badly named file), are left out of the counts: the exit
        // status says so as 'validate' does (74 for an I/O failure, 65 otherwise).
        let unreadable = stats.scan.unreadable
        let notDocuments = stats.scan.problems.filter { Self.notADocumentCodes.contains($0.code) }.count
        guard unreadable + notDocuments == 0 else {
            let validate = "Run '\(ToolInfo.command("validate", inspected.path))' for every problem."
            let unreadableText = "\(TextFormat.plural(unreadable, "document")) of '\(inspected.path)' can't be read"
            let message =
                notDocuments == 0
                ? "\(unreadableText) and \(unreadable == 1 ? "is" : "are") left out of the counts. \(validate)"
                : "'\(inspected.path)' has \(TextFormat.plural(notDocuments, "entry", "entries")) in its document folders that \(notDocuments == 1 ? "is no document" : "are no documents") (a symbolic link, FIFO, folder or badly named file)"
                    + (unreadable > 0 ? " and \(TextFormat.plural(unreadable, "document")) that can't be read" : "")
                    + "; they are left out of the counts. \(validate)"
            throw CommandError(ProblemExit.code(stats.scan.problems), message)
        }
        return .success
    }
}

/// The numbers of `stats`, computed from a ``StoreValidator``.
struct StoreStats {
    /// One row of the per-kind table.
    struct Kind {
        var name: String
        var files: Int
        var bytes: Int
        /// schema_version → how many documents have it.
        var versions: [Int: Int]
    }

    /// One document and its size, for the largest-documents list.
    struct Document { var file: String; var bytes: Int }

    static let largestCount = 5

    let scan: StoreValidator
    let kinds: [Kind]
    let largest: [Document]

    init(_ scan: StoreValidator) {
        self.scan = scan
        var kinds = [
            Kind(
                name: "work streams", files: scan.sessions.count, bytes: scan.sessions.reduce(0) { $0 + $1.fileSize },
                versions: Self.mix(scan.sessions.map(\.schemaVersion))),
            Kind(
                name: "customisations", files: scan.customisations.count, bytes: scan.customisations.reduce(0) { $0 + $1.size },
                versions: Self.mix(scan.customisations.map(\.document.schemaVersion))),
        ]
        let single: [(String, Int?)] = [
            (StoreLayout.settings, scan.settings?.schemaVersion), (StoreLayout.queue, scan.queue?.schemaVersion),
            (StoreLayout.manifest, scan.manifest?.schemaVersion),
        ]
        for (name, version) in single {
            guard let version, let size = scan.size(of: name) else { continue }
            kinds.append(Kind(name: name, files: 1, bytes: size, versions: [version: 1]))
        }
        self.kinds = kinds
        var documents =
            scan.sessions.map { Document(file: StoreLayout.workStreamPath($0.id, schemaVersion: scan.schemaVersion), bytes: $0.fileSize) }
            + scan.customisations.map { Document(file: StoreLayout.customisationPath($0.document.id), bytes: $0.size) }
        for kind in kinds where kind.files == 1 && kind.name.hasSuffix(".json") { documents.append(Document(file: kind.name, bytes: kind.bytes)) }
        largest = Array(documents.sorted { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.file < $1.file }.prefix(Self.largestCount))
    }

    static func mix(_ versions: [Int]) -> [Int: Int] {
        versions.reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    var totalFiles: Int { kinds.reduce(0) { $0 + $1.files } }
    var totalBytes: Int { kinds.reduce(0) { $0 + $1.bytes } }
    var storedMessages: Int { scan.sessions.reduce(0) { $0 + $1.storedMessages } }
    var reportedMessages: Int { scan.sessions.reduce(0) { $0 + Int($1.messageCount) } }
    var deleted: Int { scan.customisations.filter { $0.document.isUserDeleted && scan.sessionFiles.contains($0.document.id) }.count }
    var locallyCreated: Int { scan.sessions.filter(\.isLocallyCreated).count }
    /// Work streams with unsent text (spec §11), and drafts of work streams the store lacks.
    var drafts: (streams: Int, orphans: Int) {
        let withDraft = scan.customisations.filter { $0.document.hasDraft }
        let streams = withDraft.filter { scan.sessionFiles.contains($0.document.id) }.count
        return (streams, withDraft.count - streams)
    }
    var unread: (streams: Int, messages: Int) {
        (scan.sessions.filter { $0.unreadCount > 0 }.count, scan.sessions.reduce(0) { $0 + Int($1.unreadCount) })
    }
    var providerSessionReplaced: Int { scan.sessions.filter { $0.effectiveProviderSessionID != $0.id.lowercased }.count }
    var providers: [String: Int] { scan.sessions.reduce(into: [:]) { $0[$1.effectiveProvider, default: 0] += 1 } }

    /// The queue as v2 code sees it: `queue.json`, or the session keys when the store has none.
    var queue: QueueV2 { scan.queue ?? QueueBuilder.build(from: scan.sessions.map(\.queueSummary)) }

    /// Problems and notes counted by code, most frequent first, then by code.
    var anomalies: [(code: String, count: Int, isNote: Bool)] {
        func count(_ list: [StoreProblem], note: Bool) -> [(String, Int, Bool)] {
            list.reduce(into: [String: Int]()) { $0[$1.code, default: 0] += 1 }
                .map { ($0.key, $0.value, note) }
                .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        }
        return count(scan.problems, note: false) + count(scan.notes, note: true)
    }
}
