import Foundation
import JSONStore
import Schema
import StoreJSON

/// The human and `--json` output of `stats`.
extension StoreStats {
    var lines: [String] {
        var lines = [header, ""]
        var table = TextTable(["KIND", "FILES", "BYTES", "SCHEMA VERSIONS"], rightAligned: [1, 2])
        for kind in kinds {
            table.append([kind.name, TextFormat.count(kind.files), TextFormat.count(kind.bytes), Self.versionText(kind.versions)])
        }
        table.append(["total", TextFormat.count(totalFiles), TextFormat.count(totalBytes), ""])
        lines += table.render(indent: "  ") + [""]
        let unread = unread
        lines.append(
            "Messages: \(TextFormat.count(storedMessages)) kept in the files; the backend's message_count adds up to \(TextFormat.count(reportedMessages))")
        lines.append(
            "Work streams: \(TextFormat.count(deleted)) deleted by the user, \(TextFormat.count(locallyCreated)) locally created, "
                + "\(TextFormat.count(unread.streams)) with unread messages (\(TextFormat.count(unread.messages)) unread), "
                + "\(TextFormat.count(providerSessionReplaced)) with a provider session id other than their id, "
                + "\(TextFormat.count(drafts.streams)) with a draft"
                + (drafts.orphans > 0 ? " (and \(TextFormat.plural(drafts.orphans, "draft")) of work streams the store lacks)" : ""))
        lines.append(
            "Providers: "
                + (providers.isEmpty ? "none" : providers.sorted { $0.key < $1.key }.map { "\($0.key) \(TextFormat.count($0.value))" }.joined(separator: ", ")))
        let settings = scan.settings ?? .defaults
        lines.append(
            "Queues: FIFO \(TextFormat.plural(queue.fifo.count, "entry", "entries")), priority \(TextFormat.plural(queue.priority.count, "entry", "entries")) "
                + "(from \(scan.queue == nil ? "the session keys" : StoreLayout.queue)); queue_enabled \(settings.queueEnabled), priority_queue_enabled \(settings.priorityQueueEnabled)"
        )
        lines += ["", "Largest documents"]
        var largestTable = TextTable(["BYTES", "FILE"], rightAligned: [0])
        for document in largest { largestTable.append([TextFormat.count(document.bytes), document.file]) }
        lines += largestTable.render(indent: "  ") + [""]
        lines += anomalyLines
        return lines
    }

    private var header: String {
        let path = scan.store.path
        switch scan.manifest {
        case .v2(let manifest)?:
            return "Store '\(path)': schema_version \(manifest.schemaVersion), min_reader_version \(manifest.minReaderVersion), "
                + "created \(RFC3339.format(manifest.createdAt)), \(TextFormat.plural(manifest.migrations.count, "migration")) recorded"
        case .v1(let manifest)?:
            return "Store '\(path)': schema_version 1, created \(RFC3339.format(manifest.createdAt))"
        case nil:
            return "Store '\(path)': schema_version \(scan.schemaVersion) (store.json can't be read in full)"
        }
    }

    private var anomalyLines: [String] {
        guard !anomalies.isEmpty else { return ["Anomalies: none"] }
        let path = scan.store.path
        let problems = scan.problems.isEmpty ? "no problems" : TextFormat.plural(scan.problems.count, "problem")
        let lines = ["Anomalies: \(problems), \(TextFormat.plural(scan.notes.count, "note")); '\(ToolInfo.command("validate", path))' lists each"]
        var table = TextTable(["COUNT", "CODE"], rightAligned: [0])
        for anomaly in anomalies { table.append([TextFormat.count(anomaly.count), anomaly.code + (anomaly.isNote ? " (note)" : "")]) }
        return lines + table.render(indent: "  ")
    }

    /// `v1: 3, v2: 5`
    static func versionText(_ versions: [Int: Int]) -> String {
        versions.keys.sorted().map { "v\($0): \(TextFormat.count(versions[$0]!))" }.joined(separator: ", ")
    }

    var json: [String: JSONOutputValue] {
        let settings = scan.settings ?? .defaults
        let unread = unread
        return [
            "store": .string(scan.store.path),
            "store_schema_version": .int(scan.schemaVersion),
            "kinds": .array(
                kinds.map { kind in
                    [
                        "kind": .string(kind.name), "files": .int(kind.files), "bytes": .int(kind.bytes),
                        "schema_versions": .object(Dictionary(uniqueKeysWithValues: kind.versions.map { (String($0.key), .int($0.value)) })),
                    ]
                }),
            "total_files": .int(totalFiles),
            "total_bytes": .int(totalBytes),
            "largest_documents": .array(largest.map { ["file": .string($0.file), "bytes": .int($0.bytes)] }),
            "stored_messages": .int(storedMessages),
            "reported_messages": .int(reportedMessages),
            "work_streams": [
                "total": .int(scan.sessions.count), "deleted": .int(deleted), "locally_created": .int(locallyCreated),
                "with_unread": .int(unread.streams), "unread_messages": .int(unread.messages),
                "provider_session_differs": .int(providerSessionReplaced),
                "with_draft": .int(drafts.streams), "orphan_drafts": .int(drafts.orphans),
            ],
            "providers": .object(providers.mapValues { .int($0) }),
            "queues": [
                "source": .string(scan.queue == nil ? QueueTruth.sessionKeys.rawValue : StoreLayout.queue),
                "fifo": .int(queue.fifo.count), "priority": .int(queue.priority.count),
                "queue_enabled": .bool(settings.queueEnabled), "priority_queue_enabled": .bool(settings.priorityQueueEnabled),
            ],
            "unreadable_documents": .int(scan.unreadable),
            "anomalies": .array(anomalies.map { ["code": .string($0.code), "count": .int($0.count), "note": .bool($0.isNote)] }),
        ]
    }
}
