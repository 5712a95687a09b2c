import Foundation
import StoreGenerator
// The support every test target shares (temp folders, samples, trees, the built tool), for every
// file of this target.
@_exported import TestSupport
import Testing

/// Replaces the file at `path` by a new file with `bytes` (a new inode: a backup's hard link to
/// the store is broken rather than the store changed along with it).
func replaceFile(_ path: String, with bytes: [UInt8]) throws {
    let temporary = path + ".replacing"
    try Data(bytes).write(to: URL(fileURLWithPath: temporary))
    #expect(rename(temporary, path) == 0)
}

extension SeededGenerator {
    /// A random lowercase UUID string.
    mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &self) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4), hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}

/// Makes a store with `count` sessions: the v2 sample plus copies of its sessions under new
/// random ids (every occurrence of the old id rewritten, so `id` matches the file name).
func makeLargeStore(at path: String, sessions count: Int, seed: UInt64) throws {
    try Samples.copy("v2-store", to: path)
    let folder = path + "/sessions"
    let originals = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
    var random = SeededGenerator(seed: seed)
    for index in 0..<count {
        let original = originals[index % originals.count]
        let oldID = String(original.dropLast(5))
        let newID = random.uuid()
        let text = try String(contentsOfFile: folder + "/" + original, encoding: .utf8)
        try text.replacingOccurrences(of: oldID, with: newID).write(toFile: folder + "/\(newID).json", atomically: false, encoding: .utf8)
    }
}
