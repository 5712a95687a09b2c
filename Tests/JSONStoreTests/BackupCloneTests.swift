import Foundation
import Testing

@testable import JSONStore

/// The backup's files are its own: a copy-on-write clone where the file system offers one, else
/// a byte copy; hard links only when asked. These run the capture against a seam whose clone
/// call is replaced, since the test machine's file system (ext4, tmpfs) may not clone.
@Suite struct BackupCloneTests {
    /// A successful clone, simulated: the file system's clone gives the target the source's bytes
    /// in a new inode, which a byte copy (`copyfile` semantics) also does.
    static let simulatedClone: @Sendable (String, String) throws(Errno) -> Void = { source, target throws(Errno) in
        do { try FileManager.default.copyItem(atPath: source, toPath: target) } catch { throw Errno(EIO) }
    }

    @Test func byDefaultEveryFileIsClonedWhereTheFileSystemCanAndNothingIsLinked() throws {
        let dir = TemporaryDirectory()
        let store = try dir.copySample("v2-store", as: "store")
        let calls = RecordingCalls(clone: Self.simulatedClone)
        let report = try Backup.create(
            store: store, destination: dir("b"), tool: "t", version: "1", options: .init(),
            system: SystemCalls(calls: calls))
        #expect(report.linkedFiles == 0 && report.copiedFiles == 15 && report.clonedFiles == 15)
        #expect(calls.log.filter { $0.hasPrefix("clone ") }.count == 15)
        #expect(try BackupVerification.verify(backup: dir("b"), system: .real).report.status == .ok)
        var a = stat(), b = stat()
        lstat(store + "/store.json", &a)
        lstat(dir("b") + "/store.json", &b)
        #expect(a.st_ino != b.st_ino)
    }

    @Test func aFileSystemThatCannotCloneIsAskedOnceThenEveryFileIsCopied() throws {
        for errno in [EOPNOTSUPP, ENOTTY, EXDEV, ENOSYS] {
            let dir = TemporaryDirectory()
            let store = try dir.copySample("v2-store", as: "store")
            let calls = RecordingCalls(clone: { _, _ throws(Errno) in throw Errno(errno) })
            let report = try Backup.create(
                store: store, destination: dir("b"), tool: "t", version: "1", options: .init(),
                system: SystemCalls(calls: calls))
            #expect(report.copiedFiles == 15 && report.clonedFiles == 0, "\(ErrnoDescription.name(errno))")
            #expect(calls.log.filter { $0.hasPrefix("clone ") }.count == 1, "\(ErrnoDescription.name(errno))")
            #expect(try BackupVerification.verify(backup: dir("b"), system: .real).report.status == .ok)
        }
    }

    @Test func aCloneRefusedForOneFileIsCopiedAndTheNextIsClonedAgain() throws {
        let dir = TemporaryDirectory()
        let store = try dir.copySample("v2-store", as: "store")
        let calls = RecordingCalls(clone: { source, target throws(Errno) in
            if source.hasSuffix("store.json") { throw Errno(EINVAL) }
            try BackupCloneTests.simulatedClone(source, target)
        })
        let report = try Backup.create(
            store: store, destination: dir("b"), tool: "t", version: "1", options: .init(),
            system: SystemCalls(calls: calls))
        #expect(report.copiedFiles == 15 && report.clonedFiles == 14)
    }

    @Test func aCloneThatFailsOnTheDiskStopsTheBackupAndLeavesNothing() throws {
        let dir = TemporaryDirectory()
        let store = try dir.copySample("v2-store", as: "store")
        let calls = RecordingCalls(clone: { _, _ throws(Errno) in throw Errno(EIO) })
        let error = #expect(throws: StoreError.self) {
            try Backup.create(
                store: store, destination: dir("b"), tool: "t", version: "1", options: .init(),
                system: SystemCalls(calls: calls))
        }
        #expect(error?.code == .io && error?.syscall == "clone" && error?.errno == EIO)
        #expect(folderNames(dir.path) == ["store"])
    }

    @Test func theRealCloneCallClonesOrSaysTheFileSystemCannot() throws {
        let dir = TemporaryDirectory()
        try Data("abc\n".utf8).write(to: URL(fileURLWithPath: dir("a")))
        var cloned = false
        do throws(StoreError) {
            try SystemCalls.real.cloneFile(dir("a"), to: dir("b"), context: ErrorContext("clone", dir("a")))
            cloned = true
        } catch {
            #expect(SystemCalls.cloneUnsupported(error.errno).unsupported, "\(error)")
            #expect(!FileManager.default.fileExists(atPath: dir("b")), "a failed clone left its target")
        }
        if cloned { #expect(try Data(contentsOf: URL(fileURLWithPath: dir("b"))) == Data("abc\n".utf8)) }
    }

    @Test func hardLinksOnlyWhenAsked() throws {
        let dir = TemporaryDirectory()
        let store = try dir.copySample("v2-store", as: "store")
        #expect(Backup.Options().allowHardLinks == false)
        let copied = try Backup.create(store: store, destination: dir("copied"), tool: "t", version: "1")
        #expect(copied.linkedFiles == 0 && copied.copiedFiles == 15)
        let linked = try Backup.create(
            store: store, destination: dir("linked"), tool: "t", version: "1",
            options: .init(allowHardLinks: true))
        #expect(linked.linkedFiles == 15 && linked.copiedFiles == 0 && linked.clonedFiles == 0)
    }
}
