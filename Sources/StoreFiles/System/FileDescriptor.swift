#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor, and its only owner (HOUSE-STYLE §2).
///
/// It cannot be copied, so exactly one value can close it; `close(context:)` and `discard()`
/// consume it, so it cannot be closed twice or used after closing (the compiler refuses both).
/// A descriptor nobody closed is discarded when its value ends: at the end of the scope that
/// holds it, also when that scope is left by an error. So `let fd = try FileDescriptor(...)`
/// replaces `open` plus `defer { close }`, and a leak cannot be written.
///
/// Every call still goes through `SystemCalls` (the fault seam), with the same arguments as
/// before: the methods here only pass `rawValue` on.
///
/// ```swift
/// let file = try FileDescriptor(opening: path, flags: O_RDONLY | O_CLOEXEC, system: system, context: context)
/// let bytes = try file.readAll(limit: limit, context: context)
/// // closed here, at the end of the scope
/// ```
package struct FileDescriptor: ~Copyable {
    /// The descriptor number, valid while this value lives; -1 once closed (then `deinit` does nothing).
    package private(set) var rawValue: Int32
    private let system: SystemCalls

    /// `open(2)` through `system`, retrying `EINTR`.
    package init(opening path: String, flags: Int32, mode: mode_t = 0, system: SystemCalls, context: ErrorContext) throws(StoreError) {
        self.rawValue = try system.open(path, flags: flags, mode: mode, context: context)
        self.system = system
    }

    /// A directory opened read-only, for `fsync`ing it after a rename or for `syncfs`.
    package static func directory(_ path: String, system: SystemCalls, context: ErrorContext) throws(StoreError) -> FileDescriptor {
        try FileDescriptor(opening: path, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, system: system, context: context)
    }

    deinit {
        if rawValue >= 0 { system.discard(rawValue) }
    }

    /// `close(2)`, reporting its error: for a file whose content matters (close can report a
    /// deferred write error; NFS does). See `SystemCalls.close` for why it is never retried.
    package consuming func close(context: ErrorContext) throws(StoreError) {
        let raw = rawValue
        rawValue = -1
        try system.close(raw, context: context)
    }

    /// `close(2)` ignoring errors, now rather than at the end of the scope (`SystemCalls.discard`).
    package consuming func discard() {
        let raw = rawValue
        rawValue = -1
        system.discard(raw)
    }

    /// Gives up ownership without closing: for `FileDescriptors`, which closes it instead.
    fileprivate consuming func releaseOwnership() -> Int32 {
        let raw = rawValue
        rawValue = -1
        return raw
    }

    // MARK: Calls on the descriptor (each is the `SystemCalls` method of the same name)

    package func writeAll(_ bytes: [UInt8], context: ErrorContext) throws(StoreError) {
        try system.writeAll(rawValue, bytes, context: context)
    }

    package func writeAll(_ bytes: [UInt8], at offset: Int64, context: ErrorContext) throws(StoreError) {
        try system.writeAll(rawValue, bytes, at: offset, context: context)
    }

    package func readAll(limit: Int, sizeHint: Int = 0, context: ErrorContext) throws(StoreError) -> [UInt8] {
        try system.readAll(rawValue, limit: limit, sizeHint: sizeHint, context: context)
    }

    package func sync(context: ErrorContext) throws(StoreError) {
        try system.sync(rawValue, context: context)
    }

    package func syncFileSystem(context: ErrorContext) throws(StoreError) -> Bool {
        try system.syncFileSystem(rawValue, context: context)
    }

    package func setPermissions(_ mode: mode_t, context: ErrorContext) throws(StoreError) {
        try system.setPermissions(rawValue, mode, context: context)
    }

    package func status(context: ErrorContext) throws(StoreError) -> FileStatus {
        try system.status(rawValue, context: context)
    }

    package func tryLock(_ operation: Int32, context: ErrorContext) throws(StoreError) -> Bool {
        try system.tryLock(rawValue, operation, context: context)
    }

    package func truncate(to length: Int64, context: ErrorContext) throws(StoreError) {
        try system.truncate(rawValue, to: length, context: context)
    }

    /// `flock(LOCK_UN)`, ignoring errors: closing releases the lock too.
    package func unlock() {
        do { try system.calls.system_flock(rawValue, LOCK_UN) } catch {
            // see above
        }
    }
}

/// Several open descriptors with one owner, for code that keeps a batch of files open at once
/// (`BatchCommit`); `Array` cannot hold a `~Copyable` `FileDescriptor`. Each slot is closed
/// once: by `close(_:context:)`, `discard(_:)`, or, for those still open, in order when the
/// value ends.
struct FileDescriptors: ~Copyable {
    private var slots: [Int32?] = []
    private let system: SystemCalls

    init(system: SystemCalls) { self.system = system }

    deinit {
        for case let raw? in slots { system.discard(raw) }
    }

    var count: Int { slots.count }
    var indices: Range<Int> { slots.indices }

    /// Takes ownership of `descriptor` (or of nothing, to keep indices aligned with other lists).
    mutating func append(_ descriptor: consuming FileDescriptor?) {
        slots.append(descriptor.take()?.releaseOwnership())
    }

    func isOpen(_ index: Int) -> Bool { slots[index] != nil }

    func sync(_ index: Int, context: ErrorContext) throws(StoreError) {
        try system.sync(open(index), context: context)
    }

    func syncFileSystem(_ index: Int, context: ErrorContext) throws(StoreError) -> Bool {
        try system.syncFileSystem(open(index), context: context)
    }

    /// `FileDescriptor.close(context:)` of one slot.
    mutating func close(_ index: Int, context: ErrorContext) throws(StoreError) {
        let raw = open(index)
        slots[index] = nil
        try system.close(raw, context: context)
    }

    /// `FileDescriptor.discard()` of one slot; nothing when it is not open.
    mutating func discard(_ index: Int) {
        guard let raw = slots[index] else { return }
        slots[index] = nil
        system.discard(raw)
    }

    private func open(_ index: Int) -> Int32 {
        guard let raw = slots[index] else { preconditionFailure("FileDescriptors: slot \(index) is closed") }
        return raw
    }
}
