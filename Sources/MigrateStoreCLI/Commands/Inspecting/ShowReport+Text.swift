import Foundation
import JSONStore
import Schema
import StoreJSON

/// The human output of `show`.
extension ShowReport {
    var lines: [String] {
        var lines = ["Work stream \(id.lowercased)", "  file  \(path) (\(TextFormat.count(fileSize)) bytes, schema_version \(document.schemaVersion))", ""]
        lines += section("Derived (spec §4)", derivedRows)
        lines += section("Document keys (messages below)", keyRows)
        lines += customisationLines
        lines += messageLines
        return lines
    }

    private func section(_ title: String, _ rows: [(String, String)]) -> [String] {
        var table = TextTable(["", ""])
        for row in rows { table.append([row.0, row.1]) }
        return [title] + table.render(indent: "  ").dropFirst() + [""]
    }

    private var derivedRows: [(String, String)] {
        let validName = WorkStreamRules.isValidDisplayName(fields.backendName)
        let nameNote =
            validName
            ? "a valid display name"
            : fields.backendName.isEmpty ? "not a valid display name: empty" : "not a valid display name: it is a UUID"
        var rows: [(String, String)] = [
            ("display name", "\(displayName) (from \(displayNameSource.rawValue))"),
            (document.hasQueueMirror ? "backend_name" : "name", "\(TextFormat.quoted(fields.backendName)): \(nameNote)"),
            ("provider", provider + (hasKey("provider") ? "" : " (default: the document has no provider)")),
            ("provider session", providerSessionID + providerSessionNote),
            ("hidden", isUserDeleted ? "yes: deleted by the user" : "no"),
            ("draft", draftNote),
            ("FIFO queue", fifoPosition.map { "position \($0)" } ?? "not queued"),
        ]
        if let place = priorityPlace {
            rows.append(
                ("priority queue", "priority \(place.entry.priority), order \(place.entry.priorityOrder), place \(place.position) of \(queue.priority.count)"))
        } else {
            rows.append(("priority queue", "not queued"))
        }
        rows.append(("queue from", queueSource.sentence))
        if let pendingReconcile {
            rows.append(("reconcile", "pending: \(pendingReconcile); shown is the queue the next writer establishes"))
        }
        return rows
    }

    /// Whether the user left unsent text, and how long it is (its text is in the customisation below).
    private var draftNote: String {
        guard let draft = customisation?.draft, !draft.isEmpty else { return "none" }
        return "yes: \(TextFormat.plural(draft.count, "character")) not sent"
    }

    private var providerSessionNote: String {
        if !hasKey("provider_session_id") { return " (= id: the document has no provider_session_id)" }
        return providerSessionID == id.lowercased ? " (= id)" : " (differs from the id: the provider session was replaced)"
    }

    /// Every top-level key but `messages`, sorted, values as compact JSON.
    private var keyRows: [(String, String)] {
        guard case .object(let object) = document.json else { return [] }
        return object.keys.filter { $0 != "messages" }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
            var value = CompactJSON.render(object[key]!)
            if key == "preview", !full, value.count > Self.cutLength + 2 {
                value = String(value.prefix(Self.cutLength)) + "… " + cutMarker(value.count - Self.cutLength)
            }
            return (key, value)
        }
    }

    private var customisationLines: [String] {
        guard let customisation else {
            let note = problems.isEmpty ? "none (\(StoreLayout.customisationPath(id)) does not exist)" : "can't be read (see the warning below)"
            return ["Customisation: \(note)", ""]
        }
        return section(
            "Customisation (\(StoreLayout.customisationPath(id)))",
            [
                ("custom_name", customisation.customName.map(TextFormat.quoted) ?? "null"),
                ("is_user_deleted", String(customisation.isUserDeleted)),
                ("created_at", RFC3339.format(customisation.createdAt)),
            ] + (customisation.schemaVersion >= CustomisationV4.version ? [("draft", customisation.draft.map(TextFormat.quoted) ?? "null")] : []) + [
                ("schema_version", String(customisation.schemaVersion))
            ] + customisation.unknown.keys.sorted().map { ($0, CompactJSON.render(customisation.unknown[$0]!)) })
    }

    private var messageLines: [String] {
        let title =
            "Messages: \(shownMessages.isEmpty ? "none shown" : "last \(shownMessages.count)") of \(document.storedMessageCount) kept in the file; message_count says \(fields.messageCount)"
        var lines = [title]
        for (index, message) in shownMessageList {
            lines += messageLines(message, number: index + 1)
        }
        return lines
    }

    private func messageLines(_ m: any WorkStreamMessage, number: Int) -> [String] {
        var header = "  #\(number)  \(RFC3339.format(m.timestamp))  \(m.role)  \(m.status)"
        header += m.serverTimestamp.map { "  server \(RFC3339.format($0))" } ?? "  not on the server yet"
        var lines = [header]
        if m.sessionID != id {
            lines.append("      session_id \(m.sessionID.lowercased): not this work stream (migration sets it to this id)")
        }
        let extra = m.unknown.keys.sorted().map { "\($0): \(CompactJSON.render(m.unknown[$0]!))" }
        if !extra.isEmpty { lines.append("      other keys: " + extra.joined(separator: ", ")) }
        let (text, cut) = shownText(m.text)
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "      " + $0 }
        if cut > 0 { lines.append("      " + cutMarker(cut)) }
        return lines
    }

    /// `… [cut 2,841 more characters; --full shows all]`
    func cutMarker(_ count: Int) -> String {
        "… [cut \(TextFormat.count(count)) more character\(count == 1 ? "" : "s"); --full shows all]"
    }
}

/// One-line JSON for values shown in a table: strings quoted and escaped, numbers as written.
enum CompactJSON {
    static func render(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return number.literal
        case .string(let string):
            var text = ""
            JSONOutputRenderer.writeString(string, into: &text)
            return text
        case .array(let items): return "[" + items.map(render).joined(separator: ", ") + "]"
        case .object(let members):
            let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return "{" + keys.map { "\(render(.string($0))): \(render(members[$0]!))" }.joined(separator: ", ") + "}"
        }
    }
}
