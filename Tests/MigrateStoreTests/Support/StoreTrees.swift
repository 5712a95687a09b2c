import Foundation
import Testing
@testable import JSONStore
import StoreGenerator

/// Stores on disk for end-to-end tests: copies of the samples, larger v1 stores made from them,
/// and snapshots of whole trees (bytes and modification times).
enum StoreTrees {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples").path

    /// A new empty temporary folder.
    static func temporary(_ label: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-store-\(label)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func copySample(_ name: String, to target: String) throws {
        try FileManager.default.copyItem(atPath: samples + "/" + name, toPath: target)
    }

    /// A v1 store with `copies` × 8 work streams: the sample's sessions under new ids (every
    /// occurrence of the old id rewritten), so queue positions collide and need renumbering.
    static func largeV1Store(at target: String, copies: Int, seed: UInt64 = 7) throws {
        try copySample("v1-store", to: target)
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

    /// Relative path → (bytes, modification time) of every entry, dot names included.
    static func snapshot(_ root: String) throws -> [String: ([UInt8], Date)] {
        var result: [String: ([UInt8], Date)] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: root) {
            let full = root + "/" + relative
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            let isFile = (attributes[.type] as? FileAttributeType) == .typeRegular
            result[relative] = (isFile ? Array(try Data(contentsOf: URL(fileURLWithPath: full))) : [], attributes[.modificationDate] as! Date)
        }
        return result
    }

    static func same(_ a: [String: ([UInt8], Date)], _ b: [String: ([UInt8], Date)]) -> Bool {
        a.count == b.count && a.allSatisfy { key, value in b[key].map { $0.0 == value.0 && $0.1 == value.1 } ?? false }
    }

    /// Document bytes by relative path, dot names skipped; `store.json` with its migration timestamps blanked.
    static func documents(_ root: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: root) where !relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            guard relative.hasSuffix(".json") else { continue }
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
            if relative == "store.json" {
                let text = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
                    .filter { !$0.contains("\"started_at\"") && !$0.contains("\"finished_at\"") }.joined(separator: "\n")
                bytes = Array(text.utf8)
            }
            files[relative] = bytes
        }
        return files
    }

    /// What a v1 reader sees: every work stream decoded by the frozen v1 type, and the FIFO order it derives.
    static func v1View(_ root: String) throws -> (sessions: [UUID: SessionFieldsV1], fifo: [UUID]) {
        var sessions: [UUID: SessionFieldsV1] = [:]
        var summaries: [SessionQueueSummary] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root + "/sessions") where !name.hasPrefix(".") {
            let session = try SessionV1(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: root + "/sessions/" + name))), acceptingNewerVersions: true)
            sessions[session.fields.id] = session.fields
            summaries.append(SessionQueueSummary(id: session.fields.id, schemaVersion: 1, keys: session.fields.queueKeys))
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
        return (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])
    }
}
