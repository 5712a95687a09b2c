#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who can be seen holding a store's lock: the lock file's record (`LockHolder`), checked against
/// what the system shows, so that a "locked" error never names a process that does not hold it.
///
/// The record is written by this library's writers only. A program that takes the lock without
/// this library (`flock <store>/.lock …`) writes none, so the record then names the last holder
/// that did, often a process that has ended. The record is named only when its process runs and,
/// where the system tells who holds a flock (Linux: `/proc/locks`), holds the lock. Otherwise the
/// holder the system names is given, or the text says the holder can't be named.
package struct SeenLockHolder: Sendable, Equatable {
    /// The holder to name, or nil when it can't be told.
    package var holder: LockHolder?
    /// True when the lock file's record names a process that does not hold the lock.
    package var recordIsOutOfDate: Bool
    /// True when the system shows nobody holding the lock any more: its holder released it after
    /// this process's try failed, and the record names the last holder that wrote one.
    package var releasedSince = false

    /// "process 4242 (migrate-store 0.3.0) since 2026-11-21T12:01:00Z"; "process 6920 (flock)"
    /// (named by the system, the record being out of date); "a process this tool can't name";
    /// "another process (it left no readable record of who it is)".
    package var summary: String {
        if let holder { return holder.summary }
        return recordIsOutOfDate ? "a process this tool can't name" : LockHolder().summary
    }

    /// The sentence after the summary when the record is out of date, else nil.
    package var outOfDateNote: String? {
        guard recordIsOutOfDate else { return nil }
        return holder == nil
            ? "The lock file's record of its holder is out of date: that process no longer holds it."
            : "The lock file's record of its holder is out of date."
    }

    /// True when the holder is named by a process id (the advice is then to stop that process).
    package var isNamed: Bool { holder.map { !$0.isUnknown } ?? false }

    /// The record checked against `probe`.
    ///
    /// - Parameters:
    ///   - record: The lock file's record, as read.
    ///   - lockFile: The lock file's device and inode, when known (to find it in `/proc/locks`).
    package static func check(
        _ record: LockHolder, lockFile: (device: UInt64, inode: UInt64)?,
        probe: LockHolderProbe = .real
    ) -> SeenLockHolder {
        let local = record.host == nil || record.host == LockHolder.hostOfThisProcess
        if let lockFile, let holders = probe.flockHolders(lockFile.device, lockFile.inode) {
            if holders.isEmpty {
                // Released between this process's failed try and this look: the record names the
                // holder that released it, unless that was a program that writes none.
                return SeenLockHolder(holder: record.isUnknown ? nil : record, recordIsOutOfDate: false, releasedSince: true)
            }
            if local, let pid = record.pid, holders.contains(pid) { return SeenLockHolder(holder: record, recordIsOutOfDate: false) }
            let named = holders.first(where: probe.isRunning).map { LockHolder(pid: $0, tool: probe.commandName($0)) }
            return SeenLockHolder(holder: named, recordIsOutOfDate: !record.isUnknown)
        }
        // Portable: a record of this host whose process has ended is out of date. A record of
        // another host (a network share) can't be checked from here and is named as it is.
        if record.isUnknown { return SeenLockHolder(holder: nil, recordIsOutOfDate: false) }
        guard local, let pid = record.pid, !probe.isRunning(pid) else { return SeenLockHolder(holder: record, recordIsOutOfDate: false) }
        return SeenLockHolder(holder: nil, recordIsOutOfDate: true)
    }
}

/// What the system tells about processes and flock holders, as `SeenLockHolder.check` asks it
/// (a seam: tests give fixed answers).
package struct LockHolderProbe: Sendable {
    /// True when a process with this id exists (it may belong to another user).
    package var isRunning: @Sendable (Int32) -> Bool
    /// The ids of the processes holding a flock on the file (device, inode), or nil when the system
    /// can't tell (not Linux, `/proc/locks` unreadable).
    package var flockHolders: @Sendable (_ device: UInt64, _ inode: UInt64) -> [Int32]?
    /// A process's command name (Linux: `/proc/<pid>/comm`), or nil.
    package var commandName: @Sendable (Int32) -> String?

    package init(
        isRunning: @escaping @Sendable (Int32) -> Bool,
        flockHolders: @escaping @Sendable (_ device: UInt64, _ inode: UInt64) -> [Int32]?,
        commandName: @escaping @Sendable (Int32) -> String?
    ) {
        self.isRunning = isRunning; self.flockHolders = flockHolders; self.commandName = commandName
    }

    /// The system's answers.
    package static let real = LockHolderProbe(isRunning: processExists, flockHolders: ProcLocks.holders, commandName: ProcLocks.commandName)

    /// `kill(pid, 0)`: 0, or `EPERM` (it exists but belongs to another user), means it exists.
    static func processExists(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
