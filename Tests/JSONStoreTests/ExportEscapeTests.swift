import Foundation
import StoreGenerator
import TestSupport
import Testing

@testable import JSONStore

/// The export's one-pass line builder (`ExportFormat.line`, issue 19) against the code it
/// replaced: `appendString` over `String(decoding:)` after `isValidUTF8`. Same bytes for every
/// valid input, nil for exactly the inputs that are not UTF-8.
@Suite struct ExportEscapeTests {
    /// The line as the code before issue 19 built it.
    private func reference(_ content: [UInt8]) -> [UInt8]? {
        guard ExportFormat.isValidUTF8(content) else { return nil }
        return ExportFormat.encode([("content", .string(String(decoding: content, as: UTF8.self))), ("mode", .string("0644"))])
    }

    private func line(_ content: [UInt8]) -> [UInt8]? {
        ExportFormat.line(content: content, suffix: Array(#","mode":"0644"}"#.utf8))
    }

    /// Characters that exercise every branch: each escape, DEL, two-, three- and four-byte scalars.
    static let alphabet: [String] = [
        "a", "Z", " ", "\"", "\\", "\n", "\r", "\t", "\u{8}", "\u{c}", "\u{0}", "\u{1}", "\u{1f}",
        "\u{7f}", "é", "ß", "—", "€", "\u{fffd}", "😀", "𝄞", "/", "{", "}",
    ]

    @Test func randomTextGivesTheBytesOfTheOldEncoder() {
        var generator = SeededGenerator(seed: 19)
        for _ in 0..<3000 {
            let length = Int.random(in: 0...60, using: &generator)
            let text = (0..<length).map { _ in Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &generator)] }.joined()
            let content = Array(text.utf8)
            #expect(line(content) == reference(content), "\(content)")
        }
    }

    @Test func randomBytesAreRefusedExactlyWhenTheyAreNotUTF8() {
        var generator = SeededGenerator(seed: 1919)
        for _ in 0..<20000 {
            let length = Int.random(in: 0...24, using: &generator)
            // Mostly high bytes, so that many sequences are near-valid.
            let content = (0..<length).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x80...0xFF, using: &generator) : UInt8.random(in: 0...0x7F, using: &generator)
            }
            #expect(line(content) == reference(content), "\(content)")
        }
    }

    @Test(
        arguments: [
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        ] as [[UInt8]])
    func malformedSequencesAreRefusedWhereverTheyStand(sequence: [UInt8]) {
        for prefix in 0...9 {
            let content = Array(repeating: UInt8(ascii: "x"), count: prefix) + sequence + Array("tail".utf8)
            #expect(line(content) == nil, "\(content)")
            #expect(line(Array(repeating: UInt8(ascii: "x"), count: prefix) + sequence) == nil)
        }
    }

    @Test func aByteThatNeedsALookIsFoundAtEveryPositionOfAWord() {
        for special: UInt8 in [0x00, 0x0A, 0x1F, 0x22, 0x5C, 0x80, 0xC3, 0xFF] {
            for position in 0..<8 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 8)
                bytes[position] = special
                // Bytes after it that could be flagged by a borrow must not hide it.
                if position < 7 { bytes[position + 1] = 0x01 }
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                #expect(ExportFormat.cleanPrefix(word) == position, "byte \(special) at \(position)")
            }
        }
        let clean = Array("abc xyz~".utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        #expect(ExportFormat.cleanPrefix(clean) == 8)
    }

    @Test func aGeneratedWorkStreamGivesTheBytesOfTheOldEncoder() throws {
        let store = TemporaryDirectory()
        _ = try StoreGenerator(seed: 7, workStreams: 3, messagesPerStream: 20).write(to: store.path)
        for name in try FileManager.default.contentsOfDirectory(atPath: store.path + "/sessions") {
            let content = Array(try Data(contentsOf: URL(fileURLWithPath: store.path + "/sessions/" + name)))
            #expect(line(content) == reference(content))
        }
    }
}
