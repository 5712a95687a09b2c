import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// A backup taken while another writer changes the store continuously is one instant of it.
///
/// The writer is a thread of this test process using the store's own write path: it takes the
/// store's lock (`StoreLock`, flock(2) on `<store>/.lock`), stamps every session document and
/// `queue.json` with the same new `writer_generation` (an unknown key, kept by every reader),
/// writing them one by one with `AtomicFile` and a pause between files, then releases the lock.
/// The backups are taken by the built `migrate-store` binary in separate processes, so the only
/// thing keeping them consistent is the lock between two processes. (When this test was written
/// `store-test-helper` was not in the package yet; moving the writer there would make it a third
/// process, which changes nothing for flock, whose locks belong to open file descriptions.)
@Suite struct BackupConsistencyTests {
    @Test func backupTakenWhileAnotherProcessWritesIsOneInstantOfTheStore() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let writer = try GenerationWriter(store: store)
        let thread = Thread { writer.run() }
        thread.start()
        defer { writer.stop() }
        while writer.generation < 2 { usleep(1000) }

        for round in 0..<5 {
            let backup = scratch("backup-\(round)")
            let run = try BuiltTool.run(["backup", store, backup])
            #expect(run.code == 0, "\(run)")
            let generations = Set(writer.documents.map { generation(in: backup + "/" + $0) })
            #expect(generations.count == 1, "backup \(round) mixes generations \(generations.sorted())")
            #expect(try BuiltTool.run(["verify-backup", backup]).code == 0)
        }
        writer.stop()
        #expect(writer.generation > 5, "the writer made \(writer.generation) generations")
        #expect(writer.failure == nil, "\(writer.failure.map(String.init(describing:)) ?? "")")
    }

    private func generation(in path: String) -> Int {
        guard let bytes = FileManager.default.contents(atPath: path),
            case .object(let object)? = try? JSONParser.parse(Array(bytes)),
            case .number(let number)? = object["writer_generation"], let value = number.int64Value
        else { return -1 }
        return Int(value)
    }
}

/// Rewrites every session and the queue with a new generation number, under the store's lock.
final class GenerationWriter: @unchecked Sendable {
    let store: String
    /// The documents it stamps, relative to the store.
    let documents: [String]
    private let templates: [String: JSONObject]
    private let lock = NSLock()
    private var stopped = false
    private var count = 0
    private var error: (any Error)?

    init(store: String) throws {
        self.store = store
        let sessions = try FileManager.default.contentsOfDirectory(atPath: store + "/sessions").filter { $0.hasSuffix(".json") }
        documents = ["queue.json"] + sessions.sorted().map { "sessions/" + $0 }
        var templates: [String: JSONObject] = [:]
        for document in documents {
            guard case .object(let object) = try JSONParser.parse(Array(FileManager.default.contents(atPath: store + "/" + document)!))
            else { throw StoreError(.invalidDocument, "not an object") }
            templates[document] = object
        }
        self.templates = templates
    }

    var generation: Int { lock.lock(); defer { lock.unlock() }; return count }
    var failure: (any Error)? { lock.lock(); defer { lock.unlock() }; return error }
    func stop() { lock.lock(); stopped = true; lock.unlock() }
    private var isStopped: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    func run() {
        do {
            while !isStopped {
                try StoreLock.withExclusiveLock(store: store, tool: "generation-writer", version: "0") { _ in
                    let next = generation + 1
                    for document in documents {
                        var object = templates[document]!
                        object["writer_generation"] = .number(JSONNumber(next))
                        let parts = document.split(separator: "/").map(String.init)
                        let folder = parts.count == 2 ? store + "/" + parts[0] : store
                        try AtomicFile.durableReplace(directory: folder, name: parts.last!, bytes: JSONWriter.document(.object(object)))
                        usleep(500)  // widen the window in which an unlocked reader would see a mix
                    }
                    lock.lock(); count = next; lock.unlock()
                }
                usleep(30_000)  // let the backup's lock poll (every 20 ms) get in
            }
        } catch {
            lock.lock(); self.error = error; lock.unlock()
        }
    }
}
