import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// SHA-256 against the FIPS 180-4 example vectors (NIST CSRC "Examples with Intermediate
/// Values", SHA-256) and against the system's `sha256sum`.
@Suite struct BackupSHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func standardVectorsHashToThePublishedDigests(message: String, digest: String) {
        #expect(SHA256.hex(of: Array(message.utf8)) == digest)
    }

    @Test func oneMillionLetterAHashesToThePublishedDigest() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(of: message) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func feedingInPiecesGivesTheSameDigestAsOneCall() {
        var generator = SeededGenerator(seed: 7)
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = SHA256.hex(of: message)
            for chunk in [1, 3, 63, 64, 65] {
                var hasher = SHA256()
                for start in stride(from: 0, to: message.count, by: chunk) {
                    hasher.update(message[start..<min(start + chunk, message.count)])
                }
                #expect(hasher.finalize().hexString == expected, "length \(length), chunk \(chunk)")
            }
        }
    }

    @Test func digestsEqualSha256sumOutputForRandomFiles() throws {
        let tool = "/usr/bin/sha256sum"
        guard FileManager.default.isExecutableFile(atPath: tool) else { return }  // not on macOS by default
        var generator = SeededGenerator(seed: 42)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var expected = ""
        for (index, length) in [0, 1, 63, 64, 65, 4095, 100_003].enumerated() {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let name = "f\(index)"
            try Data(bytes).write(to: directory.appendingPathComponent(name))
            expected += "\(SHA256.hex(of: bytes))  \(name)\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.currentDirectoryURL = directory
        process.arguments = (0..<7).map { "f\($0)" }
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: output, as: UTF8.self) == expected)
    }
}
