// API of the JSON reader and writer. Implementation: JSONParser.swift, JSONWriter.swift.

/// A JSON syntax error with its position in the input.
// Public: the type of the public `SchemaError.syntax`, the position of a document's syntax error.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset from the start of the input (0-based) where the problem was found.
    public var offset: Int
    /// 1-based line and column (column counted in bytes) of `offset`.
    public var line: Int
    public var column: Int
    /// What is wrong, as a sentence fragment: "expected ',' or '}' after object member, found 'x'".
    public var reason: String

    package init(offset: Int, line: Int, column: Int, reason: String) {
        self.offset = offset; self.line = line; self.column = column; self.reason = reason
    }

    public var description: String { "JSON syntax error at line \(line), column \(column) (byte \(offset)): \(reason)" }
}
