import Foundation
import JSONStore
import Schema
import StoreJSON

/// The human and `--json` output of `queue`.
extension QueueReport {
    var lines: [String] {
        var lines = fifoLines + [""] + priorityLines + [""]
        lines.append("Source: \(source.sentence)")
        lines.append("Mirror: \(mirrorSentence)")
        if let pendingLine { lines.append(pendingLine) }
        lines.append(
            "Locked: "
                + (locked.isEmpty
                    ? "none given (a lock is not knowable offline; --locked ID,... marks provider sessions as locked)"
                    : locked.joined(separator: ", ")))
        for id in unmatchedLocked { lines.append("Note: --locked '\(id)' is no work stream's provider session.") }
        return lines
    }

    private var fifoLines: [String] {
        let lines = [title("FIFO queue", fifo, enabledKey: "queue_enabled", enabled: settings.queueEnabled)]
        guard !fifo.isEmpty else { return lines }
        let short = ShortIDs(fifo.map(\.visibility.workStreamID))
        var table = TextTable(
            ["POS", "ID", "NAME", "QUEUED AT", "SHOWN"], rightAligned: [0],
            maximumWidths: [2: TerminalText.nameWidth])
        for row in fifo {
            table.append([
                String(row.visibility.position), short(row.visibility.workStreamID), row.displayName,
                row.fifo?.queuedAt.map(RFC3339.format) ?? "-", row.shown,
            ])
        }
        return lines + table.render(indent: "  ")
    }

    private var priorityLines: [String] {
        let lines = [title("Priority queue", priority, enabledKey: "priority_queue_enabled", enabled: settings.priorityQueueEnabled)]
        guard !priority.isEmpty else { return lines }
        let short = ShortIDs(priority.map(\.visibility.workStreamID))
        var table = TextTable(
            ["POS", "ID", "NAME", "PRIORITY", "ORDER", "QUEUED AT", "SHOWN"], rightAligned: [0, 3, 4],
            maximumWidths: [2: TerminalText.nameWidth])
        for row in priority {
            table.append([
                String(row.visibility.position), short(row.visibility.workStreamID), row.displayName,
                row.priority.map { String($0.priority) } ?? "-", row.priority.map { "\($0.priorityOrder)" } ?? "-",
                row.priority?.priorityQueuedAt.map(RFC3339.format) ?? "-", row.shown,
            ])
        }
        return lines + table.render(indent: "  ")
    }

    private func title(_ name: String, _ rows: [Row], enabledKey: String, enabled: Bool) -> String {
        guard !rows.isEmpty else { return "\(name): empty (\(enabledKey) \(enabled))" }
        let shown = rows.filter { $0.reasons.isEmpty }.count
        return "\(name): \(TextFormat.plural(rows.count, "entry", "entries")), \(TextFormat.count(shown)) shown by a client (\(enabledKey) \(enabled))"
    }

    private var mirrorSentence: String {
        switch mirror {
        case .notApplicable where hasNoMirror:
            "not applicable: a v\(StoreLayout.renamedFolderVersion) store keeps its queue in queue.json only (spec §12)"
        case .notApplicable: "not applicable: the store has no queue.json to compare with the session keys"
        case .agrees: "queue.json and the session keys v1 readers use agree"
        case .disagrees: "queue.json and the session keys disagree: \(mirrorDetail ?? "")"
        case .notChecked: "not compared: \(mirrorDetail ?? "")"
        }
    }

    /// `reconcile_pending` (why) appears only when a reconcile is pending, so the output of a
    /// store that needs none is what it always was.
    var json: [String: JSONOutputValue] {
        var json: [String: JSONOutputValue] = [
            "store": .string(inspected.path),
            "store_schema_version": .int(inspected.schemaVersion),
            "queue_source": .string(source.code),
            "queue_enabled": .bool(settings.queueEnabled),
            "priority_queue_enabled": .bool(settings.priorityQueueEnabled),
            "locked": .array(locked.map(JSONOutputValue.string)),
            "locked_unmatched": .array(unmatchedLocked.map(JSONOutputValue.string)),
            "fifo": .array(
                fifo.map { row in
                    row.commonJSON(["queued_at": row.fifo?.queuedAt.map { .string(RFC3339.format($0)) } ?? .null])
                }),
            "priority": .array(
                priority.map { row in
                    row.commonJSON([
                        "priority": row.priority.map { .int(Int($0.priority)) } ?? .null,
                        "priority_order": row.priority.map { .double($0.priorityOrder) } ?? .null,
                        "priority_queued_at": row.priority?.priorityQueuedAt.map { .string(RFC3339.format($0)) } ?? .null,
                    ])
                }),
            "mirror": ["status": .string(mirror.rawValue), "detail": mirrorDetail.map(JSONOutputValue.string) ?? .null],
            "problems": .array(problems.map(\.json)),
        ]
        if let pendingReconcile { json["reconcile_pending"] = .string(pendingReconcile) }
        return json
    }
}

extension QueueReport.Row {
    /// The display name, or why there is none.
    var displayName: String {
        name ?? (reasons.contains("unreadable") ? "(can't be read)" : "(no such work stream)")
    }

    /// `yes`, or `hidden: deleted, locked`.
    var shown: String { reasons.isEmpty ? "yes" : "hidden: " + reasons.joined(separator: ", ") }

    func commonJSON(_ extra: [String: JSONOutputValue]) -> JSONOutputValue {
        var object: [String: JSONOutputValue] = [
            "position": .int(visibility.position),
            "work_stream_id": .string(visibility.workStreamID.lowercased),
            "display_name": name.map(JSONOutputValue.string) ?? .null,
            "visible": .bool(reasons.isEmpty),
            "hidden_reasons": .array(reasons.map(JSONOutputValue.string)),
        ]
        object.merge(extra) { a, _ in a }
        return .object(object)
    }
}
