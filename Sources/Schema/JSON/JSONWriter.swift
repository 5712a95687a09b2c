// PLACEHOLDER: replaced by the real writer on branch json-codec.
public enum JSONWriter {
    /// The canonical document bytes: pretty-printed with two-space indentation, `"key": value`,
    /// keys sorted by their UTF-8 bytes, empty containers as `[]` / `{}`, and a final `\n`.
    public static func document(_ value: JSONValue) -> [UInt8] {
        fatalError("placeholder")
    }
}
