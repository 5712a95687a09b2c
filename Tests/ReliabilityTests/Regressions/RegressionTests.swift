import Foundation
import Schema
import Testing

@testable import JSONStore

/// One test per defect the reliability suites found, at the library level (the suites that found
/// them run the built tool too; see RELIABILITY.md, "Defects found"). Defect 3 (a writable open
/// finished an interrupted restore through the real file system instead of the given seam) is
/// covered by `PowerLossTests.restoreCutByPowerLossLeavesOldOrRestoredStoreAfterRecovery`, which
/// fails without the fix.
@Suite struct RegressionTests {
    /// Defect 1: a store whose `sessions/` was a symbolic link was read through the link (its
    /// documents listed and migrated) and written through it (temp files, documents).
    @Test func linkedSessionsFolderIsRefusedBeforeAnythingIsListedOrWritten() throws {
        let model = ModelFileSystem()
        let system = SystemCalls(calls: model)
        _ = try Store.create(at: "/store", options: PowerLossWorkloads.options, now: PowerLossWorkloads.t0, system: system)
        // The model has no links: a seam that reports one where `sessions` is, and counts what follows.
        let linked = LinkedFolderCalls(model, linkedPath: "/store/sessions")
        for options in [PowerLossWorkloads.options, Store.Options(readOnly: true)] {
            let error = #expect(throws: StoreError.self) { _ = try Store.open(at: "/store", options: options, system: SystemCalls(calls: linked)) }
            #expect(error?.code == .symlinkRefused)
            #expect(error?.path == "/store/sessions")
            #expect(
                error?.message == "Can't open '/store': '/store/sessions' is a symbolic link, which the store never follows. "
                    + "Replace the link with the folder it points to.")
        }
        #expect(linked.listedOrWrittenBelowLink == [])
    }

    /// Defect 2: `verify` said "Verified" for a store whose settings.json can't be read.
    @Test func verifyReportsAnUnreadableSettingsFile() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copy(Samples.v2Store, as: "store")
        try Data("{\"schema_version\": 2,".utf8).write(to: URL(fileURLWithPath: store + "/settings.json"))
        let result = try StoreVerifier(store: try Store.open(at: store, options: .readOnly)).verify()
        #expect(!result.passed)
        #expect(result.unreadable.map(\.path) == [store + "/settings.json"])
        #expect(result.unreadable.first?.code == .corruptDocument)
    }
}

extension RegressionTests {
    /// Defect 4: when renaming a migrated work stream over its document failed, the migration
    /// removed the temp files of the sessions after it but left that session's own. Also with the
    /// folder exchange, where the renames that fail are those of queue.json and the customisations.
    @Test(arguments: [1, 2, 3], [false, true])
    func failedRenameDuringMigrationLeavesNoTempFile(failing renameNumber: Int, exchange: Bool) throws {
        let model = ModelFileSystem(try PowerLossWorkloads.v1Store())
        model.supportsExchange = exchange
        // With the exchange no work stream is renamed: the renames around it fail (queue.json
        // before, the customisations after).
        let calls = FailingRename(model, failing: renameNumber, under: exchange ? "/store/" : "/store/sessions/")
        let system = SystemCalls(calls: calls)
        let store = try Store.open(at: "/store", options: PowerLossWorkloads.options, system: system)
        let error = #expect(throws: StoreError.self) { _ = try StoreMigrator(store: store).migrate(toolVersion: "1") }
        #expect(error?.code == .permissionDenied && error?.syscall == "rename")
        #expect(model.current.files(includeDotNames: true).keys.filter { $0.contains("/.tmp-") }.sorted() == [])
        #expect(!model.current.directories().contains("/store/" + StoreMigrator.exchangeFolderName))
    }
}

extension RegressionTests {
    /// Defect 5: when opening the sessions folder for the renames failed, a migration left every
    /// staged temp file behind. Every open of that folder is failed in turn, with and without the
    /// folder exchange.
    @Test(arguments: [false, true])
    func failedOpenOfSessionsFolderDuringMigrationLeavesNoTempFile(exchange: Bool) throws {
        var failedRuns = 0
        for number in 1...20 {
            let model = ModelFileSystem(try PowerLossWorkloads.v1Store())
            model.supportsExchange = exchange
            // With the exchange, the folder opened is the staging folder that becomes `sessions/`;
            // without it, `sessions/` itself.
            let folder = exchange ? "/store/" + StoreMigrator.exchangeFolderName : "/store/sessions"
            let calls = FailingFolderOpen(model, folder: folder, failing: number)
            let store = try Store.open(at: "/store", options: PowerLossWorkloads.options, system: SystemCalls(calls: calls))
            do {
                _ = try StoreMigrator(store: store).migrate(toolVersion: "1")
                break  // fewer opens than `number`: every open was tried
            } catch {
                failedRuns += 1
                #expect(error.code == .io && error.syscall == "open", "open \(number): \(error)")
                #expect(model.current.files(includeDotNames: true).keys.filter { $0.contains("/.tmp-") }.sorted() == [], "open \(number)")
                #expect(!model.current.directories().contains("/store/" + StoreMigrator.exchangeFolderName), "open \(number)")
            }
        }
        // The exchange opens its staging folder once, to set its mode; without it, `sessions/` is
        // opened once, to make the renames durable (the barrier before them goes through the store
        // folder's descriptor, opened before staging wrote anything).
        #expect(failedRuns >= 1)
    }
}

