import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// `Backup.create`'s check that the backup equals the store as captured: every file is read back
/// from the backup once and hashed once; a copy is compared byte for byte with its source; and a
/// staged file changed before the rename is caught, leaving nothing at the destination.
@Suite struct BackupReadBackTests {
    /// A copy of `Samples/v2-store` (15 files) in a scratch folder, and its files' bytes.
    struct Fixture {
        let scratch = TemporaryDirectory()
        var store: String { scratch.path + "/store" }
        var destination: String { scratch.path + "/b" }
        let files: [String: [UInt8]]

        init() throws {
            let scratch = self.scratch
            try Samples.copy("v2-store", to: scratch.path + "/store")
            files = tree(scratch("store"))
        }

        func backup(links: Bool, _ calls: ReadTrackingCalls) throws -> BackupReport {
            try Backup.create(
                store: store, destination: destination, tool: "t", version: "0",
                options: .init(allowHardLinks: links), system: SystemCalls(calls: calls))
        }
    }

    /// Bytes read through each path of the staging folder, by path relative to it.
    static func stagedReads(_ calls: ReadTrackingCalls) -> [String: Int] {
        var reads: [String: Int] = [:]
        for (path, count) in calls.reads {
            guard let range = path.range(of: ".staging-") else { continue }
            let relative = path[range.upperBound...].drop { $0 != "/" }.dropFirst()
            reads[String(relative), default: 0] += count
        }
        return reads
    }

    @Test func linkedBackupReadsEveryFileOnceFromTheBackupAndNeverFromTheStore() throws {
        let fixture = try Fixture()
        let calls = ReadTrackingCalls()
        let report = try fixture.backup(links: true, calls)
        #expect(report.linkedFiles == 15)
        var expected = fixture.files.mapValues(\.count)
        expected[BackupManifest.fileName] = try Data(contentsOf: URL(fileURLWithPath: fixture.destination + "/backup.json")).count
        expected[ChecksumFile.fileName] = try Data(contentsOf: URL(fileURLWithPath: fixture.destination + "/SHA256SUMS")).count
        #expect(Self.stagedReads(calls) == expected)
        for name in fixture.files.keys { #expect(calls.bytesRead(fixture.store + "/" + name) == 0, "\(name)") }
        #expect(report.manifest.files.map(\.path) == fixture.files.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for entry in report.manifest.files { #expect(entry.sha256 == SHA256.hex(of: fixture.files[entry.path]!)) }
    }

    @Test func copiedBackupReadsTheSourceOnceAndTheCopyTwice() throws {
        let fixture = try Fixture()
        let calls = ReadTrackingCalls()
        let report = try fixture.backup(links: false, calls)
        #expect(report.copiedFiles == 15)
        let staged = Self.stagedReads(calls)
        for (name, bytes) in fixture.files {
            #expect(calls.bytesRead(fixture.store + "/" + name) == bytes.count, "\(name)")
            #expect(staged[name] == 2 * bytes.count, "\(name): compared with the source, then hashed")
        }
        #expect(try BackupVerification.verify(backup: fixture.destination).status == .ok)
    }

    @Test func copyThatReadsBackDifferentFromItsSourceIsRefusedAndNothingIsLeft() throws {
        let fixture = try Fixture()
        let calls = ReadTrackingCalls(corruptStagedReadsOf: "/settings.json")
        #expect {
            try fixture.backup(links: false, calls)
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .io
                && error?.message == "Can't back up '\(fixture.store)': the copy of 'settings.json' reads "
                    + "back different from what was written. Check the disk of '\(fixture.destination)'."
        }
        #expect(folderNames(fixture.scratch.path) == ["store"])
    }

    @Test func stagedFileThatGrowsBeforeTheFlushIsCaughtAndNothingIsLeft() throws {
        let fixture = try Fixture()
        let calls = ReadTrackingCalls(beforeFirstFlush: { staging in
            let handle = FileHandle(forWritingAtPath: staging + "/settings.json")!
            handle.seekToEndOfFile()
            handle.write(Data("x".utf8))
            handle.closeFile()
        })
        #expect {
            try fixture.backup(links: false, calls)
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .io
                && error?.message == "Can't back up '\(fixture.store)': the backup did not verify after "
                    + "writing: 'settings.json': is 86 bytes after writing but backup.json records 85. Check the disk of "
                    + "'\(fixture.destination)'; nothing was left at the destination."
        }
        #expect(folderNames(fixture.scratch.path) == ["store"])
        #expect(tree(fixture.scratch("store")) == fixture.files)
    }

    @Test(arguments: [BackupManifest.fileName, ChecksumFile.fileName])
    func manifestFileChangedBeforeTheFlushIsCaughtAndNothingIsLeft(name: String) throws {
        let fixture = try Fixture()
        let calls = ReadTrackingCalls(beforeFirstFlush: { staging in
            let url = URL(fileURLWithPath: staging + "/" + name)
            var bytes = try! Data(contentsOf: url)
            bytes[bytes.count / 2] ^= 0x01  // same length, one bit different
            try! bytes.write(to: url)
        })
        #expect {
            try fixture.backup(links: true, calls)
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .io
                && error?.message == "Can't back up '\(fixture.store)': the backup did not verify after "
                    + "writing: '\(name)': reads back different from what was written. Check the disk of "
                    + "'\(fixture.destination)'; nothing was left at the destination."
        }
        #expect(folderNames(fixture.scratch.path) == ["store"])
    }

    @Test func threadedReadBackRecordsExactlyWhatTheSerialOneRecords() throws {
        let scratch = TemporaryDirectory()
        let store = scratch.path + "/store"
        _ = try StoreGenerator(seed: 6, workStreams: 40, messagesPerStream: 3).write(to: store)
        let damaged = "sessions/" + StoreGenerator(seed: 6, workStreams: 40, messagesPerStream: 3).workStreamID(7).uuidString.lowercased() + ".json"
        try Data("{".utf8).write(to: URL(fileURLWithPath: store + "/" + damaged))
        let files = tree(scratch("store"))
        // The real file system reads back on several threads; a seam, one file after another.
        let threaded = try Backup.create(store: store, destination: scratch.path + "/threaded", tool: "t", version: "0")
        let serial = try Backup.create(
            store: store, destination: scratch.path + "/serial", tool: "t", version: "0",
            options: .init(), system: SystemCalls(calls: ReadTrackingCalls()))
        #expect(threaded.manifest.files.count == files.count && files.count > 40)
        #expect(threaded.manifest.files == serial.manifest.files)
        for entry in threaded.manifest.files { #expect(entry.sha256 == SHA256.hex(of: files[entry.path]!), "\(entry.path)") }
        #expect(threaded.unreadableDocuments.map(\.entry) == [damaged])
        #expect(threaded.unreadableDocuments == serial.unreadableDocuments)
    }
}
