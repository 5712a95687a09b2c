import Foundation
import Testing

@testable import JSONStore

/// The library: an absent document folder reads as empty, and the first write that needs it
/// creates it durably.
@Suite struct AbsentFolderLibraryTests {
    let id = UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b")!

    @Test func firstCustomisationWriteCreatesUserSessionsWithModeAndFsyncOfTheStore() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v4-store")
        try FileManager.default.removeItem(atPath: path + "/user-sessions")
        let calls = RecordingCalls()
        let store = try Store.open(at: path, options: Store.Options(), system: SystemCalls(calls: calls))
        #expect(try store.customisations().items.isEmpty)
        #expect(try store.customisation(id) == nil)
        calls.reset()
        let written = try store.setCustomName(id, "Named", at: StoreFixtures.t0)
        #expect(try store.customisation(id) == written)
        #expect(try StoreFixtures.mode(path + "/user-sessions") == 0o700)
        // mkdir, then an fsync of the store folder (the new entry), before the document is written.
        let log = calls.log
        let mkdir = try #require(log.firstIndex(of: "mkdir \(path)/user-sessions"))
        let storeSync = try #require(log.indices.first { $0 > mkdir && log[$0] == "fsync \(path)" })
        let rename = try #require(log.firstIndex { $0.hasPrefix("rename ") && $0.hasSuffix("/user-sessions/\(id.lowercased).json") })
        #expect(storeSync < rename)
    }

    @Test func firstWorkStreamOfAStoreWithoutSessionsCreatesTheFolder() throws {
        let dir = TemporaryDirectory()
        let store = try Store.create(at: dir("s"), now: StoreFixtures.t0)
        try FileManager.default.removeItem(atPath: store.path + "/sessions")
        #expect(try store.listWorkStreams().items.isEmpty)
        try store.createWorkStream(id: id, workingDirectory: "/w", at: StoreFixtures.t0)
        #expect(try store.listWorkStreams().items.map(\.id) == [id])
    }
}

/// Forwards every call to the real system and logs the ones that change entries or make them
/// durable, by path: "mkdir <path>", "fsync <path opened>", "rename <from> <to>", "clone <from> <to>".
/// `clone` replaces the clone call (by default the real one).
final class RecordingCalls: FileSystemCalls, @unchecked Sendable {
    private let real = PosixCalls()
    private let clone: (@Sendable (String, String) throws(Errno) -> Void)?

    init(clone: (@Sendable (String, String) throws(Errno) -> Void)? = nil) { self.clone = clone }

    func system_cloneFile(_ source: String, _ target: String) throws(Errno) {
        record("clone \(source) \(target)")
        if let clone { try clone(source, target) } else { try real.system_cloneFile(source, target) }
    }
    private let lock = NSLock()
    private var entries: [String] = []
    private var paths: [Int32: String] = [:]

    var log: [String] { lock.guarded { entries } }
    func reset() { lock.guarded { entries = [] } }
    private func record(_ line: String) { lock.guarded { entries.append(line) } }

    func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        let fd = try real.system_open(path, flags, mode)
        lock.guarded { paths[fd] = path }
        return fd
    }
    func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int { try real.system_read(fd, buffer) }
    func system_write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int { try real.system_write(fd, buffer) }
    func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: Int64) throws(Errno) -> Int { try real.system_pwrite(fd, buffer, offset) }
    func system_fsync(_ fd: Int32) throws(Errno) {
        record("fsync \(lock.guarded { paths[fd] } ?? "fd \(fd)")")
        try real.system_fsync(fd)
    }
    func system_fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) { try real.system_fchmod(fd, mode) }
    func system_fstat(_ fd: Int32) throws(Errno) -> FileStatus { try real.system_fstat(fd) }
    func system_lstat(_ path: String) throws(Errno) -> FileStatus { try real.system_lstat(path) }
    func system_rename(_ from: String, _ to: String) throws(Errno) {
        record("rename \(from) \(to)")
        try real.system_rename(from, to)
    }
    func system_unlink(_ path: String) throws(Errno) { try real.system_unlink(path) }
    func system_mkdir(_ path: String, _ mode: mode_t) throws(Errno) {
        record("mkdir \(path)")
        try real.system_mkdir(path, mode)
    }
    func system_rmdir(_ path: String) throws(Errno) { try real.system_rmdir(path) }
    func system_close(_ fd: Int32) throws(Errno) {
        lock.guarded { paths[fd] = nil }
        try real.system_close(fd)
    }
    func system_flock(_ fd: Int32, _ operation: Int32) throws(Errno) { try real.system_flock(fd, operation) }
    func system_ftruncate(_ fd: Int32, _ length: Int64) throws(Errno) { try real.system_ftruncate(fd, length) }
    func system_link(_ from: String, _ to: String) throws(Errno) { try real.system_link(from, to) }
    func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] { try real.system_readdir(path) }
    func system_fileSystemType(_ path: String) throws(Errno) -> String? { try real.system_fileSystemType(path) }
    func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String? { try real.system_fileSystemType(descriptor: fd) }
}
