import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// The fast SHA-256 (whole blocks hashed in place from the caller's bytes, partial blocks kept in
/// a 64-byte buffer) against fixed digests around the padding boundaries, against `sha256sum`
/// for every length 0…300, and against itself when the same bytes come in random pieces.
@Suite struct SHA256IncrementalTests {
    /// Bytes 0, 1, 2, … 250, 0, 1, …: a period that is not a multiple of the 64-byte block.
    static func pattern(_ length: Int) -> [UInt8] { (0..<length).map { UInt8($0 % 251) } }

    /// Digests by Python's `hashlib.sha256` of `pattern(length)`: where the length no longer
    /// fits the padding (55 → 56 bytes), at the block edge (63, 64, 65) and one and two blocks on.
    @Test(arguments: [
        (0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (1, "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"),
        (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
        (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
        (57, "2fe741af801cc238602ac0ec6a7b0c3a8a87c7fc7d7f02a3fe03d1c12eac4d8f"),
        (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
        (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
        (65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"),
        (111, "60780e9451bdc43cf4530ffc95cbb0c4eb24dae2c39f55f334d679e076c08065"),
        (112, "09373f127d34e61dbbaa8bc4499c87074f2ddb10e1b465f506d7d70a15011979"),
        (119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"),
        (120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"),
        (121, "335a461692b30bba1d647cc71604e88e676c90e4c22455d0b8c83f4bd7c8ac9b"),
        (127, "92ca0fa6651ee2f97b884b7246a562fa71250fedefe5ebf270d31c546bfea976"),
        (128, "471fb943aa23c511f6f72f8d1652d9c880cfa392ad80503120547703e56a2be5"),
        (129, "5099c6a56203f9687f7d33f4bfdf576d31dc91f6b695ecea38b2770c87631135"),
        (191, "d280f473c251cb75c91880ea0eca2a2f1cda3152bef54a38c4a3aedad615c819"),
        (192, "8b4a544837a1a0280fa8a7c82865c27a1064b3cc6281fda0753566b9bb104a87"),
        (193, "7daafa7aed7d63d06a98b7b6f785eab5427d084f30d5c9ee6dd0d2f3ada329e6"),
    ])
    func lengthsAroundThePaddingBoundariesHashToFixedDigests(length: Int, digest: String) {
        #expect(SHA256.hex(of: Self.pattern(length)) == digest)
        // The same bytes one at a time: every partial-block path of update and finalize.
        var hasher = SHA256()
        for byte in Self.pattern(length) { hasher.update([byte]) }
        #expect(hasher.finalize().hexString == digest)
    }

    @Test func oneMillionLetterAInUnevenPiecesHashesToThePublishedDigest() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        for piece in [7, 997, 4099] {
            var hasher = SHA256()
            for start in stride(from: 0, to: message.count, by: piece) {
                hasher.update(message[start..<min(start + piece, message.count)])
            }
            #expect(
                hasher.finalize().hexString == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
                "pieces of \(piece)")
        }
    }

    @Test func everyLengthUpTo300GivesTheOneCallDigestWhenFedInRandomPieces() {
        var generator = SeededGenerator(seed: 300)
        for length in 0...300 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = SHA256.hex(of: message)
            for _ in 0..<4 {
                var hasher = SHA256()
                var start = 0
                while start < length {
                    let end = min(length, start + Int.random(in: 0...130, using: &generator))
                    hasher.update(message[start..<end])  // empty pieces too
                    start = end
                }
                #expect(hasher.finalize().hexString == expected, "length \(length)")
            }
        }
    }

    @Test func everyLengthUpTo300MatchesSha256sum() throws {
        let tool = try #require(SHA256Tool.find(), "neither /usr/bin/sha256sum nor /usr/bin/shasum is installed")
        var generator = SeededGenerator(seed: 301)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sha-lengths-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var expected = ""
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: directory.appendingPathComponent("f\(length)"))
            expected += "\(SHA256.hex(of: bytes))  f\(length)\n"
        }
        #expect(try tool.run(names: (0...300).map { "f\($0)" }, in: directory) == expected)
    }

    @Test func blocksAreReadInPlaceFromAnyByteAlignment() {
        let message = Self.pattern(64 * 5 + 9)
        for offset in 0..<8 {
            let slice = message[offset...]  // whole blocks start at an odd address for odd offsets
            #expect(SHA256.hex(of: slice) == SHA256.hex(of: Array(slice)), "offset \(offset)")
        }
    }

    @Test func rawBytesAndNonContiguousCollectionsHashLikeArrays() {
        let message = Self.pattern(1000)
        let expected = SHA256.hex(of: message)
        var raw = SHA256()
        message.withUnsafeBytes { raw.update($0) }
        #expect(raw.finalize().hexString == expected)
        let lazy = (0..<1000).lazy.map { UInt8($0 % 251) }  // no contiguous storage: copied first
        #expect(SHA256.hex(of: lazy) == expected)
        #expect(SHA256.hex(of: Data(message)) == expected)
    }
}

/// The system's SHA-256 tool: `sha256sum` (GNU coreutils) or `shasum -a 256` (macOS, Perl);
/// both print `<64 hex>  <name>` per file.
struct SHA256Tool {
    let path: String
    let arguments: [String]

    static func find() -> SHA256Tool? {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum") { return SHA256Tool(path: "/usr/bin/sha256sum", arguments: []) }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/shasum") { return SHA256Tool(path: "/usr/bin/shasum", arguments: ["-a", "256"]) }
        return nil
    }

    /// The tool's output for `names`, run in `directory`.
    func run(names: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.currentDirectoryURL = directory
        process.arguments = arguments + names
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
