import Foundation
import Testing

@testable import JSONStore
@testable import StoreCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The "locked" error names the holder it can see: the lock file's record only when its process
/// runs and (where the system tells, Linux's /proc/locks) holds the lock; else the holder the
/// system names, or "a process this tool can't name". It used to name the record as it was.
@Suite struct SeenLockHolderTests {
    static let record = LockHolder(pid: 4242, tool: "migrate-store", version: "0.3.0", since: "2026-11-21T12:01:00Z")
    static let file = (device: UInt64(0xfe00), inode: UInt64(16_220_882))

    static func probe(running: Set<Int32>, holders: [Int32]?, names: [Int32: String] = [:]) -> LockHolderProbe {
        LockHolderProbe(isRunning: { running.contains($0) }, flockHolders: { _, _ in holders }, commandName: { names[$0] })
    }

    static func message(_ seen: SeenLockHolder) -> String { StoreLock.lockedError(store: "/s", holder: seen).message }

    @Test func aRecordWhoseProcessRunsIsNamed() {
        let seen = SeenLockHolder.check(Self.record, lockFile: Self.file, probe: Self.probe(running: [4242], holders: nil))
        #expect(
            Self.message(seen) == "Can't write '/s': it is locked by process 4242 (migrate-store 0.3.0) since 2026-11-21T12:01:00Z. "
                + "Wait for it to finish, or stop that process.")
    }

    @Test func aRecordWhoseProcessEndedIsNotNamed() {
        let seen = SeenLockHolder.check(Self.record, lockFile: Self.file, probe: Self.probe(running: [], holders: nil))
        #expect(seen == SeenLockHolder(holder: nil, recordIsOutOfDate: true))
        #expect(
            Self.message(seen) == "Can't write '/s': it is locked by a process this tool can't name. The lock file's record of "
                + "its holder is out of date: that process no longer holds it. Wait for it to finish, or find it with 'lsof /s/.lock'.")
    }

    @Test func theFlockHolderTheSystemNamesWinsOverTheRecord() {
        let probe = Self.probe(running: [4242, 6920], holders: [6920], names: [6920: "flock"])
        let seen = SeenLockHolder.check(Self.record, lockFile: Self.file, probe: probe)
        #expect(
            Self.message(seen) == "Can't write '/s': it is locked by process 6920 (flock). The lock file's record of its holder "
                + "is out of date. Wait for it to finish, or stop that process.", "4242 runs, but does not hold the lock")
        let own = SeenLockHolder.check(Self.record, lockFile: Self.file, probe: Self.probe(running: [4242], holders: [4242]))
        #expect(own == SeenLockHolder(holder: Self.record, recordIsOutOfDate: false))
        let gone = SeenLockHolder.check(Self.record, lockFile: Self.file, probe: Self.probe(running: [], holders: [6920]))
        #expect(gone == SeenLockHolder(holder: nil, recordIsOutOfDate: true), "the holder listed has ended (its descriptor lives on in a child)")
        let unrecorded = SeenLockHolder.check(LockHolder(), lockFile: Self.file, probe: probe)
        #expect(Self.message(unrecorded) == "Can't write '/s': it is locked by process 6920 (flock). Wait for it to finish, or stop that process.")
    }

    /// The lock released between the failed try and the look at /proc/locks (a writer racing
    /// `migrate`): the error says the lock is free now, names the record only as the last holder
    /// it records, and advises to run again.
    /// Failed before: "a process this tool can't name ... no longer holds it", for a process
    /// that had held it a moment before.
    @Test func aLockReleasedSinceTheTryNamesItsLastRecordedHolder() {
        let seen = SeenLockHolder.check(Self.record, lockFile: Self.file, probe: Self.probe(running: [], holders: []))
        #expect(seen == SeenLockHolder(holder: Self.record, recordIsOutOfDate: false, releasedSince: true))
        #expect(
            Self.message(seen) == "Can't write '/s': it was locked when this tried, and is free now (the lock file names process 4242 "
                + "(migrate-store 0.3.0) since 2026-11-21T12:01:00Z as its last holder). Run the command again.")
    }

    @Test func aRecordOfAnotherHostCantBeCheckedAndIsNamed() {
        var remote = Self.record
        remote.host = "elsewhere.local"
        let seen = SeenLockHolder.check(remote, lockFile: Self.file, probe: Self.probe(running: [], holders: nil))
        #expect(seen == SeenLockHolder(holder: remote, recordIsOutOfDate: false))
    }

    @Test func procLocksListsTheFlockHoldersOfOneFile() {
        let text = """
            1: FLOCK  ADVISORY  WRITE 6920 fe:00:16220882 0 EOF
            1: -> FLOCK  ADVISORY  WRITE 7001 fe:00:16220882 0 EOF
            2: POSIX  ADVISORY  WRITE 6848 fe:00:16220882 0 EOF
            3: FLOCK  ADVISORY  WRITE 5092 fe:00:16220589 0 EOF
            4: FLOCK  ADVISORY  READ 5100 fe:01:16220882 0 EOF
            5: FLOCK  ADVISORY  READ 0 fe:00:16220882 0 EOF
            6: FLOCK  ADVISORY  READ 5101 fe:00:16220882 0 EOF

            """
        #expect(ProcLocks.holders(in: text, major: 0xfe, minor: 0, inode: 16_220_882) == [6920, 5101])
        #expect(ProcLocks.linuxMajor(0xfe00) == 0xfe && ProcLocks.linuxMinor(0xfe00) == 0)
        #expect(ProcLocks.linuxMajor(0x1000_0000_0803) == 0x1008 && ProcLocks.linuxMinor(0x1000_0000_0803) == 3, "glibc's encoding")
        #expect(ProcLocks.linuxMajor(0x0123_4567) == 0x345 && ProcLocks.linuxMinor(0x0123_4567) == 0x1267)
    }

    /// The case of the report: another program (`flock(1)`, not this library) holds the lock, and
    /// the record names a process of this tool that has ended. Linux names flock; elsewhere the
    /// text says it can't name the holder. The ended process is named nowhere.
    @Test(.timeLimit(.minutes(1)))
    func aLockHeldByAnotherProgramDoesNotNameAnEndedRecordedHolder() throws {
        let flock = BuiltTool.which("flock")
        guard FileManager.default.isExecutableFile(atPath: flock) else {
            Issue.record("flock(1) is not installed (util-linux): this test needs it")
            return
        }
        let dir = TemporaryDirectory()
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/sh")
        ended.arguments = ["-c", "exit 0"]
        try ended.run()
        ended.waitUntilExit()
        let dead = ended.processIdentifier
        var stale = Self.record
        stale.pid = dead
        stale.host = LockHolder.hostOfThisProcess
        try Data(stale.encoded).write(to: URL(fileURLWithPath: dir(".lock")))

        // `flock -o <file> cat`: flock holds the lock (not cat) until cat ends with its input.
        let holder = Process()
        let input = Pipe()
        holder.executableURL = URL(fileURLWithPath: flock)
        holder.arguments = ["-o", dir(".lock"), "cat"]
        holder.standardInput = input
        try holder.run()
        defer {
            do { try input.fileHandleForWriting.close() } catch { Issue.record("closing flock's input: \(error)") }
            holder.waitUntilExit()
        }
        let start = ContinuousClock.now
        while try StoreLock.currentHolder(store: dir.path) == nil {
            try #require(ContinuousClock.now - start < .seconds(20), "flock did not take the lock")
            usleep(10_000)
        }

        let error = #expect(throws: StoreError.self) { _ = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero) }
        let message = try #require(error?.message)
        #expect(!message.contains("process \(dead)"), "\(message)")
        let status = try #require(try StoreLock.currentSeenHolder(store: dir.path))
        #expect(!status.summary.contains("process \(dead)"))
        #if os(Linux)
        #expect(
            message == "Can't write '\(dir.path)': it is locked by process \(holder.processIdentifier) (flock). The lock file's "
                + "record of its holder is out of date. Wait for it to finish, or stop that process.")
        #else
        #expect(message.hasPrefix("Can't write '\(dir.path)': it is locked by a process this tool can't name."), "\(message)")
        #endif
    }
}
