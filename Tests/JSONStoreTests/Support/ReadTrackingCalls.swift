import Foundation

@testable import JSONStore

/// A seam for the backup's read-back checks: forwards every call to the real `PosixCalls`,
/// counts the bytes read through each path, and can tamper with a backup being written: flip the
/// first byte read from a staged file, or change staged files just before they are flushed.
final class ReadTrackingCalls: FileSystemCalls, @unchecked Sendable {
    private let lock = NSLock()
    private let real = PosixCalls()
    private var paths: [Int32: String] = [:]
    private var bytesRead: [String: Int] = [:]
    private var corrupted: Set<Int32> = []
    private var synced = false

    /// Reads of a file in a staging folder whose path ends with this get their first byte flipped.
    let corruptStagedReadsOf: String?
    /// Runs once, with the staging folder's path, before its files are first flushed (`syncfs`,
    /// or the first `fsync` of a staged file where there is no `syncfs`).
    let beforeFirstFlush: ((String) -> Void)?

    init(corruptStagedReadsOf: String? = nil, beforeFirstFlush: ((String) -> Void)? = nil) {
        self.corruptStagedReadsOf = corruptStagedReadsOf
        self.beforeFirstFlush = beforeFirstFlush
    }

    /// Bytes read so far through `path` (all opens of it together).
    func bytesRead(_ path: String) -> Int { locked { bytesRead[path] ?? 0 } }

    /// Every path read from so far, with its byte count.
    var reads: [String: Int] { locked { bytesRead } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private static func isStaged(_ path: String) -> Bool { path.contains(".staging-") }

    /// The staging folder holding `path`, if it is in one.
    private static func stagingFolder(of path: String) -> String? {
        guard let range = path.range(of: ".staging-") else { return nil }
        let rest = path[range.upperBound...]
        return String(path[..<range.upperBound]) + String(rest.prefix { $0 != "/" })
    }

    private func flushing(_ fd: Int32) {
        let folder: String? = locked {
            guard !synced, let path = paths[fd], let folder = Self.stagingFolder(of: path) else { return nil }
            synced = true
            return folder
        }
        if let folder { beforeFirstFlush?(folder) }
    }

    func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        let fd = try real.system_open(path, flags, mode)
        locked { paths[fd] = path }
        return fd
    }
    func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let count = try real.system_read(fd, buffer)
        locked {
            guard let path = paths[fd] else { return }
            bytesRead[path, default: 0] += count
            if count > 0, let suffix = corruptStagedReadsOf, Self.isStaged(path), path.hasSuffix(suffix),
                corrupted.insert(fd).inserted
            {
                buffer[0] ^= 0xFF
            }
        }
        return count
    }
    func system_close(_ fd: Int32) throws(Errno) {
        locked {
            paths[fd] = nil
            corrupted.remove(fd)
        }
        try real.system_close(fd)
    }
    func system_syncfs(_ fd: Int32) throws(Errno) {
        flushing(fd)
        try real.system_syncfs(fd)
    }
    func system_fsync(_ fd: Int32) throws(Errno) {
        flushing(fd)
        try real.system_fsync(fd)
    }

    func system_write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int { try real.system_write(fd, buffer) }
    func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: Int64) throws(Errno) -> Int {
        try real.system_pwrite(fd, buffer, offset)
    }
    func system_fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) { try real.system_fchmod(fd, mode) }
    func system_fstat(_ fd: Int32) throws(Errno) -> FileStatus { try real.system_fstat(fd) }
    func system_lstat(_ path: String) throws(Errno) -> FileStatus { try real.system_lstat(path) }
    func system_rename(_ from: String, _ to: String) throws(Errno) { try real.system_rename(from, to) }
    func system_unlink(_ path: String) throws(Errno) { try real.system_unlink(path) }
    func system_mkdir(_ path: String, _ mode: mode_t) throws(Errno) { try real.system_mkdir(path, mode) }
    func system_rmdir(_ path: String) throws(Errno) { try real.system_rmdir(path) }
    func system_flock(_ fd: Int32, _ operation: Int32) throws(Errno) { try real.system_flock(fd, operation) }
    func system_ftruncate(_ fd: Int32, _ length: Int64) throws(Errno) { try real.system_ftruncate(fd, length) }
    func system_link(_ from: String, _ to: String) throws(Errno) { try real.system_link(from, to) }
    func system_exchange(_ a: String, _ b: String) throws(Errno) { try real.system_exchange(a, b) }
    func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] { try real.system_readdir(path) }
    func system_fileSystemType(_ path: String) throws(Errno) -> String? { try real.system_fileSystemType(path) }
    func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String? { try real.system_fileSystemType(descriptor: fd) }
}