/// Fails the `number`-th `open` of `folder` itself (not of a file in it) with EIO.
final class FailingFolderOpen: ForwardingCalls, @unchecked Sendable {
    private let folder: String, number: Int
    private let lock = NSLock()
    private var seen = 0

    init(_ base: ModelFileSystem, folder: String, failing number: Int) {
        self.folder = folder
        self.number = number
        super.init(base)
    }

    override func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        if path == folder {
            lock.lock(); seen += 1; let hit = seen == number; lock.unlock()
            if hit { throw Errno(EIO) }
        }
        return try base.system_open(path, flags, mode)
    }
}

/// Fails the `number`-th rename into `/store/sessions/` with EACCES (doing nothing).
final class FailingRename: ForwardingCalls, @unchecked Sendable {
    private let number: Int
    private let prefix: String
    private let lock = NSLock()
    private var seen = 0

    init(_ base: ModelFileSystem, failing number: Int, under prefix: String = "/store/sessions/") {
        self.number = number
        self.prefix = prefix
        super.init(base)
    }

    override func system_rename(_ from: String, _ to: String) throws(Errno) {
        if to.hasPrefix(prefix) {
            lock.lock(); seen += 1; let hit = seen == number; lock.unlock()
            if hit { throw Errno(EACCES) }
        }
        try base.system_rename(from, to)
    }
}

/// Reports a symbolic link at `linkedPath` to `lstat`, and records every call that would list or
/// write below it.
final class LinkedFolderCalls: ForwardingCalls, @unchecked Sendable {
    let linkedPath: String
    private let lock = NSLock()
    private var touched: [String] = []

    init(_ base: ModelFileSystem, linkedPath: String) {
        self.linkedPath = linkedPath
        super.init(base)
    }

    var listedOrWrittenBelowLink: [String] { lock.lock(); defer { lock.unlock() }; return touched }

    private func note(_ call: String, _ path: String) {
        guard path == linkedPath || path.hasPrefix(linkedPath + "/") else { return }
        lock.lock(); touched.append("\(call) \(path)"); lock.unlock()
    }

    override func system_lstat(_ path: String) throws(Errno) -> FileStatus {
        var status = try base.system_lstat(path)
        if path == linkedPath { status.mode = 0o120777 }
        return status
    }
    override func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] { note("readdir", path); return try base.system_readdir(path) }
    override func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        note("open", path); return try base.system_open(path, flags, mode)
    }
    override func system_rename(_ from: String, _ to: String) throws(Errno) { note("rename", to); try base.system_rename(from, to) }
    override func system_unlink(_ path: String) throws(Errno) { note("unlink", path); try base.system_unlink(path) }
}

extension RegressionTests {
    /// Linux's `syncfs` reports only the write-back errors that happened since the descriptor it is
    /// given was opened (man 2 syncfs): the descriptor of a migration's barrier must be older than
    /// every file its staging wrote, or a failed write-back of a staged document goes unreported.
    @Test(arguments: [false, true])
    func theMigrationsBarrierGoesThroughADescriptorOpenedBeforeItsFirstStagedFile(exchange: Bool) throws {
        let model = ModelFileSystem(try PowerLossWorkloads.v1Store())
        model.supportsExchange = exchange
        let calls = BarrierOrderRecorder(model)
        let store = try Store.open(at: "/store", options: PowerLossWorkloads.options, system: SystemCalls(calls: calls))
        _ = try StoreMigrator(store: store).migrate(toolVersion: "1")
        let (firstStaged, barriers) = calls.result
        let staged = try #require(firstStaged, "the migration staged no file")
        let first = try #require(barriers.first, "no syncfs: the model's file system type should make it the barrier")
        #expect(first < staged, "the work streams' barrier descriptor was opened after the first staged file")
    }
}

/// Numbers every `open`, and records the first staged file's and each `syncfs` descriptor's.
final class BarrierOrderRecorder: ForwardingCalls, @unchecked Sendable {
    private let lock = NSLock()
    private var opens = 0
    private var openedAt: [Int32: Int] = [:]
    private var firstStaged: Int?
    private var barriers: [Int] = []

    override func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        let fd = try base.system_open(path, flags, mode)
        let staging = path.hasPrefix("/store/sessions/") || path.hasPrefix("/store/" + StoreMigrator.exchangeFolderName + "/")
        lock.withLock {
            opens += 1
            openedAt[fd] = opens
            if flags & O_CREAT != 0, staging, firstStaged == nil { firstStaged = opens }
        }
        return fd
    }
    override func system_syncfs(_ fd: Int32) throws(Errno) {
        lock.withLock { barriers.append(openedAt[fd] ?? Int.max) }
        try base.system_syncfs(fd)
    }
    var result: (firstStaged: Int?, barriers: [Int]) { lock.withLock { (firstStaged, barriers) } }
}
