import Foundation
import Testing
@testable import JSONStore
import StoreJSON

/// Issue 19, the `.writes` record around one update: a writer checks the folders against the
/// record it stored last itself (`WriterGate.lastStoredRecord`) before it reads `.writes`.
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
}
