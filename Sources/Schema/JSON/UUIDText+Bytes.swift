import Foundation

// Spelling UUIDs straight into bytes, for the canonical writer (no `String` per id).

extension UUIDText {
    /// The length of a spelled UUID: 32 hex digits and 4 hyphens.
    static let spelledCount = 36

    /// Appends the lowercase `8-4-4-4-12` spelling of `id` (see ``lowercase(_:)``), without quotes.
    static func append(_ id: UUID, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: spelledCount) { buffer in
            write(id, to: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(buffer))
        }
    }

    /// Writes the lowercase spelling of `id` into the first ``spelledCount`` bytes of `out`.
    static func write(_ id: UUID, to out: UnsafeMutableBufferPointer<UInt8>) {
        precondition(out.count >= spelledCount, "UUIDText.write: the buffer holds \(out.count) bytes, not 36")
        let digits: StaticString = "0123456789abcdef"
        withUnsafeBytes(of: id.uuid) { raw in
            var o = 0
            for (i, byte) in raw.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 { out[o] = UInt8(ascii: "-"); o += 1 }
                out[o] = digits.utf8Start[Int(byte >> 4)]
                out[o + 1] = digits.utf8Start[Int(byte & 0x0F)]
                o += 2
            }
        }
    }
}
