import Foundation
import Schema
import Testing

@testable import JSONStore

/// An older writer (a v1 app, or a hand edit) that rewrites a work stream in place, `O_TRUNC` and
/// write or a same-size `pwrite`, changes no folder: the constant-time open trusts `.writes` and
/// skips the §7 reconcile. The library's next read-modify-write of that work stream (or of the
/// queue around it) must still let the older writer's queue keys win. Failed before the write
/// path checked the version of what it read: the work stream left the queue for good.
@Suite struct OlderWriterInPlaceTests {
    enum InPlace: String, CaseIterable { case truncateAndWrite, sameSizePwrite }

    /// A v1 sample migrated to v3 by the library and opened once for writing (so `.writes` is
    /// current); then a v1 writer puts `id` at the end of the FIFO queue, in place.
    static func storeWithOlderWriteInPlace(_ how: InPlace, in scratch: TemporaryDirectory) throws -> (String, UUID) {
        let store = try scratch.copy(Samples.v1Store, as: "store")
        _ = try StoreUpgrade.run(at: store, backup: .none, tool: "test", version: "1")
        _ = try Store.open(at: store)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: Samples.v1Store + "/sessions").sorted().first)
        let id = try #require(UUID(uuidString: String(name.dropLast(5))))
        let queue = try Store.open(at: store, options: .init(readOnly: true)).queue()
        #expect(!queue.fifo.contains { $0.workStreamID == id }, "the sample's first work stream starts out of the queue")
        let v1 = try String(contentsOfFile: Samples.v1Store + "/sessions/" + name, encoding: .utf8)
            .replacingOccurrences(of: "\"is_in_queue\": false", with: "\"is_in_queue\": true")
            .replacingOccurrences(of: "\"queue_position\": 0", with: "\"queue_position\": 99")
        var bytes = Array(v1.utf8)
        let path = store + "/sessions/" + name
        let fd = open(path, O_WRONLY | (how == .truncateAndWrite ? O_TRUNC : 0))
        try #require(fd >= 0)
        defer { close(fd) }
        if how == .sameSizePwrite {
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            try #require(bytes.count <= size, "the v1 document is shorter than the v3 one it replaces")
            bytes += Array(repeating: UInt8(ascii: " "), count: size - bytes.count)  // JSON allows trailing spaces
        }
        #expect(pwrite(fd, bytes, bytes.count, 0) == bytes.count)
        return (store, id)
    }

    @Test(arguments: InPlace.allCases)
    func anUpdateAfterAnOlderWritersInPlaceWriteKeepsItsQueueKeys(_ how: InPlace) throws {
        let scratch = TemporaryDirectory()
        let (store, id) = try Self.storeWithOlderWriteInPlace(how, in: scratch)
        let opened = try Store.open(at: store)
        let updated = try opened.updateWorkStream(id) { $0.fields.preview = "after the v1 write" }
        #expect(updated.fields.queueKeys.isInQueue)
        let queue = try Store.open(at: store, options: .init(readOnly: true)).queue()
        #expect(queue.fifo.last?.workStreamID == id, "the v1 writer's enqueue won (spec §7)")
        let onDisk = try String(contentsOfFile: store + "/sessions/" + id.lowercased + ".json", encoding: .utf8)
        #expect(onDisk.contains("\"is_in_queue\": true") && onDisk.contains("\"preview\": \"after the v1 write\""))
    }

    @Test(arguments: InPlace.allCases)
    func aQueueChangeAfterAnOlderWritersInPlaceWriteKeepsItsQueueKeys(_ how: InPlace) throws {
        let scratch = TemporaryDirectory()
        let (store, id) = try Self.storeWithOlderWriteInPlace(how, in: scratch)
        try Store.open(at: store).addToPriorityQueue(id, priority: 1, at: Date(timeIntervalSince1970: 1_800_000_000))
        let queue = try Store.open(at: store, options: .init(readOnly: true)).queue()
        #expect(queue.fifo.last?.workStreamID == id, "the v1 writer's enqueue won (spec §7)")
        #expect(queue.priority.contains { $0.workStreamID == id })
    }
}
