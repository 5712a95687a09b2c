import Foundation
import StoreGenerator
import StoreJSON
import Testing

@testable import JSONStore

/// Issue 15 acceptance: `kill -9` at random instants of the breaking step and of its inverse.
/// Every state a kill leaves opens as a v4 store (for a v4 reader: `sessions/` exactly as before,
/// every document readable by the frozen v4 types) or as a v5 store (for a v5 reader:
/// `work-streams/` exactly as an uninterrupted run writes it), never neither; and running the
/// same command again ends with the documents of an uninterrupted run.
@Suite(.serialized) struct BreakingStepKillTests {
    enum Seen: String {
        case v4 = "v4"
        case v4Staging = "v4 + a staging folder"
        case v4WithNewFolder = "v4 + work-streams/ (not adopted)"
        case
            v5WithOldFolder = "v5 + sessions/ (not removed yet)"
        case v5SmallDocumentsPending = "v5, small documents at 4"
        case v5 = "v5"
    }

    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Checks what a reader of the version `store.json` says sees, against the complete store of
    /// that version (`v4` or `v5`: documents by relative path); returns the state it is in.
    static func check(_ store: String, v4: [String: [UInt8]], v5: [String: [UInt8]], seed: UInt64) throws -> Seen {
        let header = try ManifestHeader(json: try DocumentVersion.parse(try read(store + "/store.json")))
        let top = names(store)
        let smallDocuments =
            top.filter { $0 == "settings.json" || $0 == "queue.json" }.map { $0 }
            + names(store + "/user-sessions").map { "user-sessions/" + $0 }
        switch header.schemaVersion {
        case 4:
            #expect(header.minReaderVersion == 1, "seed \(seed)")
            // A v4 reader: the work streams of sessions/, byte for byte the complete v4 store's.
            let sessions = names(store + "/sessions")
            #expect(sessions.map { "sessions/" + $0 } == v4.keys.filter { $0.hasPrefix("sessions/") }.sorted(), "seed \(seed)")
            for name in sessions {
                let bytes = try read(store + "/sessions/" + name)
                #expect(bytes == v4["sessions/" + name], "sessions/\(name), seed \(seed)")
                _ = try WorkStreamDocument(bytes: bytes, frozenVersion: 4)
            }
            for path in smallDocuments {
                let bytes = try read(store + "/" + path)
                #expect(bytes == v4[path], "\(path) is the v4 store's, seed \(seed)")
                if path.hasPrefix("user-sessions/") {
                    #expect(try CustomisationV4(bytes: bytes).schemaVersion == 4, "\(path), seed \(seed)")
                } else if path == "queue.json" {
                    #expect(try QueueV2(bytes: bytes).schemaVersion == 4, "\(path), seed \(seed)")
                } else {
                    #expect(try SettingsV4(bytes: bytes).schemaVersion == 4, "\(path), seed \(seed)")
                }
            }
            if top.contains("work-streams") { return .v4WithNewFolder }
            return FileManager.default.fileExists(atPath: store + "/" + StoreLayout.Bookkeeping.stagingWorkStreams) ? .v4Staging : .v4
        case 5:
            #expect(header.minReaderVersion == 5, "seed \(seed)")
            // A v5 reader: the work streams of work-streams/, byte for byte the complete v5 store's.
            let streams = names(store + "/work-streams")
            #expect(streams.map { "work-streams/" + $0 } == v5.keys.filter { $0.hasPrefix("work-streams/") }.sorted(), "seed \(seed)")
            for name in streams {
                let bytes = try read(store + "/work-streams/" + name)
                #expect(bytes == v5["work-streams/" + name], "work-streams/\(name), seed \(seed)")
                _ = try WorkStreamV5(bytes: bytes)
            }
            var pending = false
            for path in smallDocuments {
                let bytes = try read(store + "/" + path)
                #expect(bytes == v5[path] || bytes == v4[path], "\(path) is the v5 or the v4 store's, seed \(seed)")
                pending = pending || bytes != v5[path]
            }
            if top.contains("sessions") { return .v5WithOldFolder }
            return pending ? .v5SmallDocumentsPending : .v5
        default:
            Issue.record("store.json says \(header.schemaVersion), seed \(seed)")
            return .v4
        }
    }

