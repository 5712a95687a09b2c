import Foundation
import StoreGenerator
import StoreJSON
import Testing

@testable import JSONStore

/// Issue 15 acceptance: `kill -9` at random instants of the breaking step and of its inverse.
/// Every state a kill leaves opens as a v3 store (for a v3 reader: `sessions/` exactly as before,
/// every document readable by the frozen v3 types) or as a v4 store (for a v4 reader:
/// `work-streams/` exactly as an uninterrupted run writes it), never neither; and running the
/// same command again ends with the documents of an uninterrupted run.
@Suite(.serialized) struct BreakingStepKillTests {
    enum Seen: String {
        case v3 = "v3"
        case v3Staging = "v3 + a staging folder"
        case v3WithNewFolder = "v3 + work-streams/ (not adopted)"
        case
            v4WithOldFolder = "v4 + sessions/ (not removed yet)"
        case v4SmallDocumentsPending = "v4, small documents at 3"
        case v4 = "v4"
    }

    static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Checks what a reader of the version `store.json` says sees, against the complete store of
    /// that version (`v3` or `v4`: documents by relative path); returns the state it is in.
    static func check(_ store: String, v3: [String: [UInt8]], v4: [String: [UInt8]], seed: UInt64) throws -> Seen {
        let header = try ManifestHeader(json: try DocumentVersion.parse(try read(store + "/store.json")))
        let top = names(store)
        let smallDocuments =
            top.filter { $0 == "settings.json" || $0 == "queue.json" }.map { $0 }
            + names(store + "/user-sessions").map { "user-sessions/" + $0 }
        switch header.schemaVersion {
        case 3:
            #expect(header.minReaderVersion == 1, "seed \(seed)")
            // A v3 reader: the work streams of sessions/, byte for byte the complete v3 store's.
            let sessions = names(store + "/sessions")
            #expect(sessions.map { "sessions/" + $0 } == v3.keys.filter { $0.hasPrefix("sessions/") }.sorted(), "seed \(seed)")
            for name in sessions {
                let bytes = try read(store + "/sessions/" + name)
                #expect(bytes == v3["sessions/" + name], "sessions/\(name), seed \(seed)")
                _ = try WorkStreamV3(bytes: bytes)
            }
            for path in smallDocuments {
                let bytes = try read(store + "/" + path)
                #expect(bytes == v3[path], "\(path) is the v3 store's, seed \(seed)")
                if path.hasPrefix("user-sessions/") {
                    _ = try CustomisationV1(bytes: bytes)
                } else if path == "queue.json" {
                    _ = try QueueV2(bytes: bytes)
                } else {
                    _ = try SettingsV1(bytes: bytes)
                }
            }
            if top.contains("work-streams") { return .v3WithNewFolder }
            return FileManager.default.fileExists(atPath: store + "/" + StoreLayout.Bookkeeping.stagingWorkStreams) ? .v3Staging : .v3
        case 4:
            #expect(header.minReaderVersion == 4, "seed \(seed)")
            // A v4 reader: the work streams of work-streams/, byte for byte the complete v4 store's.
            let streams = names(store + "/work-streams")
            #expect(streams.map { "work-streams/" + $0 } == v4.keys.filter { $0.hasPrefix("work-streams/") }.sorted(), "seed \(seed)")
            for name in streams {
                let bytes = try read(store + "/work-streams/" + name)
                #expect(bytes == v4["work-streams/" + name], "work-streams/\(name), seed \(seed)")
                _ = try WorkStreamV5(bytes: bytes)
            }
            var pending = false
            for path in smallDocuments {
                let bytes = try read(store + "/" + path)
                #expect(bytes == v4[path] || bytes == v3[path], "\(path) is the v4 or the v3 store's, seed \(seed)")
                pending = pending || bytes != v4[path]
            }
            if top.contains("sessions") { return .v4WithOldFolder }
            return pending ? .v4SmallDocumentsPending : .v4
        default:
            Issue.record("store.json says \(header.schemaVersion), seed \(seed)")
            return .v3
        }
    }

