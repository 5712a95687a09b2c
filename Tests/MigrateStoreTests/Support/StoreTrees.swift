import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// Stores on disk for end-to-end tests: larger v1 stores made from the samples, and what readers see of them.
enum StoreTrees {
    /// A v1 store with `copies` × 8 work streams: the sample's sessions under new ids (every
    /// occurrence of the old id rewritten), so queue positions collide and need renumbering.
    static func largeV1Store(at target: String, copies: Int, seed: UInt64 = 7) throws {
        try Samples.copy("v1-store", to: target)
        let sessions = target + "/sessions"
        let originals = try FileManager.default.contentsOfDirectory(atPath: sessions).sorted()
        var generator = SeededGenerator(seed: seed)
        for copy in 0..<copies {
            for name in originals {
                let oldID = String(name.dropLast(5))
                let newID = UUID(uuid: generator.uuidBytes()).uuidString.lowercased()
                var text = try String(contentsOfFile: sessions + "/" + name, encoding: .utf8)
                text = text.replacingOccurrences(of: oldID, with: newID)
                text = text.replacingOccurrences(of: "\"queue_position\": 3", with: "\"queue_position\": \(copy % 5 + 1)")
                try text.write(toFile: sessions + "/" + newID + ".json", atomically: false, encoding: .utf8)
            }
        }
    }

    /// `Samples/v3-store` taken to the default version (v4) by the built tool, at `target`: what
    /// one plain `migrate` makes of any older sample. (`Samples/v4-store` is this plus the user's
    /// drafts and settings, written through the library.)
    static func migratedV3Sample(at target: String) throws -> String {
        try Samples.copy("v3-store", to: target)
        let run = try BuiltTool.run(["migrate", target, "--no-backup", "--quiet"])
        try #require(run.code == 0, "\(run)")
        return target
    }

    /// Document bytes by relative path, dot names skipped; `store.json` with its migration timestamps blanked.
    static func documents(_ root: String) throws -> [String: [UInt8]] {
        var files = tree(root).filter { $0.key.hasSuffix(".json") }
        if let manifest = files["store.json"] {
            let text = String(decoding: manifest, as: UTF8.self).split(separator: "\n")
                .filter { !$0.contains("\"started_at\"") && !$0.contains("\"finished_at\"") }.joined(separator: "\n")
            files["store.json"] = Array(text.utf8)
        }
        return files
    }

    /// What a v1 reader sees: every work stream decoded by the frozen v1 type, and the FIFO order it derives.
    static func v1View(_ root: String) throws -> (sessions: [UUID: WorkStreamFieldsV1], fifo: [UUID]) {
        var sessions: [UUID: WorkStreamFieldsV1] = [:]
        var summaries: [WorkStreamQueueSummary] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/sessions") where !name.hasPrefix(".") {
            let session = try WorkStreamV1(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: root + "/sessions/" + name))), acceptingNewerVersions: true)
            sessions[session.fields.id] = session.fields
            summaries.append(WorkStreamQueueSummary(id: session.fields.id, schemaVersion: 1, keys: session.fields.queueKeys))
        }
        return (sessions, QueueBuilder.build(from: summaries).fifo.map(\.workStreamID))
    }
}

/// Seeded (`StoreGenerator.SeededGenerator`, SplitMix64), so a failing run can be replayed.
extension SeededGenerator {
    mutating func uuidBytes() -> uuid_t {
        let a = next(), b = next()
        var bytes = withUnsafeBytes(of: a.littleEndian) { Array($0) } + withUnsafeBytes(of: b.littleEndian) { Array($0) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}
