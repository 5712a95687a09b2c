import Foundation

/// Parsing UUID text without Foundation's `UUID(uuidString:)`, which goes through `sscanf` and
/// would be a fifth of all instructions when decoding a store.
package enum UUIDText {
    /// The UUID spelled `8-4-4-4-12` hex digits, either case; nil for anything else (like
    /// `UUID(uuidString:)`, which accepts exactly this form).
    package static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// `parse(_:)` on the bytes of the text.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        parseHex(bytes)
    }

    /// The lowercase `8-4-4-4-12` spelling (Foundation's `uuidString` goes through `snprintf`).
    package static func lowercase(_ id: UUID) -> String {
        String(unsafeUninitializedCapacity: spelledCount) { out in
            write(id, to: out)
            return spelledCount
        }
    }
}
