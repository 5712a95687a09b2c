import JSONStore

/// Human and JSON renderings of a migration report, shared by `plan` and `migrate`.
enum ReportRendering {
    static func human(_ report: MigrationReport) -> String {
        var lines: [String] = []
        for document in report.documents {
            lines.append(document.file)
            for change in document.changes { lines.append("  " + change.description) }
        }
        return lines.joined(separator: "\n")
    }

    /// "15 files change: 8 schema_version, 16 added_key, …" with the codes in a stable order.
    static func totals(_ report: MigrationReport) -> String { report.description }

    /// `totals`, `files_changed`, `noop`, and `documents` when the report kept them and
    /// `documents` is true (`plan`; `migrate` never prints them, as the README says: its report
    /// keeps totals only, so that its memory does not grow with the store, and a no-op `migrate`
    /// renders the plan it made without its empty `documents`).
    static func json(_ report: MigrationReport, documents: Bool = true) -> [String: JSONOutputValue] {
        var fields: [String: JSONOutputValue] = [
            "totals": .object(report.totals.mapValues { .int($0) }),
            "files_changed": .int(report.filesChanged),
            "noop": .bool(report.isNoop),
        ]
        if documents && report.keepsDocuments {
            fields["documents"] = .array(
                report.documents.map { document in
                    .object([
                        "file": .string(document.file),
                        "changes": .array(document.changes.map { .object(["code": .string($0.code), "description": .string($0.description)]) }),
                    ])
                })
        }
        return fields
    }

    static func errorsJSON(_ errors: [StoreError]) -> JSONOutputValue {
        .array(
            errors.map {
                .object(["path": $0.path.map(JSONOutputValue.string) ?? .null, "code": .string($0.code.description), "message": .string($0.printedMessage)])
            })
    }
}
