import Foundation

@testable import JSONStore

/// The test side of the fault seam: forwards every call to the real `PosixCalls`, logs it by kind
/// (the C function's name), and can fail the Nth call with an errno or make the Nth write short.
final class FaultInjectingCalls: FileSystemCalls, @unchecked Sendable {
    enum Fault: Sendable, Equatable {
        /// The call fails with this errno and does nothing.
        case error(Int32)
        /// A `write`/`pwrite` writes only half the bytes (at least one) and reports that.
        case shortWrite
    }

    /// Which call to fail: the `callNumber`-th call (1-based) among those whose kind is in `kinds`
    /// (any kind when nil), and every later one too if `persistent` (a disk that stays full).
    struct Plan: Sendable {
        var callNumber: Int
        var kinds: Set<String>? = nil
        var fault: Fault
        var persistent = false
    }

    /// One logged call.
    struct Call: Sendable, Equatable {
        var kind: String
        var fault: Fault?
    }

    private let lock = NSLock()
    private let plan: Plan?
    private var matching = 0
    private var calls: [Call] = []
    private let real = PosixCalls()

    init(_ plan: Plan? = nil) { self.plan = plan }

    /// Every call so far, in order.
    var log: [Call] { locked { calls } }
    /// The calls that got a fault.
    var injected: [Call] { log.filter { $0.fault != nil } }
    /// How many calls of `kind` were made.
    func count(_ kind: String) -> Int { log.filter { $0.kind == kind }.count }
    /// True if some `kind` call succeeded (was not given an error).
    func succeeded(_ kind: String) -> Bool {
        log.contains { call in
            guard call.kind == kind else { return false }
            if case .error = call.fault { return false }
            return true
        }
    }

    /// Logs the call and returns its fault, if the plan picks it.
    private func next(_ kind: String) -> Fault? {
        locked {
            var fault: Fault?
            if let plan, plan.kinds?.contains(kind) ?? true {
                matching += 1
                let picked = matching == plan.callNumber || (plan.persistent && matching > plan.callNumber)
                let applies = plan.fault != .shortWrite || kind == "write" || kind == "pwrite"
                if picked && applies { fault = plan.fault }
            }
            calls.append(Call(kind: kind, fault: fault))
            return fault
        }
    }

    /// `NSLock.withLock` needs macOS 14; the package supports macOS 13.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private func check(_ kind: String) throws(Errno) {
        if case .error(let value)? = next(kind) { throw Errno(value) }
    }

    private func shortened(_ kind: String, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> UnsafeRawBufferPointer {
        switch next(kind) {
        case .error(let value)?: throw Errno(value)
        case .shortWrite?: return UnsafeRawBufferPointer(rebasing: buffer.prefix(max(1, buffer.count / 2)))
        case nil: return buffer
        }
    }

    func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        try check("open"); return try real.system_open(path, flags, mode)
    }
    func system_read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try check("read"); return try real.system_read(fd, buffer)
    }
    func system_write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        try real.system_write(fd, try shortened("write", buffer))
    }
    func system_pwrite(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, _ offset: Int64) throws(Errno) -> Int {
        try real.system_pwrite(fd, try shortened("pwrite", buffer), offset)
    }
    func system_fsync(_ fd: Int32) throws(Errno) { try check("fsync"); try real.system_fsync(fd) }
    func system_fchmod(_ fd: Int32, _ mode: mode_t) throws(Errno) { try check("fchmod"); try real.system_fchmod(fd, mode) }
    func system_fstat(_ fd: Int32) throws(Errno) -> FileStatus { try check("fstat"); return try real.system_fstat(fd) }
    func system_lstat(_ path: String) throws(Errno) -> FileStatus { try check("lstat"); return try real.system_lstat(path) }
    func system_rename(_ from: String, _ to: String) throws(Errno) { try check("rename"); try real.system_rename(from, to) }
    func system_unlink(_ path: String) throws(Errno) { try check("unlink"); try real.system_unlink(path) }
    func system_mkdir(_ path: String, _ mode: mode_t) throws(Errno) { try check("mkdir"); try real.system_mkdir(path, mode) }
    func system_rmdir(_ path: String) throws(Errno) { try check("rmdir"); try real.system_rmdir(path) }
    func system_close(_ fd: Int32) throws(Errno) {
        // A failed close still releases the descriptor on Linux and Darwin; do the same, or the
        // test would leak descriptors (and locks) that the code under test rightly never retries.
        let fault = next("close")
        try real.system_close(fd)
        if case .error(let value)? = fault { throw Errno(value) }
    }
    func system_flock(_ fd: Int32, _ operation: Int32) throws(Errno) { try check("flock"); try real.system_flock(fd, operation) }
    func system_ftruncate(_ fd: Int32, _ length: Int64) throws(Errno) {
        try check("ftruncate"); try real.system_ftruncate(fd, length)
    }
    func system_link(_ from: String, _ to: String) throws(Errno) { try check("link"); try real.system_link(from, to) }
    func system_exchange(_ a: String, _ b: String) throws(Errno) { try check("exchange"); try real.system_exchange(a, b) }
    func system_cloneFile(_ source: String, _ target: String) throws(Errno) { try check("clone"); try real.system_cloneFile(source, target) }
    func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] {
        try check("readdir"); return try real.system_readdir(path)
    }
    func system_fileSystemType(_ path: String) throws(Errno) -> String? {
        try check("statfs"); return try real.system_fileSystemType(path)
    }
    func system_fileSystemType(descriptor fd: Int32) throws(Errno) -> String? {
        try check("fstatfs"); return try real.system_fileSystemType(descriptor: fd)
    }
}

extension SystemCalls {
    /// System calls going through `faults`.
    static func injecting(_ faults: FaultInjectingCalls) -> SystemCalls { SystemCalls(calls: faults) }
}
