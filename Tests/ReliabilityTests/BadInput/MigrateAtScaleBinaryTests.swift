import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// Issue 19 through the built tool: `migrate --no-backup` validates while it stages (one parse per
/// document), commits the customisations by a folder exchange, and removes the old folders in a
/// detached process after it reported.
@Suite struct MigrateAtScaleBinaryTests {
    /// 300 work streams: enough customisations (about a third) for their folder exchange.
    static let generator = StoreGenerator(seed: 19, workStreams: 300, messagesPerStream: 2)

    /// Every entry of every kind, dot names included, with its bytes (no times: the staging's temp
    /// files, created and removed, change the folder's modification time, which no reader sees).
    static func wholeTree(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: [UInt8]] {
        tree(path, dotNames: true, everyKind: true, sourceLocation: sourceLocation)
    }

    /// The last work stream in id order: staging has written the temp files of (nearly) all the
    /// others by the time it reads this one.
    static func lastWorkStream(_ store: String) throws -> String {
        try #require(try FileManager.default.contentsOfDirectory(atPath: store + "/sessions").filter { $0.hasSuffix(".json") }.sorted().last)
    }

    @Test(arguments: ["truncated", "not an object", "wrong type"])
    func badDocumentFoundWhileMigratingWithoutBackupLeavesTheWholeTreeAsItWas(_ damage: String) throws {
        let scratch = TemporaryDirectory()
        let store = scratch("store")
        _ = try Self.generator.write(to: store)
        let victim = store + "/sessions/" + (try Self.lastWorkStream(store))
        let original = try Data(contentsOf: URL(fileURLWithPath: victim))
        let bad: Data
        switch damage {
        case "truncated": bad = original.prefix(original.count / 2)
        case "not an object": bad = Data("[1, 2, 3]\n".utf8)
        default:
            bad = Data(
                String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\"is_in_queue\": false", with: "\"is_in_queue\": 7")
                    .replacingOccurrences(of: "\"is_in_queue\": true", with: "\"is_in_queue\": 7").utf8)
        }
        #expect(bad != original)
        try bad.write(to: URL(fileURLWithPath: victim))
        // A user's own dot-named files, which readers ignore: kept byte for byte too.
        try Data("note\n".utf8).write(to: URL(fileURLWithPath: store + "/.user-note"))
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: store + "/sessions/.keep"))
        let before = Self.wholeTree(store)
        #expect(before[".lock"] == nil)

        let run = try Tool.migrate(["migrate", store, "--no-backup"], timeLimit: 120)

        #expect(run.code == 65, "exit status: \(run.code)\n\(run.stderr)")
        #expect(run.stderr.contains("1 document can't be read; nothing was changed"))
        #expect(run.stderr.contains(URL(fileURLWithPath: victim).lastPathComponent))
        let after = Self.wholeTree(store)
        let added = Set(after.keys).symmetricDifference(before.keys).sorted()
        let differing = before.keys.filter { after[$0] != nil && after[$0] != before[$0] }.sorted()
        #expect(after == before, "entries added or removed: \(added); bytes differ: \(differing)")
    }

    @Test func aLockFileThatWasThereBeforeIsKeptWhenValidationFails() throws {
        let scratch = TemporaryDirectory()
        let store = scratch("store")
        _ = try Self.generator.write(to: store)
        try Data("{\n".utf8).write(to: URL(fileURLWithPath: store + "/sessions/" + (try Self.lastWorkStream(store))))
        try StoreLock(store: store, tool: "earlier", version: "1").release()
        let before = Self.wholeTree(store)
        #expect(before[".lock"] != nil)

        let run = try Tool.migrate(["migrate", store, "--no-backup"], timeLimit: 120)

        #expect(run.code == 65)
        var after = Self.wholeTree(store)
        #expect(after[".lock"] != nil, "a lock file this run did not create is never removed")
        // Its holder record names the last holder; every other entry is as it was.
        after[".lock"] = before[".lock"]
        #expect(after == before)
    }

    /// `migrate` is finished when it exits: the old folders are gone, no process of the tool
    /// names the store, and `tar` reads the store without a file vanishing under it. Failed
    /// before the old folders were removed in the foreground: a detached `migrate-store` was
    /// still removing them.
    @Test func migrateIsFinishedWhenItExits() throws {
        let scratch = TemporaryDirectory()
        let store = scratch("store")
        _ = try Self.generator.write(to: store)
        let run = try Tool.migrate(["migrate", store], timeLimit: 120)
        #expect(run.code == 0, "\(run.stderr)")
        #expect(processesNaming(store).isEmpty, "still running after migrate exited: \(processesNaming(store))")
        let names = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
        #expect(names == [".lock", "queue.json", "sessions", "settings.json", "store.json", "user-sessions"])
        let tar = try BuiltTool.runProgram("/bin/tar", ["cf", scratch("store.tar"), "-C", scratch.path, "store"], timeLimit: 120)
        #expect(tar.code == 0, "\(tar.stderr)")
    }

    @Test func migrateWithoutBackupExchangesTheCustomisationsAndRemovesTheOldFolders() throws {
        let scratch = TemporaryDirectory()
        let store = scratch("store")
        _ = try Self.generator.write(to: store)
        let customisations = try FileManager.default.contentsOfDirectory(atPath: store + "/user-sessions").filter { $0.hasSuffix(".json") }
        #expect(customisations.count >= StoreMigrator.customisationsExchangeMinimum)
        let inodeBefore = try #require(try FileManager.default.attributesOfItem(atPath: store + "/user-sessions")[.systemFileNumber] as? UInt64)

        let run = try Tool.migrate(["migrate", store, "--no-backup"], timeLimit: 120)
        #expect(run.code == 0, "\(run.stderr)")

        let names = try FileManager.default.contentsOfDirectory(atPath: store).sorted()
        #expect(names == [".lock", "queue.json", "sessions", "settings.json", "store.json", "user-sessions"])
        #expect(temporaryLeftovers(store).isEmpty)
        let inodeAfter = try #require(try FileManager.default.attributesOfItem(atPath: store + "/user-sessions")[.systemFileNumber] as? UInt64)
        #expect(inodeAfter != inodeBefore, "user-sessions/ was exchanged, not rewritten file by file")
        for name in customisations {
            let text = try String(contentsOfFile: store + "/user-sessions/" + name, encoding: .utf8)
            #expect(text.contains("\"schema_version\": 4"), "\(name) is at schema version 4")
        }
        let verify = try Tool.migrate(["verify", store])
        #expect(verify.code == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
