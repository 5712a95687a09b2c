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
        guard bytes.count == 36 else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &raw) { out -> Bool in
            var index = 0
            var outIndex = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard bytes[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                    continue
                }
                guard let high = nibble(bytes[index]), let low = nibble(bytes[index + 1]) else { return false }
                out[outIndex] = high << 4 | low
                outIndex += 1
                index += 2
            }
            return true
        }
        return ok ? UUID(uuid: raw) : nil
    }

    /// The lowercase `8-4-4-4-12` spelling (Foundation's `uuidString` goes through `snprintf`).
    public static func lowercase(_ id: UUID) -> String {
        String(unsafeUninitializedCapacity: spelledCount) { out in
            write(id, to: out)
            return spelledCount
        }
    }

    @inline(__always)
    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
