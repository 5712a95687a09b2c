import Foundation
import StoreGenerator

/// One bad input: a file of the store replaced by `bytes`.
struct BadInputCase: Sendable {
    /// Which kind of damage, for the counts and messages.
    var kind: String
    /// The file, relative to the store: `sessions/<id>.json`, `store.json`, ...
    var relative: String
    var bytes: [UInt8]
    /// The reader must report this file: the bytes are known not to be a valid document.
    var mustFail: Bool
    /// The bytes are known not to be JSON: the error must be a syntax error with a byte position.
    var mustBeSyntaxError: Bool
}

/// Builds the cases: the JSONTestSuite corpus as documents, truncation at every byte of one
/// document, and seeded random damage of the sample documents.
enum BadInputCases {
    /// The sample file truncated at every byte.
    static let truncated = "sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json"

    /// JSONTestSuite, found at `$JSON_TEST_SUITE_DIR` or at `shared/corpora/JSONTestSuite` beside
    /// the nearest ancestor folder of this file that has one; nil when absent.
    static let corpusDirectory: String? = {
        if let path = ProcessInfo.processInfo.environment["JSON_TEST_SUITE_DIR"] { return path }
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            let candidate = url.appendingPathComponent("shared/corpora/JSONTestSuite").path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            url = url.deletingLastPathComponent()
        }
        return nil
    }()

    /// Every corpus file as the work stream `sessions/<first id>.json`.
    static func corpus(target: String) -> [BadInputCase] {
        guard let root = corpusDirectory else { return [] }
        var out: [BadInputCase] = []
        for folder in ["test_parsing", "test_transform"] {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []).sorted()
            for name in names where name.hasSuffix(".json") {
                guard let data = FileManager.default.contents(atPath: root + "/" + folder + "/" + name) else { continue }
                // No corpus file is a work-stream document, so each must be reported.
                out.append(
                    BadInputCase(
                        kind: "JSONTestSuite", relative: target, bytes: Array(data), mustFail: true,
                        mustBeSyntaxError: folder == "test_parsing" && name.hasPrefix("n_")))
            }
        }
        return out
    }

    /// `original` cut after every byte (0 ..< count): none of these is a whole document.
    static func truncations(_ original: [UInt8], relative: String) -> [BadInputCase] {
        (0..<original.count).map { length in
            // Cutting only the final newline (or whitespace) leaves valid JSON.
            let prefix = Array(original[..<length])
            let onlyWhitespaceCut = original[length...].allSatisfy { $0 == 10 || $0 == 32 }
            return BadInputCase(
                kind: "truncation", relative: relative, bytes: prefix,
                mustFail: !onlyWhitespaceCut, mustBeSyntaxError: !onlyWhitespaceCut)
        }
    }

    /// `count` seeded mutations of the documents in `files` (relative path → bytes).
    static func random(_ count: Int, files: [String: [UInt8]], random: inout SeededGenerator) -> [BadInputCase] {
        let paths = files.keys.sorted()
        var out: [BadInputCase] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            let path = paths[Int(random.next() % UInt64(paths.count))]
            out.append(mutate(files[path]!, relative: path, random: &random))
        }
        return out
    }

    static func mutate(_ original: [UInt8], relative: String, random: inout SeededGenerator) -> BadInputCase {
        var bytes = original
        func position() -> Int { Int(random.next() % UInt64(max(1, bytes.count))) }
        switch random.next() % 11 {
        case 0, 1:  // flip 1–4 bytes
            for _ in 0...(random.next() % 4) { bytes[position()] ^= UInt8(1 + random.next() % 255) }
            return BadInputCase(kind: "byte flip", relative: relative, bytes: bytes, mustFail: false, mustBeSyntaxError: false)
        case 2:  // zero fill of 1–64 bytes
            let start = position(), end = min(bytes.count, start + 1 + Int(random.next() % 64))
            for index in start..<end { bytes[index] = 0 }
            return BadInputCase(kind: "zero fill", relative: relative, bytes: bytes, mustFail: true, mustBeSyntaxError: true)
        case 3:  // an invalid UTF-8 sequence inside a string value
            let sequences: [[UInt8]] = [[0xFF], [0xC3, 0x28], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF8, 0x88, 0x80, 0x80, 0x80], [0x80]]
            let sequence = sequences[Int(random.next() % UInt64(sequences.count))]
            let quote = stringStarts(bytes)
            let at = quote.isEmpty ? 0 : quote[Int(random.next() % UInt64(quote.count))]
            bytes.insert(contentsOf: sequence, at: at)
            return BadInputCase(kind: "invalid UTF-8", relative: relative, bytes: bytes, mustFail: true, mustBeSyntaxError: true)
        case 4:  // byte-order mark
            return BadInputCase(kind: "byte-order mark", relative: relative, bytes: [0xEF, 0xBB, 0xBF] + bytes, mustFail: true, mustBeSyntaxError: true)
        case 5:  // deep nesting as the value of a key
            let depth = [513, 5_000, 100_000][Int(random.next() % 3)]
            return BadInputCase(
                kind: "deep nesting", relative: relative,
                bytes: replacingFirstValue(bytes, with: Array(repeating: UInt8(ascii: "["), count: depth), random: &random),
                mustFail: true, mustBeSyntaxError: true)
        case 6:  // huge or odd numbers where a number or another value belongs
            let numbers = [
                "1e999999", "-1e999999", "123456789012345678901234567890", "-0", "1E400", "0.0000000000000000000000001", "9223372036854775808", "-2147483649",
                "NaN", "Infinity", "01", "1.", ".5",
            ]
            let number = numbers[Int(random.next() % UInt64(numbers.count))]
            let invalidJSON = ["NaN", "Infinity", "01", "1.", ".5"].contains(number)
            return BadInputCase(
                kind: "huge number", relative: relative, bytes: replacingFirstValue(bytes, with: Array(number.utf8), random: &random),
                mustFail: invalidJSON, mustBeSyntaxError: invalidJSON)
        case 7:  // a duplicate key in the top-level object
            let line = memberLines(bytes)
            guard let pick = line.isEmpty ? nil : line[Int(random.next() % UInt64(line.count))] else { fallthrough }
            var duplicated = Array(bytes[pick])
            if duplicated.last != UInt8(ascii: ",") { duplicated.append(UInt8(ascii: ",")) }
            bytes.insert(contentsOf: duplicated + [10], at: pick.lowerBound)
            return BadInputCase(kind: "duplicate key", relative: relative, bytes: bytes, mustFail: true, mustBeSyntaxError: true)
        case 8:  // a range replaced by random bytes
            let start = position(), end = min(bytes.count, start + 1 + Int(random.next() % 16))
            for index in start..<end { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
            return BadInputCase(kind: "random bytes", relative: relative, bytes: bytes, mustFail: false, mustBeSyntaxError: false)
        case 9:  // a member removed (a required key may go missing)
            let line = memberLines(bytes)
            guard let pick = line.isEmpty ? nil : line[Int(random.next() % UInt64(line.count))] else { fallthrough }
            bytes.removeSubrange(pick.lowerBound..<min(bytes.count, pick.upperBound + 1))
            return BadInputCase(kind: "member removed", relative: relative, bytes: bytes, mustFail: false, mustBeSyntaxError: false)
        default:  // truncated at a random byte
            let length = position()
            let whitespaceCut = bytes[length...].allSatisfy { $0 == 10 || $0 == 32 }
            return BadInputCase(
                kind: "truncation", relative: relative, bytes: Array(bytes[..<length]),
                mustFail: !whitespaceCut, mustBeSyntaxError: !whitespaceCut)
        }
    }

    /// Offsets just after an opening quote of a string value (`": "` then the quote).
    static func stringStarts(_ bytes: [UInt8]) -> [Int] {
        var out: [Int] = []
        var index = 0
        while index + 3 < bytes.count {
            if bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == 32 && bytes[index + 2] == UInt8(ascii: "\"") { out.append(index + 3) }
            index += 1
        }
        return out
    }

    /// The byte ranges of the lines `  "key": value` of the top-level object (two-space indent),
    /// without their newline.
    static func memberLines(_ bytes: [UInt8]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 10 {
            if index - start > 4, bytes[start] == 32, bytes[start + 1] == 32, bytes[start + 2] == 34,
                bytes[index - 1] != UInt8(ascii: "["), bytes[index - 1] != UInt8(ascii: "{")
            {
                out.append(start..<index)
            }
            start = index + 1
        }
        return out
    }

    /// `bytes` with the value of a random scalar top-level member replaced by `value`.
    static func replacingFirstValue(_ bytes: [UInt8], with value: [UInt8], random: inout SeededGenerator) -> [UInt8] {
        let lines = memberLines(bytes)
        guard !lines.isEmpty else { return value }
        let line = lines[Int(random.next() % UInt64(lines.count))]
        guard let colon = bytes[line].firstIndex(of: UInt8(ascii: ":")) else { return value }
        let hasComma = bytes[line.upperBound - 1] == UInt8(ascii: ",")
        var out = Array(bytes[..<(colon + 2)]) + value
        out += hasComma ? [UInt8(ascii: ",")] : []
        out += bytes[line.upperBound...]
        return out
    }
}
