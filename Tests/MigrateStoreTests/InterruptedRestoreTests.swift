import Foundation
import Testing

@testable import JSONStore

/// A store whose restore was interrupted between its renames (the journal next to it, the store
/// folder not back yet) is reported as such, with exit status 75, by every command that reads it
/// (issue 17 item 13); the next `restore` finishes it.
@Suite struct InterruptedRestoreTests {
    /// The state a restore killed after moving the old store aside leaves: `store` absent, the
    /// old store at its aside name, the restored one in the staging folder, and the journal.
    static func interruptedStore(_ scratch: TemporaryDirectory) throws -> String {
        let store = try scratch.copySample("v2-store", as: "store")
        try FileManager.default.moveItem(atPath: store, toPath: scratch("store.replaced-20260101T000000Z"))
        _ = try scratch.copySample("v2-store", as: ".store.restoring-0123456789abcdef")
        let journal = RestoreJournal(
            target: "store", staging: ".store.restoring-0123456789abcdef",
            aside: "store.replaced-20260101T000000Z", startedAt: "2026-01-01T00:00:00.000Z")
        try AtomicFile.durableReplace(directory: scratch.path, name: ".store.restore-journal", bytes: journal.encoded)
        return store
    }

    static let readers: [[String]] = [
        ["status"], ["ls"], ["show", "@", "ad9a22b8"], ["queue"], ["stats"], ["validate"], ["verify"], ["plan"],
        ["backup", "@", "BACKUP"], ["export", "@", "EXPORT"], ["status", "--json"],
    ]

    @Test(arguments: readers)
    func aReadOfAStoreWithAnUnfinishedRestoreSaysSoWithExit75AndChangesNothing(command: [String]) throws {
        let scratch = TemporaryDirectory()
        let store = try Self.interruptedStore(scratch)
        let arguments =
            command.count == 1 || command[1].hasPrefix("--")
            ? [command[0], store] + command.dropFirst()
            : command.map { $0 == "@" ? store : $0 == "BACKUP" ? scratch("b") : $0 == "EXPORT" ? scratch("e.jsonl") : $0 }
        let before = snapshot(scratch.path)
        let run = try BuiltTool.run(arguments)
        #expect(run.code == 75, "\(arguments): \(run)")
        #expect(
            run.stderr == "Error: Can't read the store '\(store)': a restore into it was interrupted before the restored store "
                + "was put in place (its journal '\(scratch(".store.restore-journal"))' is next to it), or is still running. "
                + "Nothing was changed. The next restore into '\(store)', or the next open of it for writing, finishes that "
                + "restore; then try again.\n", "\(arguments)")
        #expect(!run.stderr.contains("create a store first"))
        #expect(snapshot(scratch.path) == before, "\(arguments)")
    }

    @Test func theNextRestoreFinishesTheInterruptedOneAndReadsWorkAgain() throws {
        let scratch = TemporaryDirectory()
        _ = try scratch.copySample("v2-store", as: "source")
        #expect(try BuiltTool.run(["backup", scratch("source"), scratch("b")]).code == 0)
        let store = try Self.interruptedStore(scratch)
        let run = try BuiltTool.run(["restore", "--force", scratch("b"), store])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("Finished an interrupted restore into '\(store)'"))
        #expect(try BuiltTool.run(["status", store]).code == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch(".store.restore-journal")))
    }

    @Test func theLibrarysReadOnlyOpenThrowsRestoreInterruptedAndAWritableOpenFinishesIt() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.interruptedStore(scratch)
        #expect(Restore.interruptedError(store: store)?.code == .restoreInterrupted)
        #expect { try Store.open(at: store, options: .init(readOnly: true, tool: "t", version: "0")) } throws: {
            ($0 as? StoreError)?.code == .restoreInterrupted
        }
        let opened = try Store.open(at: store, options: .init(readOnly: false, tool: "t", version: "0"))
        #expect(opened.warnings.contains { $0.contains("Finished an interrupted restore") })
        #expect(Restore.interruptedError(store: store) == nil)
        #expect(tree(store) == tree(Samples.path("v2-store")))
    }
}

extension InterruptedRestoreTests {
    @Test func rollbackIntoAStoreWithAnUnfinishedRestoreFinishesItFirst() throws {
        let scratch = TemporaryDirectory()
        _ = try scratch.copySample("v2-store", as: "source")
        #expect(try BuiltTool.run(["backup", scratch("source"), scratch("b")]).code == 0)
        let store = try Self.interruptedStore(scratch)
        let run = try BuiltTool.run(["rollback", store, "--from-backup", scratch("b")])
        #expect(run.code == 0, "\(run)")
        #expect(run.stdout.contains("Finished an interrupted restore into '\(store)'"))
        #expect(tree(store) == tree(Samples.path("v2-store")))
    }
}

extension InterruptedRestoreTests {
    @Test func aRestoreWithoutForceStillFinishesTheInterruptedOneAndSaysSoInItsRefusal() throws {
        let scratch = TemporaryDirectory()
        _ = try scratch.copySample("v2-store", as: "source")
        #expect(try BuiltTool.run(["backup", scratch("source"), scratch("b")]).code == 0)
        let store = try Self.interruptedStore(scratch)
        let run = try BuiltTool.run(["restore", scratch("b"), store])
        #expect(run.code == 73, "\(run)")
        #expect(
            run.stderr.hasPrefix(
                "Error: Finished an interrupted restore into '\(store)'; the replaced store is kept at "
                    + "'\(scratch("store.replaced-20260101T000000Z"))'. Can't restore into '\(store)': it is not empty"))
        #expect(try BuiltTool.run(["status", store]).code == 0)
    }
}
