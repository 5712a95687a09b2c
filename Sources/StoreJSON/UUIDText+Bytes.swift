import Foundation

// Spelling UUIDs straight into bytes, for the canonical writer (no `String` per id).

extension UUIDText {
    /// The length of a spelled UUID: 32 hex digits and 4 hyphens.
    static let spelledCount = 36

    /// Writes the lowercase `8-4-4-4-12` spelling of `id` into the first ``spelledCount`` bytes of `out`.
    static func write(_ id: UUID, to out: UnsafeMutableBufferPointer<UInt8>) {
        precondition(out.count >= spelledCount, "UUIDText.write: the buffer holds \(out.count) bytes, not 36")
        withUnsafeBytes(of: id.uuid) { raw in
            /// Writes bytes `from..<to` of the UUID as hex digit pairs, starting at `out[at]`.
            func hex(_ from: Int, _ to: Int, at position: Int) {
                var o = position
                for i in from..<to {
                    out[o] = hexDigits.utf8Start[Int(raw[i] >> 4)]
                    out[o + 1] = hexDigits.utf8Start[Int(raw[i] & 0x0F)]
                    o += 2
                }
            }
            hex(0, 4, at: 0)
            out[8] = UInt8(ascii: "-")
            hex(4, 6, at: 9)
            out[13] = UInt8(ascii: "-")
            hex(6, 8, at: 14)
            out[18] = UInt8(ascii: "-")
            hex(8, 10, at: 19)
            out[23] = UInt8(ascii: "-")
            hex(10, 16, at: 24)
        }
    }

    private static let hexDigits: StaticString = "0123456789abcdef"
}
