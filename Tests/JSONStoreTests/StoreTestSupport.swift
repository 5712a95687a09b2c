import Foundation
import StoreJSON
import Testing

@testable import JSONStore

enum StoreFixtures {
    static func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue
    }

    static let t0 = RFC3339.parse("2025-11-20T10:00:00.000Z")!
}

/// Counts calls by kind and passes them to the real system.
final class CountingCalls: FileSystemCalls, @unchecked Sendable {
    private let real = PosixCalls()
    private let lock = NSLock()
    private(set) var renames: [String] = []

    func count(renamesEndingIn suffix: String) -> Int { lock.guarded { renames.filter { $0.hasSuffix(suffix) }.count } }
    func reset() { lock.guarded { renames = [] } }

    func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 { try real.system_open(path, flags, mode) }
    func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int { try real.system_read(fd, buffer) }
    func system_write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int { try real.system_write(fd, buffer) }
    func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: Int64) throws(Errno) -> Int { try real.system_pwrite(fd, buffer, offset) }
    func system_fsync(_ fd: Int32) throws(Errno) { try real.system_fsync(fd) }
    func system_fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) { try real.system_fchmod(fd, mode) }
    func system_fstat(_ fd: Int32) throws(Errno) -> FileStatus { try real.system_fstat(fd) }
    func system_lstat(_ path: String) throws(Errno) -> FileStatus { try real.system_lstat(path) }
    func system_rename(_ from: String, _ to: String) throws(Errno) {
        lock.guarded { renames.append(to) }
        try real.system_rename(from, to)
    }
    func system_unlink(_ path: String) throws(Errno) { try real.system_unlink(path) }
    func system_mkdir(_ path: String, _ mode: mode_t) throws(Errno) { try real.system_mkdir(path, mode) }
    func system_rmdir(_ path: String) throws(Errno) { try real.system_rmdir(path) }
    func system_close(_ fd: Int32) throws(Errno) { try real.system_close(fd) }
    func system_flock(_ fd: Int32, _ operation: Int32) throws(Errno) { try real.system_flock(fd, operation) }
    func system_ftruncate(_ fd: Int32, _ length: Int64) throws(Errno) { try real.system_ftruncate(fd, length) }
    func system_link(_ from: String, _ to: String) throws(Errno) { try real.system_link(from, to) }
    func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] { try real.system_readdir(path) }
    func system_fileSystemType(_ path: String) throws(Errno) -> String? { try real.system_fileSystemType(path) }
    func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String? { try real.system_fileSystemType(descriptor: fd) }
}