    /// Runs `arguments` (with `{store}` and `{n}` replaced) on a fresh copy of `source`, `kills`
    /// times, killing it at a random instant; checks each state, then the resumed run.
    static func killRuns(
        _ name: String, source: String, arguments: [String], v3: [String: [UInt8]], v4: [String: [UInt8]],
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
            seen[try check(store, v3: v3, v4: v4, seed: seed), default: 0] += 1
            let again = try BuiltTool.run(
                arguments.map { $0.replacingOccurrences(of: "{store}", with: store).replacingOccurrences(of: "{n}", with: "\(kill)-again") })
            #expect(again.code == 0, "seed \(seed): \(again)")
            #expect(try StoreTrees.documents(store) == final, "the next run finishes the job, seed \(seed)")
            #expect(!names(store).contains("sessions") || !names(store).contains("work-streams"), "one folder of work streams, seed \(seed)")
        }
        print("\(name): " + seen.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) × \($0.key.rawValue)" }.joined(separator: ", "))
        return seen
    }

    @Test func killedBreakingStepAndInverseLeaveAV3OrAV4StoreAndTheNextRunFinishes() throws {
        let temporary = TemporaryDirectory("breaking-kill")
        let dir = temporary.path
        try StoreTrees.largeV1Store(at: dir + "/v3", copies: 12)
        try FileManager.default.createDirectory(atPath: dir + "/backups", withIntermediateDirectories: true)
        #expect(try BuiltTool.run(["migrate", dir + "/v3", "--no-backup", "--quiet"]).code == 0)
        try FileManager.default.copyItem(atPath: dir + "/v3", toPath: dir + "/v4")
        let started = Date()
        #expect(try BuiltTool.run(["migrate", dir + "/v4", "--to", "4", "--allow-breaking", "--backup-dir", dir + "/backup-reference", "--quiet"]).code == 0)
        let forwardRun = Date().timeIntervalSince(started)
        try FileManager.default.copyItem(atPath: dir + "/v4", toPath: dir + "/back")
        let startedBack = Date()
        #expect(try BuiltTool.run(["migrate", dir + "/back", "--to", "3", "--no-backup", "--quiet"]).code == 0)
        let inverseRun = Date().timeIntervalSince(startedBack)
        let v3 = tree(dir + "/v3"), v4 = tree(dir + "/v4"), back = tree(dir + "/back")
        let forward = try Self.killRuns(
            "breaking step v3 → v4", source: dir + "/v3",
            arguments: ["migrate", "{store}", "--to", "4", "--allow-breaking", "--backup-dir", dir + "/backups/{n}", "--quiet"],
            v3: v3, v4: v4, final: try StoreTrees.documents(dir + "/v4"), fullRun: forwardRun, in: dir)
        // The inverse's v3 store is `back` (store.json aside, the v3 store but for the stale values reported).
        var backV3 = back
        backV3["store.json"] = v3["store.json"]
        let inverse = try Self.killRuns(
            "inverse v4 → v3", source: dir + "/v4", arguments: ["migrate", "{store}", "--to", "3", "--no-backup", "--quiet"],
            v3: backV3.filter { $0.key != "store.json" }, v4: v4, final: try StoreTrees.documents(dir + "/back"),
            fullRun: inverseRun, in: dir)
        print("breaking-step kill test: full runs \(Int(forwardRun * 1000)) ms forward (with its backup), \(Int(inverseRun * 1000)) ms inverse")
        let midway: Set<Seen> = [.v3Staging, .v3WithNewFolder, .v4WithOldFolder, .v4SmallDocumentsPending]
        let inside = (forward.merging(inverse, uniquingKeysWith: +)).filter { midway.contains($0.key) }.values.reduce(0, +)
        #expect(inside > 0, "some kills landed inside a layout change")
    }
}
