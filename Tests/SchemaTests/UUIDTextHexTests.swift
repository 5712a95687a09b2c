import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// `UUIDText.parse` decodes eight hex digits per step; these tests put every byte value at
/// every position and compare with a byte-by-byte reading of the 8-4-4-4-12 form.
@Suite struct UUIDTextHexTests {
    static let sample = Array("4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69".utf8)

    /// The reference: the 16 bytes of an 8-4-4-4-12 hex UUID, or nil.
    static func reference(_ text: [UInt8]) -> [UInt8]? {
        guard text.count == 36 else { return nil }
        var digits: [UInt8] = []
        for (index, byte) in text.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let digit = UInt8(String(UnicodeScalar(byte)), radix: 16) else { return nil }
            digits.append(digit)
        }
        return stride(from: 0, to: 32, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    func parsed(_ text: [UInt8]) -> [UInt8]? {
        text.withUnsafeBufferPointer { UUIDText.parse($0) }.map { id in withUnsafeBytes(of: id.uuid) { Array($0) } }
    }

    @Test func everyByteAtEveryPositionIsAcceptedExactlyWhenItIsAllowedThere() {
        for position in 0..<36 {
            for value in 0...255 {
                var text = Self.sample
                text[position] = UInt8(value)
                #expect(parsed(text) == Self.reference(text), "byte 0x\(String(value, radix: 16)) at \(position)")
            }
        }
    }

    @Test func randomUUIDsInAnyCaseReadBackTheirBytes() {
        for round in 0..<2000 {
            let id = UUID()
            var text = Array(id.uuidString.utf8)
            if round % 2 == 0 { text = Array(id.uuidString.lowercased().utf8) }
            if round % 3 == 0 {
                text = text.enumerated().map { $0.offset % 2 == 0 ? Array(String(UnicodeScalar($0.element)).lowercased().utf8)[0] : $0.element }
            }
            #expect(parsed(text) == withUnsafeBytes(of: id.uuid) { Array($0) })
        }
    }

    @Test func wrongLengthsAreRejected() {
        #expect(parsed(Array(Self.sample.dropLast())) == nil)
        #expect(parsed(Self.sample + [UInt8(ascii: "0")]) == nil)
        #expect(parsed([]) == nil)
    }
}
