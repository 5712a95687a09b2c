import Foundation
import Schema
import TestSupport
import Testing

@testable import JSONStore

/// What `print(value)` shows for the public types a developer prints.
@Suite struct DescriptionTests {
    static let id = UUID(uuidString: "AD9A22B8-A0A3-4CF2-B7A4-205CD0BA062B")!

    @Test func storeChangesNameTheDocumentAndHowItChanged() {
        let change = StoreChange.documents([
            DocumentChange(.queue, .modified), DocumentChange(.workStream(Self.id), .created),
            DocumentChange(.customisation(Self.id), .deleted), DocumentChange(.manifest, .modified),
            DocumentChange(.settings, .created),
        ])
        #expect(
            "\(change)" == "modified queue.json, created work stream ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b, "
                + "deleted customisation ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b, modified store.json, created settings.json")
        #expect("\(StoreChange.documents([]))" == "no documents")
        #expect("\(StoreChange.reread)" == "re-read everything")
        #expect(String(describing: DocumentChange(.queue, .deleted)) == "deleted queue.json")
    }

    @Test func aBackupReportIsItsDestinationAndSizeNotItsManifest() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let report = try Backup.create(store: store, destination: scratch("b"), tool: "test", version: "1")
        let how = "\(report.copiedFiles) copied, \(report.clonedFiles) as clones, 0 linked"
        #expect("\(report)" == "backup '\(scratch("b"))' of schema version 2: 15 files, 20278 bytes (\(how))")
        #expect(report.copiedFiles == 15)
    }

    @Test func aListedBackupIsItsNameTimeAndSize() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let report = try Backup.create(store: store, destination: scratch("store.backup-20250101T000000Z"), tool: "test", version: "1")
        let listed = try #require(try Backup.list(besides: store).backups.first)
        #expect(
            "\(listed)" == "store.backup-20250101T000000Z: taken \(report.manifest.createdAt), schema version 2, 15 files, "
                + "\(listed.bytesOnDisk) bytes on disk")
    }

    @Test func aWorkStreamSummaryIsItsIDNameAndCounts() throws {
        let scratch = TemporaryDirectory()
        let store = try Store.open(at: try scratch.copySample("v2-store", as: "store"), options: .readOnly)
        let summary = try store.summary(Self.id)
        #expect(
            "\(summary)" == "work stream ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b 'Fix login crash on iPad' (schema version 2): "
                + "4 messages stored, 1 unread, modified 2025-11-03T09:04:47.868Z, 2804 bytes")
    }

    @Test func aMigrationReportIsItsTotals() {
        let report = MigrationReport(documents: [
            DocumentChanges(file: "store.json", changes: [.manifestUpgraded(from: 1, to: 2), .migrationRecorded]),
            DocumentChanges(file: "sessions/a.json", changes: [.schemaVersion(from: 1, to: 2), .addedKey("provider", value: "claude")]),
            DocumentChanges(file: "sessions/b.json", changes: [.keptProviderSessionID("x")]),
        ])
        #expect(
            "\(report)" == "2 files change: 1 added_key, 1 kept_provider_session_id, 1 manifest_upgraded, 1 migration_recorded, "
                + "1 schema_version")
        #expect("\(MigrationReport())" == "0 files change")
    }
}