    /// Runs `arguments` (with `{store}` and `{n}` replaced) on a fresh copy of `source`, `kills`
    /// times, killing it at a random instant; checks each state, then the resumed run.
    static func killRuns(
        _ name: String, source: String, arguments: [String], v4: [String: [UInt8]], v5: [String: [UInt8]],
        final: [String: [UInt8]], fullRun: TimeInterval, in dir: String
    ) throws -> [Seen: Int] {
        let kills = Int(ProcessInfo.processInfo.environment["MIGRATE_KILLS"] ?? "") ?? 50
        let seed = UInt64(ProcessInfo.processInfo.environment["MIGRATE_KILL_SEED"] ?? "") ?? UInt64.random(in: 1...UInt64.max)
        print("\(name): \(kills) kills, seed \(seed) (replay with MIGRATE_KILL_SEED=\(seed))")
        var generator = SeededGenerator(seed: seed)
        var seen: [Seen: Int] = [:]
        for kill in 0..<kills {
            let store = dir + "/victim"
            try? FileManager.default.removeItem(atPath: store)
            try FileManager.default.copyItem(atPath: source, toPath: store)
            let process = Process()
            process.executableURL = BuiltTool.executable
            process.arguments = arguments.map { $0.replacingOccurrences(of: "{store}", with: store).replacingOccurrences(of: "{n}", with: "\(kill)") }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32(Double.random(in: 0...fullRun, using: &generator) * 1_000_000))
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            seen[try check(store, v4: v4, v5: v5, seed: seed), default: 0] += 1
            let again = try BuiltTool.run(
                arguments.map { $0.replacingOccurrences(of: "{store}", with: store).replacingOccurrences(of: "{n}", with: "\(kill)-again") })
            #expect(again.code == 0, "seed \(seed): \(again)")
            #expect(try StoreTrees.documents(store) == final, "the next run finishes the job, seed \(seed)")
            #expect(!names(store).contains("sessions") || !names(store).contains("work-streams"), "one folder of work streams, seed \(seed)")
        }
        print("\(name): " + seen.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) × \($0.key.rawValue)" }.joined(separator: ", "))
        return seen
    }

    @Test func killedBreakingStepAndInverseLeaveAV4OrAV5StoreAndTheNextRunFinishes() throws {
        let temporary = TemporaryDirectory("breaking-kill")
        let dir = temporary.path
        try StoreTrees.largeV1Store(at: dir + "/v4", copies: 12)
        try FileManager.default.createDirectory(atPath: dir + "/backups", withIntermediateDirectories: true)
        #expect(try BuiltTool.run(["migrate", dir + "/v4", "--no-backup", "--quiet"]).code == 0)
        try FileManager.default.copyItem(atPath: dir + "/v4", toPath: dir + "/v5")
        let started = Date()
        #expect(try BuiltTool.run(["migrate", dir + "/v5", "--to", "5", "--allow-breaking", "--backup-dir", dir + "/backup-reference", "--quiet"]).code == 0)
        let forwardRun = Date().timeIntervalSince(started)
        try FileManager.default.copyItem(atPath: dir + "/v5", toPath: dir + "/back")
        let startedBack = Date()
        #expect(try BuiltTool.run(["migrate", dir + "/back", "--to", "4", "--no-backup", "--quiet"]).code == 0)
        let inverseRun = Date().timeIntervalSince(startedBack)
        let v4 = tree(dir + "/v4"), v5 = tree(dir + "/v5"), back = tree(dir + "/back")
        let forward = try Self.killRuns(
            "breaking step v4 → v5", source: dir + "/v4",
            arguments: ["migrate", "{store}", "--to", "5", "--allow-breaking", "--backup-dir", dir + "/backups/{n}", "--quiet"],
            v4: v4, v5: v5, final: try StoreTrees.documents(dir + "/v5"), fullRun: forwardRun, in: dir)
        // The inverse's v4 store is `back` (store.json aside, the v4 store but for the stale values reported).
        var backV4 = back
        backV4["store.json"] = v4["store.json"]
        let inverse = try Self.killRuns(
            "inverse v5 → v4", source: dir + "/v5", arguments: ["migrate", "{store}", "--to", "4", "--no-backup", "--quiet"],
            v4: backV4.filter { $0.key != "store.json" }, v5: v5, final: try StoreTrees.documents(dir + "/back"),
            fullRun: inverseRun, in: dir)
        print("breaking-step kill test: full runs \(Int(forwardRun * 1000)) ms forward (with its backup), \(Int(inverseRun * 1000)) ms inverse")
        let midway: Set<Seen> = [.v4Staging, .v4WithNewFolder, .v5WithOldFolder, .v5SmallDocumentsPending]
        let inside = (forward.merging(inverse, uniquingKeysWith: +)).filter { midway.contains($0.key) }.values.reduce(0, +)
        #expect(inside > 0, "some kills landed inside a layout change")
    }
}
