import Foundation
import Schema

@testable import JSONStore

/// Passes every call to `base`; subclasses change one behaviour. The mutants below are the
/// write path as a careless implementation would have it, to show the power-loss harness fails them.
class ForwardingCalls: FileSystemCalls, @unchecked Sendable {
    let base: ModelFileSystem
    init(_ base: ModelFileSystem) { self.base = base }

    func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 { try base.system_open(path, flags, mode) }
    func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int { try base.system_read(fd, buffer) }
    func system_write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int { try base.system_write(fd, buffer) }
    func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: Int64) throws(Errno) -> Int {
        try base.system_pwrite(fd, buffer, offset)
    }
    func system_fsync(_ fd: Int32) throws(Errno) { try base.system_fsync(fd) }
    func system_fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) { try base.system_fchmod(fd, mode) }
    func system_fstat(_ fd: Int32) throws(Errno) -> FileStatus { try base.system_fstat(fd) }
    func system_lstat(_ path: String) throws(Errno) -> FileStatus { try base.system_lstat(path) }
    func system_rename(_ from: String, _ to: String) throws(Errno) { try base.system_rename(from, to) }
    func system_unlink(_ path: String) throws(Errno) { try base.system_unlink(path) }
    func system_mkdir(_ path: String, _ mode: mode_t) throws(Errno) { try base.system_mkdir(path, mode) }
    func system_rmdir(_ path: String) throws(Errno) { try base.system_rmdir(path) }
    func system_close(_ fd: Int32) throws(Errno) { try base.system_close(fd) }
    func system_flock(_ fd: Int32, _ operation: Int32) throws(Errno) { try base.system_flock(fd, operation) }
    func system_ftruncate(_ fd: Int32, _ length: Int64) throws(Errno) { try base.system_ftruncate(fd, length) }
    func system_link(_ from: String, _ to: String) throws(Errno) { try base.system_link(from, to) }
    func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] { try base.system_readdir(path) }
    func system_fileSystemType(_ path: String) throws(Errno) -> String? { try base.system_fileSystemType(path) }
    func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String? { try base.system_fileSystemType(descriptor: fd) }
    func system_syncfs(_ fd: Int32) throws(Errno) { try base.system_syncfs(fd) }
    func system_exchange(_ a: String, _ b: String) throws(Errno) { try base.system_exchange(a, b) }
}

/// Mutant: `syncfs` reports success without syncing (a batch trusting a flush that never happened).
final class WithoutSyncFS: ForwardingCalls, @unchecked Sendable {
    override func system_syncfs(_ fd: Int32) throws(Errno) {}
}

/// Mutant: the store trusts `syncfs` on a FUSE mount. The model is a FUSE file system (its
/// `syncfs` makes nothing durable, as Linux's), and this seam tells the store it is ext4, as a
/// barrier policy that ignored the file system type would decide.
final class SyncFSTrustedOnFUSE: ForwardingCalls, @unchecked Sendable {
    override init(_ base: ModelFileSystem) {
        base.fileSystemTypeName = "fuse.lazyfs"
        super.init(base)
    }
    override func system_fileSystemType(_ path: String) throws(Errno) -> String? { "ext4" }
    override func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String? {
        _ = try base.system_fileSystemType(descriptor: fd)
        return "ext4"
    }
}

/// Mutant: `fsync` of a file reports success without syncing (a missing `fsync(fd)` before rename).
final class WithoutFileSync: ForwardingCalls, @unchecked Sendable {
    override func system_fsync(_ fd: Int32) throws(Errno) {
        if base.isDirectory(fd) { try base.system_fsync(fd) }
    }
}

/// Mutant: `fsync` of a folder reports success without syncing (a missing directory fsync after rename).
final class WithoutDirectorySync: ForwardingCalls, @unchecked Sendable {
    override func system_fsync(_ fd: Int32) throws(Errno) {
        if !base.isDirectory(fd) { try base.system_fsync(fd) }
    }
}

/// Mutant: writes in place. Creating the temp file `.tmp-<hex>-<name>` opens `<name>` itself with
/// `O_TRUNC`; the rename of the temp file and its removal do nothing. Every other step (write,
/// fchmod, fsync of the file and of the folder) still runs.
final class InPlaceWrite: ForwardingCalls, @unchecked Sendable {
    static func target(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let name = String(path[path.index(after: slash)...])
        guard TempSweep.isTemporaryName(name) else { return nil }
        let prefixLength = AtomicFile.temporaryPrefix.count + 17
        return String(path[...slash]) + String(name.dropFirst(prefixLength))
    }

    override func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        guard let target = Self.target(of: path) else { return try base.system_open(path, flags, mode) }
        return try base.system_open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
    }
    override func system_rename(_ from: String, _ to: String) throws(Errno) {
        if Self.target(of: from) == to { return }
        try base.system_rename(from, to)
    }
    override func system_unlink(_ path: String) throws(Errno) {
        if Self.target(of: path) != nil { return }
        try base.system_unlink(path)
    }
}

/// Mutant: exchanges two folders with three renames (`a` → spare name, `b` → `a`, spare → `b`),
/// as a platform without an atomic exchange might: for a moment `b` does not exist.
final class ExchangeByRenames: ForwardingCalls, @unchecked Sendable {
    override func system_exchange(_ a: String, _ b: String) throws(Errno) {
        let spare = a + ".spare"
        try base.system_rename(a, spare)
        try base.system_rename(b, a)
        try base.system_rename(spare, b)
    }
}

/// Mutant: exchanges `user-sessions/` (only) with three renames, as `ExchangeByRenames` does: a
/// customisations commit that is not atomic (issue 19). The work streams' exchange is left whole.
final class ExchangeOfCustomisationsByRenames: ForwardingCalls, @unchecked Sendable {
    override func system_exchange(_ a: String, _ b: String) throws(Errno) {
        guard b.hasSuffix("/" + StoreLayout.customisationsFolder) || a.hasSuffix("/" + StoreLayout.customisationsFolder) else {
            return try base.system_exchange(a, b)
        }
        let spare = a + ".spare"
        try base.system_rename(a, spare)
        try base.system_rename(b, a)
        try base.system_rename(spare, b)
    }
}

/// The mutants, by name, as seams for `PowerLossHarness`.
let mutants: [(name: String, seam: @Sendable (ModelFileSystem) -> any FileSystemCalls)] = [
    ("without file fsync", { WithoutFileSync($0) }),
    ("without folder fsync", { WithoutDirectorySync($0) }),
    ("in-place write", { InPlaceWrite($0) }),
    ("syncfs without effect", { WithoutSyncFS($0) }),
    ("syncfs trusted on FUSE", { SyncFSTrustedOnFUSE($0) }),
    ("exchange by renames", { ExchangeByRenames($0) }),
    ("customisations exchange by renames", { ExchangeOfCustomisationsByRenames($0) }),
]
