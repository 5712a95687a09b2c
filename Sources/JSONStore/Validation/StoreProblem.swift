import Foundation

/// One thing wrong in a store (or, as a note, worth knowing), in the shape `validate` prints:
///
///     sessions/4f1c….json: messages[2].timestamp: expected an RFC 3339 date, found '2025-13-01'. Fix: …
///
/// `code` is stable for scripts; `message` and `fix` are sentences for people and may be reworded.
/// A fix that is one of the store's operations stays a value (`recovery`): `fix` and `line` say it
/// in plain words, `lineText(commandLine:)` with a tool's command line.
public struct StoreProblem: Sendable, Hashable {
    /// The file, relative to the store (`sessions/<id>.json`, `queue.json`, `sessions`).
    public var file: String
    /// Where in the document (`messages[2].timestamp`); nil for the whole file.
    public var keyPath: String?
    /// A stable snake_case code: `invalid_json`, `id_mismatch`, …
    public var code: String
    /// What is wrong, without a final period.
    public var message: String
    /// What the user can do, ending with a period.
    public var recovery: StoreError.Recovery

    /// `recovery` in plain words; setting it makes `recovery` plain advice.
    public var fix: String {
        get { recovery.description }
        set { recovery = .advice(newValue) }
    }

    public init(file: String, keyPath: String? = nil, code: String, message: String, recovery: StoreError.Recovery) {
        self.file = file; self.keyPath = keyPath; self.code = code; self.message = message; self.recovery = recovery
    }

    public init(file: String, keyPath: String? = nil, code: String, message: String, fix: String) {
        self.init(file: file, keyPath: keyPath, code: code, message: message, recovery: .advice(fix))
    }

    /// `<file>: <key path>: <what is wrong>. Fix: <suggestion>`
    public var line: String { line(fix: fix) }

    /// `line` with `commandLine` for the operation the fix names, if any.
    public func lineText(commandLine: (StoreError.Operation) -> String) -> String {
        line(fix: recovery.text(commandLine: commandLine))
    }

    private func line(fix: String) -> String {
        let place = keyPath.map { "\(file): \($0)" } ?? file
        return "\(place): \(message). Fix: \(fix)"
    }

    /// Sorted by file, then key path, then code (byte order), so reports are stable.
    public static func sorted(_ problems: [StoreProblem]) -> [StoreProblem] {
        problems.sorted { a, b in
            let ka = [a.file, a.keyPath ?? "", a.code], kb = [b.file, b.keyPath ?? "", b.code]
            return ka.lexicographicallyPrecedes(kb) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }
}

extension StoreProblem {
    /// The problem a store error describes, with the file relative to `store`.
    public init(_ error: StoreError, in store: Store) {
        let file = StoreProblem.relative(error.path, to: store.path)
        if let schema = error.schemaError {
            self.init(schema, file: file)
            return
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        switch error.code {
        case .invalidFileName:
            let lower = name.lowercased()
            let rename = lower != name && DocumentName.isValid(lower) ? "rename it to '\(lower)'" : "rename it to '<lowercase uuid>.json'"
            self.init(
                file: file, code: "invalid_file_name",
                message: "not a valid document name: only a lowercase UUID followed by '.json' is allowed here, so readers ignore it",
                fix: "\(rename.prefix(1).uppercased())\(rename.dropFirst()), or move it out of the store.")
        case .symlinkRefused:
            self.init(
                file: file, code: "symbolic_link", message: "a symbolic link, not a document; the store never follows links",
                fix: "Replace it with the file it points to, or move it out of the store.")
        case .notARegularFile:
            self.init(
                file: file, code: "not_a_regular_file", message: "not a regular file (a folder, FIFO or device), so readers ignore it",
                fix: "Move it out of the store.")
        case .fileTooLarge:
            self.init(
                file: file, code: "file_too_large", message: "larger than any store document, so it is not read",
                fix: "Move it out of the store.")
        case .invalidDocument, .corruptDocument, .unsupportedVersion, .notAStore:
            // The store's own checks (an id that is not the file name): its sentence, with the path made relative.
            let message = error.message.replacingOccurrences(of: error.path ?? "\u{0}", with: file)
            self.init(
                file: file, code: "invalid_document", message: StoreProblem.sentence(message),
                recovery: .runCommand(
                    .validate(store: nil), advice: "Validate the store for the exact problem and its fix.",
                    before: "Run ", after: " on the store for the exact problem and its fix."))
        default:
            self.init(
                file: file, code: "unreadable_file", message: StoreProblem.sentence(error.description),
                fix: "Check the file's permissions and the disk, then run the command again.")
        }
    }

    /// The problem a schema error describes.
    public init(_ error: SchemaError, file: String) {
        if let syntax = error.syntax {
            self.init(
                file: file, code: "invalid_json",
                message: "not valid JSON: line \(syntax.line), column \(syntax.column) (byte \(syntax.offset)): \(syntax.reason)",
                fix: "Correct the JSON at that position by hand, or restore the file from a backup.")
            return
        }
        var parts: [String] = []
        if let expected = error.expected { parts.append("expected \(expected)") }
        if let found = error.found { parts.append("found \(found)") }
        if let detail = error.detail { parts.append(detail) }
        let message = StoreProblem.sentence(parts.joined(separator: ", "))
        let keyPath = error.keyPath.flatMap { $0.isEmpty ? nil : $0 }
        let recovery: StoreError.Recovery
        let code: String
        switch error.code {
        case .missingKey:
            code = "missing_key"; recovery = .advice("Add the key with a valid value, or restore the file from a backup.")
        case .wrongType:
            code = "wrong_type"; recovery = .advice("Put a value of the expected type there, or restore the file from a backup.")
        case .notAnObject:
            code = "not_an_object"; recovery = .advice("Restore the file from a backup: a document is one JSON object.")
        case .unsupportedVersion:
            // A document newer than this code needs a newer tool; one older than its folder
            // admits, the migration that finishes the store's change.
            code = "unsupported_version"
            recovery = .runCommand(
                .migrate(store: nil), advice: "Use a version of the tool that reads it, or migrate the store first.",
                before: "Use a version of the tool that reads it, or run ", after: " first.")
        case .notAStore:
            code = "not_a_store"; recovery = .advice("Point the tool at a work-stream store folder.")
        default:
            code = "invalid_value"; recovery = .advice("Put a valid value there, or restore the file from a backup.")
        }
        self.init(file: file, keyPath: keyPath, code: code, message: message.isEmpty ? "invalid" : message, recovery: recovery)
    }

    /// `path` relative to the store folder (`sessions/<id>.json`), `.` for the folder itself, or
    /// `path` itself when outside it.
    public static func relative(_ path: String?, to store: String) -> String {
        guard let path else { return "." }
        let base = store.hasSuffix("/") ? store : store + "/"
        if path.hasPrefix(base) { return String(path.dropFirst(base.count)) }
        return path == store ? "." : path
    }

    /// `text` without a final period, so that `line` can add its own.
    static func sentence(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}

/// The names the store reads under `sessions/` and `user-sessions/`: `<lowercase uuid>.json`.
enum DocumentName {
    static func isValid(_ name: String) -> Bool {
        guard name.hasSuffix(".json") else { return false }
        let id = String(name.dropLast(5))
        return id.count == 36 && id == id.lowercased() && UUID(uuidString: id) != nil
    }
}
