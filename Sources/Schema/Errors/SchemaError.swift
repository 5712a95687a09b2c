/// Why a document could not be read: the one error type of the Schema library.
///
/// Carries which file (when the caller knows it), which key path inside the document,
/// what was expected and what was found, or the position of a JSON syntax error.
///
///     'sessions/4f1c….json': messages[2].timestamp: expected an RFC 3339 date, found '2025-13-01'.
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of problem. A struct over a private enum, so that codes can be added later.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case syntax, notAnObject, missingKey, wrongType, invalidValue, unsupportedVersion, notAStore
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The bytes are not valid JSON (see `syntax` for the position).
        public static let syntax = Code(.syntax)
        /// The JSON text is valid but the document is not an object.
        public static let notAnObject = Code(.notAnObject)
        /// A required key is absent.
        public static let missingKey = Code(.missingKey)
        /// A key holds a value of the wrong JSON type.
        public static let wrongType = Code(.wrongType)
        /// A key holds a value of the right type but outside what the schema allows.
        public static let invalidValue = Code(.invalidValue)
        /// The document's `schema_version` is one this code does not read.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// `store.json` does not describe a work-stream store.
        public static let notAStore = Code(.notAStore)

        public var description: String { value.rawValue }
    }

    public var code: Code
    /// The file, relative to the store when known (`sessions/<id>.json`); nil until the caller sets it.
    public var file: String?
    /// Where in the document: `messages[2].timestamp`; nil for whole-document problems.
    public var keyPath: String?
    /// What the schema wants there ("an integer from 0 to 2147483647").
    public var expected: String?
    /// What the document holds there (a brief rendering of the value).
    public var found: String?
    /// For `.syntax`: the position and reason.
    public var syntax: JSONSyntaxError?
    /// For other codes: a sentence when expected/found do not say it all.
    public var detail: String?

    package init(
        code: Code, file: String? = nil, keyPath: String? = nil, expected: String? = nil,
        found: String? = nil, syntax: JSONSyntaxError? = nil, detail: String? = nil
    ) {
        self.code = code; self.file = file; self.keyPath = keyPath; self.expected = expected
        self.found = found; self.syntax = syntax; self.detail = detail
    }

    /// The same error with the file name set (used by the layer that knows which file it read).
    package func inFile(_ file: String) -> SchemaError {
        var copy = self
        copy.file = file
        return copy
    }

    /// The problem without the file name: "messages[2].timestamp: expected …, found …".
    public var reason: String {
        if let syntax { return syntax.description }
        var parts: [String] = []
        if let expected { parts.append("expected \(expected)") }
        if let found { parts.append("found \(found)") }
        if let detail { parts.append(detail) }
        let body = parts.joined(separator: ", ")
        guard let keyPath, !keyPath.isEmpty else { return body }
        return "\(keyPath): \(body)"
    }

    /// One sentence naming the file, the place and the problem.
    public var description: String {
        guard let file else { return reason + "." }
        return "'\(file)': \(reason)."
    }
}
