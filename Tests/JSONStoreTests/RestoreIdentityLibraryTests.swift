import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// `backup.json`'s store identity and `Restore.run`'s check of it, in process.
@Suite struct RestoreIdentityLibraryTests {
    static let identity = StoreIdentity(createdAt: "2025-10-14T07:52:18.000Z", format: "work-stream-store")

    @Test func manifestIdentityRoundTripsAndAnOlderManifestHasNone() throws {
        let files: [BackupManifest.Entry] = [.init(path: "store.json", size: 4, sha256: String(repeating: "a", count: 64))]
        let manifest = BackupManifest(
            toolVersion: "0.1.0", storeSchemaVersion: 2, createdAt: Date(timeIntervalSince1970: 0),
            storeIdentity: Self.identity, files: files)
        let text = String(decoding: manifest.encoded, as: UTF8.self)
        #expect(text.contains("\"store_created_at\": \"2025-10-14T07:52:18.000Z\",\n  \"store_format\": \"work-stream-store\",\n"))
        #expect(try BackupManifest(bytes: manifest.encoded) == manifest)
        let older = BackupManifest(toolVersion: "0.1.0", storeSchemaVersion: 2, createdAt: Date(timeIntervalSince1970: 0), files: files)
        #expect(try BackupManifest(bytes: older.encoded).storeIdentity == nil)
        let half = Array(text.replacingOccurrences(of: "\"store_format\": \"work-stream-store\",", with: "").utf8)
        #expect { try BackupManifest(bytes: half) } throws: { ($0 as? ArchiveProblem)?.kind == .corrupt }
    }

    @Test func restoreOverAnotherStoreThrowsConflictAndWritesNothingUnlessAllowed() throws {
        let scratch = TemporaryDirectory()
        let store = scratch.path + "/store", other = scratch.path + "/other", backup = scratch.path + "/b"
        try Samples.copy("v2-store", to: store)
        try Samples.copy("v2-store", to: other)
        let manifest = other + "/store.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: Self.identity.createdAt, with: "2026-01-02T03:04:05.000Z")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let made = try Backup.create(store: store, destination: backup, tool: "t", version: "0")
        #expect(made.manifest.storeIdentity == Self.identity)

        let before = snapshot(scratch.path)
        #expect { try Restore.run(backup: backup, target: other, tool: "t", version: "0", options: .init(force: true)) } throws: {
            ($0 as? StoreError)?.code == .conflict && "\($0)".contains("created 2026-01-02T03:04:05.000Z")
        }
        let dry = try Restore.run(backup: backup, target: other, tool: "t", version: "0", options: .init(force: true, dryRun: true))
        #expect(dry.refusal?.code == .conflict)
        #expect(snapshot(scratch.path) == before)

        let report = try Restore.run(backup: backup, target: other, tool: "t", version: "0", options: .init(force: true, otherStore: true))
        #expect(
            report.identity
                == .otherStore(
                    backup: Self.identity,
                    target: StoreIdentity(createdAt: "2026-01-02T03:04:05.000Z", format: "work-stream-store")))
        let same = try Restore.run(backup: backup, target: store, tool: "t", version: "0", options: .init(force: true))
        #expect(same.identity == .sameStore)
        let fresh = try Restore.run(backup: backup, target: scratch.path + "/new", tool: "t", version: "0")
        #expect(fresh.identity == .noStoreAtTarget)
    }
}
