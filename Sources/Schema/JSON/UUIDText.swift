import Foundation

/// Parsing UUID text without Foundation's `UUID(uuidString:)`, which goes through `sscanf` and
/// was a fifth of all instructions when decoding a store (callgrind, `migrate-store plan`).
public enum UUIDText {
    /// The UUID spelled `8-4-4-4-12` hex digits, either case; nil for anything else (like
    /// `UUID(uuidString:)`, which accepts exactly this form).
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        parseHex(bytes)
    }

    /// The lowercase `8-4-4-4-12` spelling (Foundation's `uuidString` goes through `snprintf`).
    public static func lowercase(_ id: UUID) -> String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: id.uuid) { raw in
            String(unsafeUninitializedCapacity: 36) { out in
                var o = 0
                for (i, byte) in raw.enumerated() {
                    if i == 4 || i == 6 || i == 8 || i == 10 { out[o] = UInt8(ascii: "-"); o += 1 }
                    out[o] = digits.utf8Start[Int(byte >> 4)]
                    out[o + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    o += 2
                }
                return o
            }
        }
    }
}
