import Foundation
import JSONStore
import Schema

/// Finds the work stream a user means by an id or a unique prefix of one (`show`).
///
/// - A whole UUID, in any case, names that work stream.
/// - Otherwise at least ``minimumDigits`` hexadecimal digits (dashes allowed) are needed, and
///   the prefix must match exactly one work-stream file.
///
/// Errors: a malformed or ambiguous prefix is a usage error (exit 64), listing the candidates;
/// no match is a data error (exit 65): the command line is fine, the store lacks the stream.
enum IDPrefix {
    static let minimumDigits = 4

    static func resolve(_ text: String, in inspected: InspectedStore, command: String) throws -> UUID {
        let store = inspected.store
        let wanted = text.lowercased()
        if let id = UUID(uuidString: wanted) { return id }
        let digits = wanted.filter { $0 != "-" }
        guard digits.count >= minimumDigits, wanted.allSatisfy({ $0 == "-" || $0.isHexDigit }) else {
            throw UsageError("'\(text)' is not a work stream id or a prefix of one: give at least \(minimumDigits) hexadecimal digits.", command: command)
        }
        let ids = try inspected.call { () throws(StoreError) in try store.workStreamIDs() }.items
        let matches = ids.filter { $0.lowercased.hasPrefix(wanted) }.sorted { $0.lowercased < $1.lowercased }
        switch matches.count {
        case 1:
            return matches[0]
        case 0:
            throw CommandError(
                .dataError,
                "No work stream of '\(store.path)' has an id starting with '\(text)'. Run '\(ToolInfo.command("ls", store.path, "--deleted"))' to see every id."
            )
        default:
            let shown = matches.prefix(10).map { "  \($0.lowercased)  \(name(of: $0, in: store))" }.joined(separator: "\n")
            let more = matches.count > 10 ? "\n  … and \(matches.count - 10) more" : ""
            throw UsageError("'\(text)' matches \(matches.count) work streams; give more of the id:\n\(shown)\(more)", command: command)
        }
    }

    /// The display name (escaped: it goes into an error message), or a note when the document can't be read.
    private static func name(of id: UUID, in store: Store) -> String {
        guard let summary = try? store.summary(id) else { return "(can't be read)" }
        let customisation = (try? store.customisation(id)) ?? nil
        return TerminalText.escaped(WorkStreamRules.displayName(backendName: summary.backendName, customisation: customisation))
    }
}
