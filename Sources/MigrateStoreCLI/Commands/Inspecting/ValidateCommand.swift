import Foundation
import JSONStore
import Schema

/// `migrate-store validate <store>`
///
/// Runs every check of ``StoreValidator`` and prints each problem as
/// `<file>: <key path>: <what is wrong>. Fix: <suggestion>`, then the notes (worth knowing,
/// not wrong), then a summary line. Exit status 0 when there is no problem, 65 when there is
/// any; notes don't count.
struct ValidateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "validate", group: .inspecting,
        abstract: "Check every document and report every problem.",
        discussion: """
            Reads every document and reports every problem, not only the first, one per line: \
            '<file>: <key path>: <what is wrong>. Fix: <suggestion>'. Notes (an orphan \
            customisation, what migration will fix) follow and are not problems. Changes nothing. \
            Exits with status 0 when there is no problem, 65 when there is any, and 74 when the \
            operating system failed to read a file.
            """,
        arguments: [.store])

    let storePath: String

    init(_ arguments: ParsedArguments) { storePath = arguments.value(.store) }

    func run(_ out: Output) throws -> ExitCode {
        let inspected = try InspectedStore(path: storePath)
        // On a terminal, after a second: "Validating: 1200/10000 work streams".
        let progress = OperationProgress(out)
        let scan = try inspected.call { () throws(StoreError) in try StoreValidator(inspected.store) { progress.show($0) } }
        progress.finish()
        for problem in scan.problems { out.print(problem.printedLine) }
        if !scan.problems.isEmpty { out.print("") }
        for note in scan.notes { out.print("Note: " + note.printedLine) }
        if !scan.notes.isEmpty { out.print("") }
        out.print(Self.summary(scan))
        out.emitJSON([
            "store": .string(inspected.path),
            "store_schema_version": .int(inspected.schemaVersion),
            "valid": .bool(scan.problems.isEmpty),
            "checked": Self.checkedJSON(scan),
            "problems": .array(scan.problems.map(\.json)),
            "notes": .array(scan.notes.map(\.json)),
        ])
        return scan.problems.isEmpty ? .success : ProblemExit.code(scan.problems)
    }

    /// `'<store>' (schema v2): no problems in 8 work streams, 4 customisations and 3 other documents.`
    static func summary(_ scan: StoreValidator) -> String {
        let counts = Self.checkedCounts(scan)
        let what =
            "\(TextFormat.plural(counts.sessions, "work stream")), \(TextFormat.plural(counts.customisations, "customisation")) and \(TextFormat.plural(counts.other, "other document"))"
        let found = scan.problems.isEmpty ? "no problems" : TextFormat.plural(scan.problems.count, "problem")
        let notes = scan.notes.isEmpty ? "" : " (\(TextFormat.plural(scan.notes.count, "note")))"
        return "'\(scan.store.path)' (schema v\(scan.schemaVersion)): \(found)\(notes) in \(what)."
    }

    /// Files checked: every work-stream and customisation file with a valid name, and the top-level documents present.
    static func checkedCounts(_ scan: StoreValidator) -> (sessions: Int, customisations: Int, other: Int) {
        let other = scan.entries.filter { StoreValidator.documentFiles.contains($0.name) }.count
        return (scan.sessionFiles.count, scan.customisationFiles.count, other)
    }

    static func checkedJSON(_ scan: StoreValidator) -> JSONOutputValue {
        let counts = Self.checkedCounts(scan)
        return ["work_streams": .int(counts.sessions), "customizations": .int(counts.customisations), "other_documents": .int(counts.other)]
    }
}
