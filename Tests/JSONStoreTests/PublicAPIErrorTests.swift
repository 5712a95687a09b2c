import Foundation
import Testing

@testable import JSONStore

/// Input that reaches the public API and breaks one of its rules gets a thrown `StoreError`
/// (`.invalidArgument`) naming what, where and what to do, never a crash; nothing is written.
@Suite struct PublicAPIErrorTests {
    let id = UUID(uuidString: "0e4f1c2a-3b5d-4e6f-8a9b-0c1d2e3f4a5b")!

    func storeWithOneWorkStream(_ dir: TemporaryDirectory) throws -> Store {
        let store = try Store.create(at: dir("s"), now: StoreFixtures.t0)
        try store.createWorkStream(id: id, workingDirectory: "/w", at: StoreFixtures.t0)
        return store
    }

    @Test func updateThatSetsAQueueKeyThrowsNamingTheWorkStreamTheKeyAndTheQueueMethods() throws {
        let dir = TemporaryDirectory()
        let store = try storeWithOneWorkStream(dir)
        let before = tree(store.path)
        let error = #expect(throws: StoreError.self) { try store.updateWorkStream(id) { $0.fields.isInQueue = true } }
        #expect(error?.code == .invalidArgument)
        #expect(error?.path == store.path + "/sessions/\(id.lowercased).json")
        #expect(
            error?.message == "Can't update work stream '\(id.lowercased)' in '\(store.path)': the change sets is_in_queue, "
                + "which only the queue methods may change. Change the queue with enqueue, removeFromQueue, addToPriorityQueue, "
                + "removeFromPriorityQueue, changePriority or movePriority, which keep queue.json and these keys in step. "
                + "Nothing was written.")
        #expect(error?.recoverySuggestion?.hasPrefix("Change the queue with enqueue,") == true)
        #expect(tree(store.path) == before)
        // The lock was released and the store stays usable.
        try store.updateWorkStream(id) { $0.fields.preview = "after" }
        try store.enqueue(id, at: StoreFixtures.t0)
        #expect(try store.workStream(id).fields.isInQueue)
    }

    @Test func updateThatSetsSeveralQueueKeysNamesEachInSpecOrder() throws {
        let dir = TemporaryDirectory()
        let store = try storeWithOneWorkStream(dir)
        let error = #expect(throws: StoreError.self) {
            try store.updateWorkStream(id) {
                $0.fields.priority = 1
                $0.fields.queuePosition = 4
                $0.fields.priorityQueuedAt = StoreFixtures.t0
            }
        }
        #expect(error?.message.contains("the change sets queue_position, priority, priority_queued_at, which only") == true)
    }

    @Test func updateThatChangesTheIDThrowsAndWritesNothing() throws {
        let dir = TemporaryDirectory()
        let store = try storeWithOneWorkStream(dir)
        let before = tree(store.path)
        let other = UUID(uuidString: "11111111-2222-4333-8444-555555555555")!
        let error = #expect(throws: StoreError.self) { try store.updateWorkStream(id) { $0.fields.id = other } }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("the change sets its id to '\(other.lowercased)', but a work stream's id is its file name") == true)
        #expect(error?.recoverySuggestion?.contains("createWorkStream(id:workingDirectory:)") == true)
        #expect(tree(store.path) == before)
    }

    @Test func upgradeToAnotherSchemaVersionThrowsAndChangesNothing() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v1-store")
        let before = snapshot(path, includingRoot: true)
        let error = #expect(throws: StoreError.self) {
            try StoreUpgrade.run(at: path, to: 7, backup: .none, tool: "t", version: "1")
        }
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.message == "Can't migrate '\(path)' to schema version 7: this code knows schema versions 1 to 5. "
                + "Pass a version from 1 to 5, or leave the target out, or use the version of the tool that writes schema version 7. Nothing was changed.")
        #expect(snapshot(path, includingRoot: true) == before)
    }

    @Test func backupWithAReleasedLockOrAnotherStoresLockThrowsAndCreatesNothing() throws {
        let dir = TemporaryDirectory()
        let a = try dir.copySample("v2-store", as: "a")
        let b = try dir.copySample("v2-store", as: "b")
        let released = try StoreLock(store: a, tool: "t", version: "1")
        released.release()
        let releasedError = #expect(throws: StoreError.self) {
            try Backup.create(store: a, destination: dir("backup"), tool: "t", version: "1", holding: released)
        }
        #expect(releasedError?.code == .invalidArgument)
        #expect(releasedError?.message.contains("the lock passed in was released") == true)
        let other = try StoreLock(store: b, tool: "t", version: "1")
        defer { other.release() }
        let otherError = #expect(throws: StoreError.self) {
            try Backup.create(store: a, destination: dir("backup"), tool: "t", version: "1", holding: other)
        }
        #expect(otherError?.code == .invalidArgument)
        #expect(otherError?.message.contains("the lock passed in is the lock of '\(b)'") == true)
        #expect(otherError?.recoverySuggestion == "Pass the held StoreLock of '\(a)' (the same path), or nil to let the backup take the lock itself.")
        #expect(!FileManager.default.fileExists(atPath: dir("backup")))
    }
}

