#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Layers 2 and 3 over the fault seam (HOUSE-STYLE §11): each method makes one kind of C call
/// through `calls`, retries `EINTR` where that is safe, and turns a failure into a `StoreError`
/// that names the user's path (from the `ErrorContext`), the call and its errno.
///
/// Not retried on `EINTR`: `fsync` (see `sync`) and `close` (see `close`).
package struct SystemCalls: Sendable {
    /// The shims every call goes through; tests pass a fault-injecting wrapper.
    let calls: any FileSystemCalls

    package init(calls: any FileSystemCalls) { self.calls = calls }

    /// The real system calls.
    package static let real = SystemCalls(calls: PosixCalls())

    /// Which seam this is, for state kept per file system in the process (`WriterGate`,
    /// `FolderSyncGroup`): the object of a seam that is a class (a test's model file system or
    /// fault injector), nil for the real calls (a value: there is one real file system).
    package var seamIdentity: ObjectIdentifier? {
        guard type(of: calls) is AnyObject.Type else { return nil }
        return ObjectIdentifier(calls as AnyObject)
    }

    /// `open(2)`, retrying `EINTR`. Returns the file descriptor.
    func open(_ path: String, flags: Int32, mode: mode_t = 0, context: ErrorContext) throws(StoreError) -> Int32 {
        try retrying("open", context) { () throws(Errno) in try calls.system_open(path, flags, mode) }
    }

    /// `write(2)` until every byte is written: continues after a short write and retries `EINTR`.
    func writeAll(_ fd: Int32, _ bytes: [UInt8], context: ErrorContext) throws(StoreError) {
        try writeAll(bytes, "write", context: context) { (chunk, _) throws(Errno) in try calls.system_write(fd, chunk) }
    }

    /// `pwrite(2)` until every byte is written at `offset`: continues after a short write, retries `EINTR`.
    func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int64, context: ErrorContext) throws(StoreError) {
        try writeAll(bytes, "pwrite", context: context) { (chunk, done) throws(Errno) in
            try calls.system_pwrite(fd, chunk, offset + Int64(done))
        }
    }

    private func writeAll(
        _ bytes: [UInt8], _ syscall: String, context: ErrorContext,
        _ write: (UnsafeRawBufferPointer, Int) throws(Errno) -> Int
    ) throws(StoreError) {
        var done = 0
        while done < bytes.count {
            // Array.withUnsafeBytes rethrows untyped errors, so the typed error travels in a Result.
            let count = try bytes.withUnsafeBytes { all in
                let chunk = UnsafeRawBufferPointer(rebasing: all[done...])
                return Result { () throws(StoreError) in
                    try retrying(syscall, context) { () throws(Errno) in try write(chunk, done) }
                }
            }.get()
            // A regular file never reports 0 bytes written for a non-empty buffer; if one does,
            // stop instead of looping forever.
            guard count > 0 else { throw .systemCall(syscall, errno: EIO, context: context) }
            done += count
        }
    }

    /// `read(2)` until end of file or until more than `limit` bytes were read, retrying `EINTR`.
    /// Returns at most `limit + 1` bytes, so the caller can tell "exactly at the limit" from "over".
    ///
    /// Reads straight into the returned array's storage, sized from `sizeHint` (the file size
    /// from `fstat`) plus one byte, so a file that did not change is read with one `read` that
    /// fills it and one that returns 0, and no byte is zeroed or copied. If the file grew in
    /// between, the storage doubles (up to `limit + 1`) and reading goes on.
    package func readAll(_ fd: Int32, limit: Int, sizeHint: Int = 0, context: ErrorContext) throws(StoreError) -> [UInt8] {
        var capacity = min(max(sizeHint, 0), limit) + 1
        var result: [UInt8] = []
        while true {
            var failure: StoreError?
            var ended = false
            let previous = result
            result = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                // UInt8 is trivial: the bytes past `count` may stay uninitialised.
                count = buffer.initialize(fromContentsOf: previous)
                while count < capacity {
                    let room = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[count..<capacity])
                    do throws(StoreError) {
                        let read = try retrying("read", context) { () throws(Errno) in try calls.system_read(fd, room) }
                        if read == 0 { ended = true; return }
                        count += read
                    } catch {
                        failure = error
                        return
                    }
                }
            }
            if let failure { throw failure }
            if ended || result.count > limit { return result }
            capacity = min(max(capacity * 2, 64 * 1024), limit + 1)
        }
    }

    /// `fsync(2)` (`F_FULLFSYNC` on Darwin). Never retried, not even on `EINTR`: after a failed
    /// fsync Linux may already have marked the unwritten pages clean, so a second fsync can report
    /// success for data that never reached the disk (man 2 fsync, ERRORS; the PostgreSQL
    /// "fsyncgate" findings, 2018). The caller must treat the write as failed.
    func sync(_ fd: Int32, context: ErrorContext) throws(StoreError) {
        try once("fsync", context) { () throws(Errno) in try calls.system_fsync(fd) }
    }

    /// `fchmod(2)`, retrying `EINTR`. Sets the exact mode; the umask does not apply.
    func setPermissions(_ fd: Int32, _ mode: mode_t, context: ErrorContext) throws(StoreError) {
        try retrying("fchmod", context) { () throws(Errno) in try calls.system_fchmod(fd, mode) }
    }

    /// `fstat(2)`, retrying `EINTR`.
    func status(_ fd: Int32, context: ErrorContext) throws(StoreError) -> FileStatus {
        try retrying("fstat", context) { () throws(Errno) in try calls.system_fstat(fd) }
    }

    /// `lstat(2)`, retrying `EINTR`. Returns nil when nothing exists at `path` (`ENOENT`).
    package func linkStatus(_ path: String, context: ErrorContext) throws(StoreError) -> FileStatus? {
        // ENOENT is an answer here, caught as the `Errno` before a `StoreError` and its message are
        // built: a store below v5 has no `work-streams/`, and every write's `WriteRecord` captures
        // `lstat` it twice (building the message costs more than the call).
        try retrying("lstat", context) { () throws(Errno) -> FileStatus? in
            do throws(Errno) {
                return try calls.system_lstat(path)
            } catch  where error.rawValue == ENOENT {
                return nil
            }
        }
    }

    /// `rename(2)`, retrying `EINTR`. Atomically replaces `to` (man 2 rename).
    package func rename(_ from: String, to: String, context: ErrorContext) throws(StoreError) {
        try retrying("rename", context) { () throws(Errno) in try calls.system_rename(from, to) }
    }

    /// `unlink(2)`, retrying `EINTR`.
    package func unlink(_ path: String, context: ErrorContext) throws(StoreError) {
        try retrying("unlink", context) { () throws(Errno) in try calls.system_unlink(path) }
    }

    /// `mkdir(2)`, retrying `EINTR`. The umask applies to `mode`; follow with `setPermissions`.
    func makeDirectory(_ path: String, mode: mode_t, context: ErrorContext) throws(StoreError) {
        try retrying("mkdir", context) { () throws(Errno) in try calls.system_mkdir(path, mode) }
    }

    /// `close(2)`. Not retried on `EINTR`: Linux and Darwin release the descriptor even then, and a
    /// retry could close a descriptor another thread has just been given (man 2 close, NOTES).
    func close(_ fd: Int32, context: ErrorContext) throws(StoreError) {
        try once("close", context) { () throws(Errno) in try calls.system_close(fd) }
    }

    /// `close(2)` of a descriptor whose state no longer matters: a read-only descriptor, or a temp
    /// file being abandoned after an error. Errors are ignored because nothing is lost by them
    /// and the caller is already reporting the first error.
    func discard(_ fd: Int32) {
        do { try calls.system_close(fd) } catch {
            // see above
        }
    }

    /// `unlink(2)` of a temp file after a failure, retrying `EINTR`. Errors are ignored: the caller
    /// is already reporting the first error, and a temp file left behind is removed by the next
    /// sweep (`TempSweep`), which readers never see because its name starts with a dot.
    package func removeLeftover(_ path: String) {
        do { try unlink(path, context: ErrorContext("remove", path)) } catch {
            // see above
        }
    }

    /// `rmdir(2)`, retrying `EINTR`.
    package func removeDirectory(_ path: String, context: ErrorContext) throws(StoreError) {
        try retrying("rmdir", context) { () throws(Errno) in try calls.system_rmdir(path) }
    }

    /// `rmdir(2)` of a directory this code just created, after a later step failed. Errors are
    /// ignored as in `removeLeftover`: an empty directory left behind holds no data.
    func removeDirectoryLeftover(_ path: String) {
        do { try removeDirectory(path, context: ErrorContext("remove", path)) } catch {
            // see above
        }
    }

    /// `flock(2)` with `LOCK_NB` added. Returns false when another open file holds a conflicting
    /// lock (`EWOULDBLOCK`), retries `EINTR`.
    func tryLock(_ fd: Int32, _ operation: Int32, context: ErrorContext) throws(StoreError) -> Bool {
        do {
            try retrying("flock", context) { () throws(Errno) in try calls.system_flock(fd, operation | LOCK_NB) }
            return true
        } catch  where error.errno == EWOULDBLOCK {
            return false
        }
    }

    /// `ftruncate(2)`, retrying `EINTR`.
    func truncate(_ fd: Int32, to length: Int64, context: ErrorContext) throws(StoreError) {
        try retrying("ftruncate", context) { () throws(Errno) in try calls.system_ftruncate(fd, length) }
    }

    /// `link(2)`, retrying `EINTR`: a second name for the same file.
    package func hardLink(_ from: String, to: String, context: ErrorContext) throws(StoreError) {
        try retrying("link", context) { () throws(Errno) in try calls.system_link(from, to) }
    }

    /// `opendir(3)`/`readdir(3)`, retrying `EINTR`: every entry except `.` and `..`, unsorted.
    package func listDirectory(_ path: String, context: ErrorContext) throws(StoreError) -> [DirectoryEntry] {
        try retrying("readdir", context) { () throws(Errno) in try calls.system_readdir(path) }
    }

    /// Like `listDirectory`, but only the first `limit` entries whose names pass `include`.
    package func listDirectory(_ path: String, limit: Int = .max, including include: (String) -> Bool, context: ErrorContext) throws(StoreError)
        -> [DirectoryEntry]
    {
        try retrying("readdir", context) { () throws(Errno) in try calls.system_readdir(path, limit: limit, including: include) }
    }

    /// `listDirectory` without a `String` per entry: `visit` gets each name's bytes (valid only
    /// during the call) and type. `restart` is called before each attempt, the first included:
    /// `EINTR` restarts the listing, and what an interrupted attempt visited must be dropped.
    package func visitDirectory(
        _ path: String, context: ErrorContext, restart: () -> Void,
        visit: (UnsafeBufferPointer<UInt8>, FileType?) -> Void
    ) throws(StoreError) {
        try retrying("readdir", context) { () throws(Errno) in
            restart()
            try calls.system_readdir(path, visiting: visit)
        }
    }

    /// The file system type of the mount holding `path`, or nil when it cannot be told.
    package func fileSystemType(_ path: String, context: ErrorContext) throws(StoreError) -> String? {
        try retrying("statfs", context) { () throws(Errno) in try calls.system_fileSystemType(path) }
    }

    private func retrying<T>(
        _ syscall: String, _ context: ErrorContext, _ body: () throws(Errno) -> T
    ) throws(StoreError) -> T {
        while true {
            do {
                return try body()
            } catch let failure where failure.rawValue == EINTR {
                continue
            } catch {
                throw .systemCall(syscall, errno: error.rawValue, context: context)
            }
        }
    }

    private func once<T>(_ syscall: String, _ context: ErrorContext, _ body: () throws(Errno) -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch {
            throw .systemCall(syscall, errno: error.rawValue, context: context)
        }
    }
}
