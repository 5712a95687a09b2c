import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// The customisations of a migration committed by exchanging `user-sessions/`
/// (`StoreMigrator+Customisations.swift`), each encoded only as it is written into the new folder:
/// the same bytes and modes as the batch commit, and nothing left behind by a failure before the exchange.
@Suite struct CustomisationsExchangeTests {
    /// 40 work streams, about a third of them customised: below the default threshold (32), so a
    /// default migration commits them in batches, the reference.
    static let generator = StoreGenerator(seed: 41, workStreams: 40, messagesPerStream: 3)

    /// A generated v1 store with one customisation at mode 0644, `user-sessions/` at 0750 and a
    /// user's dot file in it; returns its path and the customisation's name.
    static func prepared(_ dir: TemporaryDirectory, _ name: String) throws -> (path: String, document: String) {
        let path = dir(name)
        _ = try generator.write(to: path)
        let folder = path + "/user-sessions"
        let document = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first { !$0.hasPrefix(".") })
        #expect(chmod(folder + "/" + document, 0o644) == 0)
        try Data("a user's own note\n".utf8).write(to: URL(fileURLWithPath: folder + "/.note"))
        #expect(chmod(folder, 0o750) == 0)
        return (path, document)
    }

    static func migrate(_ path: String, exchangingFrom threshold: Int, calls: FaultInjectingCalls = FaultInjectingCalls()) throws {
        let store = try Store.open(at: path, options: Store.Options(), system: SystemCalls(calls: calls))
        var migrator = StoreMigrator(store: store)
        migrator.customisationsExchangeThreshold = threshold
        _ = try migrator.migrate(toolVersion: "test")
    }

    static func permissions(_ path: String) throws -> mode_t {
        try #require(try SystemCalls.real.linkStatus(path, context: ErrorContext("test", path))).permissions
    }

    static func dotNames(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }.sorted()
    }

    @Test func exchangedCustomisationsEndByteIdenticalToBatchesWithEveryModeKept() throws {
        let dir = TemporaryDirectory()
        let exchanged = try Self.prepared(dir, "exchanged"), batched = try Self.prepared(dir, "batched")
        let calls = FaultInjectingCalls()
        try Self.migrate(exchanged.path, exchangingFrom: 1, calls: calls)
        #expect(calls.count("exchange") == 2, "sessions/ and user-sessions/ are exchanged")
        let reference = FaultInjectingCalls()
        try Self.migrate(batched.path, exchangingFrom: StoreMigrator.customisationsExchangeMinimum, calls: reference)
        #expect(reference.count("exchange") == 1, "only sessions/ is exchanged")
        var a = tree(exchanged.path), b = tree(batched.path)
        a["store.json"] = nil
        b["store.json"] = nil
        #expect(!a.isEmpty && a == b)
        for path in [exchanged.path, batched.path] {
            #expect(try Self.permissions(path + "/user-sessions") == 0o750)
            #expect(try Self.permissions(path + "/user-sessions/" + exchanged.document) == 0o644)
            #expect(try Self.dotNames(path + "/user-sessions") == [".note"])
            #expect(try Self.dotNames(path) == [".lock"])
        }
    }

    /// A failure in the customisations' commit (making the new folder, writing the second
    /// customisation into it, linking the user's `.note`, the exchange) leaves `user-sessions/`
    /// byte for byte as it was, with no temp file and no exchange folder. (`mkdir` 1 and
    /// `exchange` 1 are the work streams'; `write` 1–40 their staged files, 41 queue.json.)
    @Test(arguments: [("mkdir", 2), ("write", 43), ("link", 1), ("exchange", 2)])
    func aFailureBeforeTheCustomisationsExchangeLeavesThemUnchangedAndNoTempFile(_ kind: String, _ number: Int) throws {
        let dir = TemporaryDirectory()
        let store = try Self.prepared(dir, "store")
        let before = tree(store.path + "/user-sessions")
        let calls = FaultInjectingCalls(.init(callNumber: number, kinds: [kind], fault: .error(EIO)))
        #expect(throws: StoreError.self) { try Self.migrate(store.path, exchangingFrom: 1, calls: calls) }
        #expect(calls.injected.count == 1, "\(kind) #\(number) was not reached")
        #expect(calls.succeeded("exchange"), "sessions/ was exchanged first: the failure is in the customisations' commit")
        #expect(tree(store.path + "/user-sessions") == before)
        #expect(try Self.permissions(store.path + "/user-sessions/" + store.document) == 0o644)
        #expect(try Self.dotNames(store.path + "/user-sessions") == [".note"])
        #expect(!FileManager.default.fileExists(atPath: store.path + "/" + StoreMigrator.customisationsExchangeFolderName))
    }
}