/// `StoreError` as a `LocalizedError`: the message, and the way out.
@Suite struct StoreErrorLocalizedTests {
    @Test func errorDescriptionIsTheMessageAndBridgesToNSError() {
        let error = StoreError.systemCall(
            "fsync", errno: ENOSPC,
            context: ErrorContext("write", "/s/x.json", note: "the previous version of the file is unchanged"))
        #expect(error.errorDescription == error.message)
        #expect(error.recoverySuggestion == "Free some space and try again.")
        let bridged = error as NSError
        #expect(bridged.localizedDescription == error.message)
        #expect(bridged.localizedRecoverySuggestion == "Free some space and try again.")
    }

    @Test func anErrnoWithoutRemedyHasNoSuggestion() {
        let error = StoreError.systemCall("open", errno: EEXIST, context: ErrorContext("create", "/s/x.json"))
        #expect(error.recoverySuggestion == nil)
    }

    @Test func suggestionIsTheSentencesAfterTheFirst() {
        let error = StoreError(.notFound, "Can't read the store '/a. B': it does not exist. Check the path. Or create it.")
        #expect(error.recoverySuggestion == "Check the path. Or create it.")
    }

    @Test func suggestionOfOneSentenceIsTheClauseAfterItsLastSemicolon() {
        let error = StoreError(
            .unsupportedVersion,
            "Can't open '/s': the store has schema_version 3 and needs a reader of version 3 "
                + "or newer (min_reader_version 3), but this tool reads version 2; use a newer version of the tool.")
        #expect(error.recoverySuggestion == "Use a newer version of the tool.")
    }

    @Test func aMessageWithoutAFixHasNoSuggestion() {
        #expect(StoreError(.permissionDenied, "Can't write to '/s': the store was opened read-only.").recoverySuggestion == nil)
        #expect(StoreError(.alreadyExists, "Can't create work stream 'x': '/s; Y. Z' already exists.").recoverySuggestion == nil)
    }

    @Test func documentAndAggregateErrorsSuggestTheirFix() {
        let schema = SchemaError(code: .syntax, file: "sessions/x.json", detail: "unexpected end. Of input")
        let document = StoreError.document(schema, path: "/s/sessions/x.json")
        #expect(
            document.recoverySuggestion == "The file is not valid JSON: restore it from a backup, or fix it by hand "
                + "(validating the store lists every problem).")
        let aggregate = StoreError.unreadable([document], store: "/s", action: "migrate")
        #expect(aggregate.recoverySuggestion == "Fix them (validating the store lists every problem) and run again.")
    }

    /// The library names no tool: a way out that is one of the store's operations is a value,
    /// read in plain words by `message` and with a tool's command line by `messageText(commandLine:)`,
    /// in nested messages too.
    @Test func aWayOutThatIsAnOperationIsAValueEachReaderWords() {
        let schema = SchemaError(code: .syntax, file: "sessions/x.json", detail: "unexpected end")
        let document = StoreError.document(schema, path: "/s/sessions/x.json")
        guard case .runCommand(let operation, _, _, _)? = document.recovery else {
            Issue.record("the fix of an invalid document names no operation: \(String(describing: document.recovery))")
            return
        }
        #expect(operation == .validate(store: nil))
        #expect(!document.message.contains("migrate-store"))
        let line: (StoreError.Operation) -> String = { _ in "tool validate" }
        #expect(document.messageText(commandLine: line).hasSuffix("or fix it by hand ('tool validate' lists every problem)."))
        let aggregate = StoreError.unreadable([document], store: "/s", action: "migrate")
        #expect(!aggregate.description.contains("migrate-store"))
        #expect(aggregate.messageText(commandLine: line).components(separatedBy: "'tool validate'").count == 3)
        #expect(aggregate.messageText(commandLine: line).hasSuffix("\nFix them (see 'tool validate') and run again."))
    }
}
