import Foundation
import Testing

@testable import JSONStore
@testable import StoreCore

@Suite struct StoreLockTests {
    @Test func lockedErrorNamesHolder() throws {
        let dir = TemporaryDirectory()
        let held = try StoreLock(store: dir.path, tool: "migrate-store", version: "0.3.0", timeout: .zero)
        let error = #expect(throws: StoreError.self) {
            _ = try StoreLock(store: dir.path, tool: "other", version: "1", timeout: .zero)
        }
        #expect(error?.code == .locked && error?.path == dir.path)
        let since = try #require(held.holder.since)
        #expect(
            error?.message == "Can't write '\(dir.path)': it is locked by process \(getpid()) (migrate-store 0.3.0) "
                + "since \(since). Wait for it to finish, or stop that process.")
        held.release()
        #expect(try StoreLock(store: dir.path, tool: "other", version: "1", timeout: .zero).isHeld)
    }

    @Test func holderRecordIsReadableWithoutTakingTheLock() throws {
        let dir = TemporaryDirectory()
        #expect(try StoreLock.currentHolder(store: dir.path) == nil)
        #expect(FileManager.default.fileExists(atPath: dir(".lock")) == false, "a probe must not create the lock file")

        let held = try StoreLock(store: dir.path, tool: "migrate-store", version: "0.3.0", timeout: .zero)
        let holder = try #require(try StoreLock.currentHolder(store: dir.path))
        #expect(holder == held.holder)
        #expect(holder.pid == getpid() && holder.tool == "migrate-store" && holder.version == "0.3.0")
        #expect(holder.host == LockHolder.currentHost())
        #expect(holder.since?.hasSuffix("Z") == true && holder.since?.count == 20)
        held.release()
        #expect(try StoreLock.currentHolder(store: dir.path) == nil)
    }

    @Test func lockFileIsCreated0600AndNeverReplaced() throws {
        let dir = TemporaryDirectory()
        try StoreLock(store: dir.path, tool: "a-longer-tool-name", version: "1.0.0", timeout: .zero).release()
        var first = stat()
        #expect(lstat(dir(".lock"), &first) == 0)
        #expect(first.st_mode & 0o7777 == 0o600)
        let lock = try StoreLock(store: dir.path, tool: "t", version: "2", timeout: .zero)
        var second = stat()
        #expect(lstat(dir(".lock"), &second) == 0)
        #expect(first.st_ino == second.st_ino)
        // The shorter record replaced the longer one completely.
        #expect(contents(dir(".lock")) == lock.holder.encoded)
        lock.release()
    }

    @Test func timeoutWaitsThenFails() throws {
        let dir = TemporaryDirectory()
        let held = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero)
        let start = ContinuousClock.now
        #expect(throws: StoreError.self) { _ = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .milliseconds(300)) }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(300) && waited < .seconds(3))
        held.release()
    }

    @Test func unreadableHolderRecordIsSaid() throws {
        let dir = TemporaryDirectory()
        let held = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero)
        // Overwrite the record in place (the lock file must stay the same file).
        let handle = try #require(FileHandle(forWritingAtPath: dir(".lock")))
        try handle.truncate(atOffset: 0)
        try handle.close()
        let error = #expect(throws: StoreError.self) { _ = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero) }
        #if os(Linux)
        // /proc/locks names the holder the record does not: this process, by its command name.
        let command = try String(contentsOfFile: "/proc/self/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
        #expect(
            error?.message == "Can't write '\(dir.path)': it is locked by process \(getpid()) (\(command)). "
                + "Wait for it to finish, or stop that process.")
        #else
        #expect(
            error?.message == "Can't write '\(dir.path)': it is locked by another process (it left no readable record "
                + "of who it is). Wait for it to finish, or find it with 'lsof \(dir(".lock"))'.")
        #endif
        #expect(try StoreLock.currentHolder(store: dir.path)?.isUnknown == true)
        held.release()
    }

    @Test func scopedLockIsReleasedWhenBodyThrows() throws {
        struct Failure: Error {}
        let dir = TemporaryDirectory()
        #expect(throws: Failure.self) {
            try StoreLock.withExclusiveLock(store: dir.path, tool: "t", version: "1") { lock in
                #expect(lock.isHeld)
                throw Failure()
            }
        }
        #expect(try StoreLock.currentHolder(store: dir.path) == nil)
        let value = try StoreLock.withExclusiveLock(store: dir.path, tool: "t", version: "1") { _ in 42 }
        #expect(value == 42)
    }

    @Test func symlinkInPlaceOfLockFileIsRefused() throws {
        let dir = TemporaryDirectory()
        plant(dir("elsewhere"), "x")
        #expect(symlink(dir("elsewhere"), dir(".lock")) == 0)
        let error = #expect(throws: StoreError.self) { _ = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero) }
        #expect(error?.code == .symlinkRefused && error?.errno == ELOOP && error?.syscall == "open")
        #expect(contents(dir("elsewhere")) == bytes("x"))
    }

    @Test func missingStoreIsNotFound() {
        let error = #expect(throws: StoreError.self) {
            _ = try StoreLock(store: "/nonexistent-\(UUID().uuidString)", tool: "t", version: "1", timeout: .zero)
        }
        #expect(error?.code == .notFound && error?.errno == ENOENT)
    }

    /// Over a new lock file (no `ftruncate`: the record is written into an empty file) and over
    /// one holding a longer old record (cut off by an `ftruncate`, whose failure is swept too).
    @Test(arguments: [false, true])
    func lockFailingAtEveryCallLeavesLockFree(overALongerRecord: Bool) throws {
        var runs = 0
        for (errno, code) in sweptErrnos {
            runs += try forEveryCall(failing: .error(errno)) { faults, _ in
                let dir = TemporaryDirectory()
                if overALongerRecord { plant(dir(".lock"), String(repeating: "x", count: 300)) }
                do {
                    let lock = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero, system: .injecting(faults))
                    #expect(lock.isHeld)
                    #expect(contents(dir(".lock")) == lock.holder.encoded)
                    lock.release()
                } catch let error as StoreError {
                    #expect(error.errno == errno && error.code == code && error.syscall == faults.injected.first?.kind, "\(error)")
                }
                #expect(try StoreLock.currentHolder(store: dir.path) == nil, "call log: \(faults.log)")
            }
        }
        print("StoreLock fault sweep (over a longer record: \(overALongerRecord)): \(runs) runs with an injected errno")
        // Each call of taking and releasing the lock, and over a longer record one more: its ftruncate.
        #expect(runs == 3 * (overALongerRecord ? 9 : 8))
    }

    /// The holder record's `ftruncate` runs only when the file was longer than the new record.
    @Test(arguments: [0, 20, 400])
    func theRecordIsCutOnlyWhenTheFileWasLonger(oldLength: Int) throws {
        let dir = TemporaryDirectory()
        if oldLength > 0 { plant(dir(".lock"), String(repeating: "x", count: oldLength)) }
        let faults = FaultInjectingCalls()
        let lock = try StoreLock(store: dir.path, tool: "migrate-store", version: "0.3.0", timeout: .zero, system: .injecting(faults))
        #expect(contents(dir(".lock")) == lock.holder.encoded)
        #expect(faults.log.filter { $0.kind == "ftruncate" }.count == (oldLength > lock.holder.encoded.count ? 1 : 0), "\(faults.log)")
        lock.release()
    }

    @Test func shortRecordWritesStillWriteWholeRecord() throws {
        let runs = try forEveryCall(failing: .shortWrite, kinds: ["pwrite"], persistent: true) { faults, _ in
            let dir = TemporaryDirectory()
            let lock = try StoreLock(store: dir.path, tool: "migrate-store", version: "0.3.0", timeout: .zero, system: .injecting(faults))
            #expect(contents(dir(".lock")) == lock.holder.encoded)
            let holder = try StoreLock.currentHolder(store: dir.path)
            #expect(holder == lock.holder)
            lock.release()
        }
        #expect(runs >= 1)
    }

    @Test func networkFileSystemsGetAWarning() {
        #expect(
            FileSystemWarning.message(store: "/s", fileSystemType: "nfs4")
                == "The store '/s' is on a network file system (nfs4), where locking between computers is not reliable. "
                + "Use the store from one computer at a time.")
        #expect(FileSystemWarning.message(store: "/s", fileSystemType: "smbfs") != nil)
        #expect(FileSystemWarning.message(store: "/s", fileSystemType: "fuse.sshfs")?.contains("FUSE") == true)
        #expect(FileSystemWarning.message(store: "/s", fileSystemType: "ext4") == nil)
        #expect(FileSystemWarning.message(store: "/s", fileSystemType: "apfs") == nil)
        #expect(FileSystemWarning.message(store: "/s", fileSystemType: nil) == nil)
    }

    @Test func mountTableGivesTypeOfDevice() {
        let table = """
            22 1 252:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
            40 22 0:35 / /mnt/share rw,relatime shared:20 - nfs4 server:/export rw,vers=4.2
            41 22 0:36 / /mnt/fuse rw shared:21 master:3 - fuse.sshfs host: rw
            """
        #expect(MountTable.fileSystemType(device: 252 << 8, mountinfo: table) == "ext4")
        #expect(MountTable.fileSystemType(device: 35, mountinfo: table) == "nfs4")
        #expect(MountTable.fileSystemType(device: 36, mountinfo: table) == "fuse.sshfs")
        #expect(MountTable.fileSystemType(device: 99, mountinfo: table) == nil)
    }

    @Test func localTemporaryDirectoryGetsNoWarning() throws {
        let dir = TemporaryDirectory()
        #expect(StoreLock.networkFileSystemWarning(store: dir.path) == nil)
        #expect(try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero).fileSystemWarning == nil)
        #if os(Linux)
        #expect(PosixCalls().system_fileSystemTypeOrNil(dir.path) != nil, "mountinfo lookup found no mount for the temp dir")
        #endif
    }
}

extension PosixCalls {
    func system_fileSystemTypeOrNil(_ path: String) -> String? {
        do { return try system_fileSystemType(path) } catch { return nil }
    }
}
