import Foundation
import StoreJSON
import Testing

@testable import JSONStore
@testable import StoreCore

/// Issue 19, the `.writes` record around one update: a writer checks the folders against the
/// record it stored last itself (`WriterGate.lastStoredRecord`) before it reads `.writes`, and an
/// update (`groupWriting`, one document) takes again only the entry of the folder it wrote.
@Suite struct WriteRecordOwnTests {
    static func recordPath(_ store: String) -> String { store + "/" + StoreLayout.Bookkeeping.writeRecord }

    static func count(_ line: String, in log: [String]) -> Int { log.filter { $0 == line }.count }

    /// A store on a seam of its own (its own `WriterGate`: no record kept from another test).
    static func open(_ path: String, _ calls: PathLoggingCalls) throws -> Store {
        try Store.open(at: path, options: Store.Options(), system: SystemCalls(calls: calls))
    }

    @Test func aSecondUpdateChecksTheRecordStoredByTheFirstAndReadsNoRecordFile() throws {
        let dir = TemporaryDirectory()
        let (path, ids) = try ConstantTimeOpenTests.populated(dir, count: 3)
        let calls = PathLoggingCalls()
        let store = try Self.open(path, calls)
        let record = "open " + Self.recordPath(path)
        let opened = Self.count(record, in: calls.log)
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 1 }
        // The first update of this gate: `.writes` read, then written.
        #expect(Self.count(record, in: calls.log) == opened + 2)
        try store.updateWorkStream(ids[1]) { $0.fields.unreadCount = 2 }
        // The second: written only (the record stored by the first equals the folders).
        #expect(Self.count(record, in: calls.log) == opened + 3)
        #expect(try WriteRecord.matches(store: path, system: .real))
        #expect(try Store.open(at: path, options: .readOnly).workStream(ids[1]).fields.unreadCount == 2)
    }

    /// An update takes all four tracked entries before it writes and, after, only the folder it wrote.
    @Test func anUpdateTakesTheTrackedEntriesFourTimesBeforeAndItsFolderOnceAfter() throws {
        let dir = TemporaryDirectory()
        let (path, ids) = try ConstantTimeOpenTests.populated(dir, count: 3)
        let calls = PathLoggingCalls()
        let store = try Self.open(path, calls)
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 1 }
        let before = calls.log.count
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 2 }
        let log = Array(calls.log[before...])
        #expect(Self.count("lstat \(path)/sessions", in: log) == 2)
        #expect(Self.count("lstat \(path)/work-streams", in: log) == 1)
        #expect(Self.count("lstat \(path)/user-sessions", in: log) == 1)
        #expect(Self.count("lstat \(path)/queue.json", in: log) == 1)
        #expect(try WriteRecord.matches(store: path, system: .real))
    }

    /// Another process wrote (and recorded) since this one's last write: the folders differ from
    /// this process's record, so `.writes` is read, matches, and the update records again.
    @Test func aRecordAnotherWriterStoredSinceIsReadAndTrusted() throws {
        let dir = TemporaryDirectory()
        let (path, ids) = try ConstantTimeOpenTests.populated(dir, count: 3)
        let calls = PathLoggingCalls()
        let store = try Self.open(path, calls)
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 1 }
        // Another process: another gate (another seam), the same store.
        let other = try Self.open(path, PathLoggingCalls())
        try other.updateWorkStream(ids[1]) { $0.fields.unreadCount = 5 }
        #expect(try WriteRecord.matches(store: path, system: .real))
        let record = "open " + Self.recordPath(path)
        let opened = Self.count(record, in: calls.log)
        try store.updateWorkStream(ids[2]) { $0.fields.unreadCount = 6 }
        #expect(Self.count(record, in: calls.log) == opened + 2)
        #expect(try WriteRecord.matches(store: path, system: .real))
    }

    /// `.writes` torn (two processes storing at once, or any stray write) while the folders are
    /// still as this process's last write left them: the next write stores a whole record again.
    @Test func aTornRecordIsReplacedByTheNextWriteWhileTheFoldersAreAsThisProcessLeftThem() throws {
        let dir = TemporaryDirectory()
        let (path, ids) = try ConstantTimeOpenTests.populated(dir, count: 3)
        let store = try Self.open(path, PathLoggingCalls())
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 1 }
        var torn = Array(try Data(contentsOf: URL(fileURLWithPath: Self.recordPath(path))))
        torn[30] ^= 0x01
        try Data(torn).write(to: URL(fileURLWithPath: Self.recordPath(path)))
        #expect(try !WriteRecord.matches(store: path, system: .real))
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 2 }
        #expect(try WriteRecord.matches(store: path, system: .real))
    }

    /// `WriteRecord.remove` (a migration's, in this process) also forgets the kept record: the
    /// next write finds no record and stores none.
    @Test func afterTheRecordIsRemovedTheNextWriteStoresNone() throws {
        let dir = TemporaryDirectory()
        let (path, ids) = try ConstantTimeOpenTests.populated(dir, count: 3)
        let calls = PathLoggingCalls()
        let system = SystemCalls(calls: calls)
        let store = try Store.open(at: path, options: Store.Options(), system: system)
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 1 }
        try WriteRecord.remove(store: path, system: system)
        try store.updateWorkStream(ids[0]) { $0.fields.unreadCount = 2 }
        #expect(!FileManager.default.fileExists(atPath: Self.recordPath(path)))
        #expect(try Store.open(at: path, options: .readOnly).workStream(ids[0]).fields.unreadCount == 2)
    }

    /// Another program (one that ignores the lock) replaces `queue.json` while an update writes its
    /// document: the record stored after the update keeps `queue.json` as it was before the
    /// update, so it disagrees, and the next open checks in full (it used to be taken for the
    /// update's own change).
    @Test func aForeignRenameOverQueueJSONDuringAnUpdateIsNotVouchedFor() throws {
        let dir = TemporaryDirectory()
        let (path, ids) = try ConstantTimeOpenTests.populated(dir, count: 4)
        let queueFile = path + "/" + StoreLayout.queue
        let calls = PathLoggingCalls(
            afterRenameTo: (
                StoreLayout.documentFileName(ids[1]),
                {
                    do {
                        var queue = try QueueV2(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: queueFile))), acceptingNewerVersions: true)
                        queue.fifo.removeAll { $0.workStreamID == ids[0] }
                        try ConstantTimeOpenTests.writeAsOlderApp(queue.encoded, to: queueFile)
                    } catch {
                        Issue.record("the other program's write failed: \(error)")
                    }
                }
            ))
        let store = try Self.open(path, calls)
        #expect(try WriteRecord.matches(store: path, system: .real))
        try store.updateWorkStream(ids[1]) { $0.fields.unreadCount = 3 }
        #expect(try !WriteRecord.matches(store: path, system: .real))
        let opening = PathLoggingCalls()
        let reopened = try Store.open(at: path, options: Store.Options(), system: SystemCalls(calls: opening))
        #expect(opening.log.contains("readdir \(path)/sessions"), "the open did not check the store in full")
        #expect(RollbackCheck.checkMirror(sessions: try reopened.listWorkStreams().items.map(\.queueSummary), queue: try reopened.queue()) == nil)
    }
}
