import Foundation

// PLACEHOLDER: replaced by the real parser on branch json-codec.
public enum JSONParser {
    /// Nesting deeper than this is rejected with a positioned error instead of overflowing the stack.
    public static let defaultMaxDepth = 512

    /// Parses one JSON text (RFC 8259) that must be the whole input, apart from whitespace.
    /// Duplicate keys in an object are rejected. Strings must be valid UTF-8 and may not
    /// contain lone surrogate escapes. A leading byte-order mark is rejected.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONValue {
        fatalError("placeholder")
    }
}
