import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// A migration commits the work streams by exchanging `sessions/` with a folder that staging
/// wrote the changed documents into and the others are linked into (`StoreMigrator+Exchange`), or
/// file by file where that cannot be done; both end byte-identical.
@Suite struct MigrationExchangeTests {
    static let generator = StoreGenerator(seed: 41, workStreams: 40, messagesPerStream: 3)
    static let exchangeFolder = StoreMigrator.exchangeFolderName

    /// A generated v1 store in `dir`, and the tree a migration without any fault gives it.
    static func v1Store(_ dir: TemporaryDirectory, _ name: String = "store") throws -> String {
        let path = dir(name)
        _ = try generator.write(to: path)
        return path
    }

    static func migrate(_ path: String, calls: FaultInjectingCalls? = nil) throws -> MigrationReport {
        let system = calls.map { SystemCalls(calls: $0) } ?? .real
        let store = try Store.open(at: path, options: Store.Options(), system: system)
        return try StoreMigrator(store: store).migrate(toolVersion: "test")
    }

    static func inode(_ path: String) throws -> UInt64 {
        try #require(try SystemCalls.real.linkStatus(path, context: ErrorContext("test", path))).inode
    }

    static func entries(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    /// The reference: the same store migrated on a seam that cannot exchange (file by file).
    static func migratedByRenames(_ dir: TemporaryDirectory) throws -> [String: [UInt8]] {
        let path = try v1Store(dir, "reference")
        let calls = FaultInjectingCalls(.init(callNumber: 1, kinds: ["exchange"], fault: .error(EINVAL), persistent: true))
        _ = try migrate(path, calls: calls)
        #expect(calls.count("exchange") == 1 && !calls.succeeded("exchange") && calls.count("rename") >= 40)
        #expect(!FileManager.default.fileExists(atPath: path + "/" + exchangeFolder))
        return try documents(path)
    }

    /// Every file of the store but store.json (whose migration record holds times).
    static func documents(_ path: String) throws -> [String: [UInt8]] {
        var tree = TestSupport.tree(path)
        tree["store.json"] = nil
        return tree
    }

    @Test func upgradeExchangesTheFolderAndEndsByteIdenticalToFileByFileRenames() throws {
        let dir = TemporaryDirectory()
        let path = try Self.v1Store(dir)
        let before = try Self.inode(path + "/sessions")
        let calls = FaultInjectingCalls()
        let report = try Self.migrate(path, calls: calls)
        #expect(calls.succeeded("exchange") && calls.count("exchange") == 1)
        // Every work stream changed: each was staged in the exchanged folder, none linked, no temp file.
        #expect(calls.count("link") == 0)
        // The work streams' renames are gone: only queue.json, customisations, settings, store.json.
        #expect(calls.count("rename") == 3 + (try Self.entries(path + "/user-sessions").count))
        #expect(report.filesChanged > 40)
        #expect(try Self.inode(path + "/sessions") != before)
        #expect(try Self.entries(path) == [".lock", "queue.json", "sessions", "settings.json", "store.json", "user-sessions"])
        #expect(try Self.entries(path + "/sessions").count == 40)
        #expect(try Self.documents(path) == (try Self.migratedByRenames(dir)))
    }

    @Test func exchangeKeepsOtherDotFilesTheFoldersModeAndEachDocumentsMode() throws {
        let dir = TemporaryDirectory()
        let path = try Self.v1Store(dir)
        let sessions = path + "/sessions"
        let note = Array("a user's own bookkeeping\n".utf8)
        try Data(note).write(to: URL(fileURLWithPath: sessions + "/.DS_Store"))
        let document = try #require(try Self.entries(sessions).first { !$0.hasPrefix(".") })
        #expect(chmod(sessions + "/" + document, 0o640) == 0)
        #expect(chmod(sessions, 0o750) == 0)
        let calls = FaultInjectingCalls()
        _ = try Self.migrate(path, calls: calls)
        #expect(calls.succeeded("exchange"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: sessions + "/.DS_Store"))) == note)
        let folder = try #require(try SystemCalls.real.linkStatus(sessions, context: ErrorContext("test", sessions)))
        let file = try #require(try SystemCalls.real.linkStatus(sessions + "/" + document, context: ErrorContext("test", sessions)))
        #expect(folder.permissions == 0o750)
        #expect(file.permissions == 0o640)
    }

    /// Staging wrote every changed work stream into the exchange folder; the first link (of a
    /// user's file in `sessions/`) fails: the staged files are renamed out of that folder instead.
    @Test(arguments: [EPERM, EXDEV, EMLINK, ENOTSUP])
    func fileSystemWithoutHardLinksFallsBackToRenamesWithTheSameBytes(_ errno: Int32) throws {
        let dir = TemporaryDirectory()
        let path = try Self.v1Store(dir)
        let note = Array("a user's own bookkeeping\n".utf8)
        try Data(note).write(to: URL(fileURLWithPath: path + "/sessions/.DS_Store"))
        let calls = FaultInjectingCalls(.init(callNumber: 1, kinds: ["link"], fault: .error(errno)))
        _ = try Self.migrate(path, calls: calls)
        #expect(calls.count("link") == 1 && calls.count("exchange") == 0 && calls.count("rename") >= 40)
        #expect(!FileManager.default.fileExists(atPath: path + "/" + Self.exchangeFolder))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path + "/sessions/.DS_Store"))) == note)
        #expect(try Self.documents(path) == (try Self.migratedByRenames(dir)))
    }

    @Test func aFolderInsideSessionsFallsBackToRenamesAndIsLeftAlone() throws {
        let dir = TemporaryDirectory()
        let path = try Self.v1Store(dir)
        try FileManager.default.createDirectory(atPath: path + "/sessions/.cache", withIntermediateDirectories: false)
        let calls = FaultInjectingCalls()
        _ = try Self.migrate(path, calls: calls)
        #expect(calls.count("exchange") == 0 && calls.count("rename") >= 40)
        #expect(FileManager.default.fileExists(atPath: path + "/sessions/.cache"))
        #expect(!FileManager.default.fileExists(atPath: path + "/" + Self.exchangeFolder))
        #expect(try Self.documents(path) == (try Self.migratedByRenames(dir)))
    }

    /// Every failure before the exchange (making the folder staging writes into, giving it the mode
    /// of `sessions/`, writing a staged file, linking a user's file, the exchange itself) leaves every work stream and
    /// customisation byte-identical, with no temp file and no exchange folder. (queue.json,
    /// written after staging and before the work streams, stays: a v1 reader ignores it.)
    @Test func aFailureBeforeTheExchangeChangesNothingAndLeavesNothing() throws {
        let dir = TemporaryDirectory()
        let note = Array("a user's own bookkeeping\n".utf8)
        func store(_ name: String) throws -> String {
            let path = try Self.v1Store(dir, name)
            try Data(note).write(to: URL(fileURLWithPath: path + "/sessions/.DS_Store"))
            return path
        }
        let pristine = tree(try store("pristine"))
        var injected = 0
        for (kind, number, staged) in [("mkdir", 1, false), ("fchmod", 1, false), ("write", 5, false), ("link", 1, true), ("exchange", 1, true)] {
            let path = try store("store-\(kind)-\(number)")
            let calls = FaultInjectingCalls(.init(callNumber: number, kinds: [kind], fault: .error(EIO)))
            #expect(throws: StoreError.self) { try Self.migrate(path, calls: calls) }
            #expect(calls.injected.count == 1, "\(kind) #\(number) was not reached")
            injected += calls.injected.count
            var tree = TestSupport.tree(path)
            #expect((tree.removeValue(forKey: "queue.json") != nil) == staged, "\(kind) #\(number)")
            #expect(tree == pristine, "\(kind) #\(number)")
            let leftovers =
                try Self.entries(path).filter { $0.hasPrefix(".") && $0 != ".lock" }
                + (try Self.entries(path + "/sessions").filter { $0.hasPrefix(".") && $0 != ".DS_Store" })
            #expect(leftovers.isEmpty, "\(kind) #\(number): \(leftovers)")
        }
        #expect(injected == 5)
    }

    @Test func aLeftoverExchangeFolderIsRemovedWhenTheStoreIsOpenedForWriting() throws {
        let dir = TemporaryDirectory()
        let path = try Self.v1Store(dir)
        _ = try Self.migrate(path)
        // As after a crash right after the exchange: the old folder, with documents, still there.
        let leftover = path + "/" + Self.exchangeFolder
        try FileManager.default.copyItem(atPath: path + "/sessions", toPath: leftover)
        let migrated = tree(path)
        #expect(try StoreMigrator(store: try Store.open(at: path, options: .readOnly)).hasLeftoverTemporaryFiles())
        _ = try Store.open(at: path)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(tree(path) == migrated)
        #expect(!(try StoreMigrator(store: try Store.open(at: path, options: .readOnly)).hasLeftoverTemporaryFiles()))
    }

    @Test func exchangeIsChosenWhenAtLeastAQuarterOfTheWorkStreamsChange() {
        #expect(!StoreMigrator.prefersExchange(changed: 0, total: 0))
        #expect(!StoreMigrator.prefersExchange(changed: 0, total: 10))
        #expect(StoreMigrator.prefersExchange(changed: 1, total: 1))
        #expect(StoreMigrator.prefersExchange(changed: 25, total: 100))
        #expect(!StoreMigrator.prefersExchange(changed: 24, total: 100))
        #expect(StoreMigrator.prefersExchange(changed: 10_000, total: 10_000))
    }

    /// A v2 store touched by a v1 writer on one work stream of 40: renamed in place, no exchange
    /// (the §7 reconcile runs when the store is opened for writing).
    @Test func reconcilingFewWorkStreamsRenamesThemInPlace() throws {
        let dir = TemporaryDirectory()
        let path = try Self.v1Store(dir)
        _ = try Self.migrate(path)
        let sessions = path + "/sessions"
        let document = try #require(try Self.entries(sessions).first)
        var text = try String(contentsOfFile: sessions + "/" + document, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"schema_version\": 4", with: "\"schema_version\": 1")
        try text.write(toFile: sessions + "/" + document, atomically: false, encoding: .utf8)
        let before = try Self.inode(sessions)
        let calls = FaultInjectingCalls()
        _ = try Self.migrate(path, calls: calls)
        #expect(try String(contentsOfFile: sessions + "/" + document, encoding: .utf8).contains("\"schema_version\": 4,"))
        #expect(calls.count("rename") >= 1)
        #expect(calls.count("exchange") == 0 && calls.count("link") == 0)
        #expect(try Self.inode(sessions) == before)
    }
}
