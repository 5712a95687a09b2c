import Foundation
import Testing

@testable import JSONStore

/// Hostile archives (issue part 5): exports whose entries try to leave the store (`../`, absolute
/// paths, dot names), and backups whose folders or documents are links out of the backup, or whose
/// manifest lists a file outside it. Nothing outside is read as data or written.
@Suite struct HostileArchiveTests {
    static let evil = Array("{\"evil\": true}\n".utf8)

    /// A genuine export of `Samples/v2-store` with one more `file` line for `path`, every hash,
    /// size and the trailer recomputed, so only the path is wrong.
    static func export(adding path: String, scratch: TemporaryDirectory) throws -> String {
        let store = try scratch.copy(Samples.v2Store, as: "source")
        let genuine = scratch("genuine.jsonl")
        let run = try Tool.migrate(["export", store, genuine])
        try #require(run.code == 0, "\(run)")
        var lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: genuine)), as: UTF8.self)
            .split(separator: "\n").map { Array($0.utf8) + [10] }
        let header = lines.removeFirst(), manifest = lines.removeFirst()
        lines.removeLast()  // the trailer
        var hostile = ExportFormat.encode([
            ("content", .string(String(decoding: evil, as: UTF8.self))), ("path", .string(path)),
            ("sha256", .string(SHA256.hex(of: evil))), ("size", .int(Int64(evil.count))), ("type", .string("file")),
        ])
        if hostile.last != 10 { hostile.append(10) }
        func pathOf(_ line: [UInt8]) -> String {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return "" }
            return object["path"] as? String ?? ""
        }
        let files = [manifest] + (lines + [hostile]).sorted { pathOf($0).utf8.lexicographicallyPrecedes(pathOf($1).utf8) }
        var body = header
        var bytes: Int64 = 0
        for line in files {
            body += line
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { continue }
            bytes += (object["size"] as? NSNumber)?.int64Value ?? 0
        }
        var trailer = ExportFormat.trailer(files: files.count, bytes: bytes, sha256: SHA256.hex(of: body))
        if trailer.last != 10 { trailer.append(10) }
        let file = scratch("hostile.jsonl")
        try Data(body + trailer).write(to: URL(fileURLWithPath: file))
        try FileManager.default.removeItem(atPath: store)
        try FileManager.default.removeItem(atPath: genuine)
        return file
    }

    /// Every path under `root`, dot names included, links not followed.
    static func everything(_ root: String) -> Set<String> {
        Set(FileManager.default.enumerator(atPath: root)?.allObjects.compactMap { $0 as? String } ?? [])
    }

    @Test(arguments: [
        "../evil.json", "sessions/../../evil.json", "sessions/../settings.json", "/ABSOLUTE/evil.json", "./evil.json",
        ".lock", ".tmp-0000000000000000-store.json", "sessions/.hidden.json", "sessions//evil.json", "evil.json",
        "sessions/00000000-0000-4000-8000-000000000001.json/../../../evil.json", "sessions\\..\\..\\evil.json",
        "SESSIONS/00000000-0000-4000-8000-000000000001.json", "user-sessions/../../evil.json",
    ])
    func exportEntryOutsideTheStoreIsRefusedAndNothingIsWritten(_ path: String) throws {
        let scratch = TemporaryDirectory()
        let absolute = scratch("absolute")
        try FileManager.default.createDirectory(atPath: absolute, withIntermediateDirectories: false)
        let entry = path.replacingOccurrences(of: "/ABSOLUTE", with: absolute)
        let file = try Self.export(adding: entry, scratch: scratch)
        let before = Self.everything(scratch.path)
        let target = scratch("imported")
        let run = try Tool.migrate(["import", file, target])
        // A rejected archive is "corrupt": exit 69 (see StoreError+ExitCode.swift), naming the entry.
        #expect(run.code == 69, "\(run)")
        #expect(run.stderr.contains("'\(entry)'") && run.stderr.contains("is not a path a store may contain"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target), "the target was created")
        #expect(Self.everything(scratch.path) == before, "new entries: \(Self.everything(scratch.path).subtracting(before).sorted())")

        let error = #expect(throws: StoreError.self) {
            _ = try StoreImport.read(from: .file(file), into: target, tool: "reliability-tests", version: "1")
        }
        #expect(error?.code == .corruptDocument)
        #expect(Self.everything(scratch.path) == before)
    }

    // MARK: Backups with links and foreign entries

    final class BackupSetup {
        let scratch = TemporaryDirectory("hostile-backup")
        let backup: String
        let outside: String

        init() throws {
            let store = try scratch.copy(Samples.v2Store, as: "store")
            backup = scratch("backup")
            let run = try Tool.migrate(["backup", store, backup])
            try #require(run.code == 0, "\(run)")
            // Outside the backup: the same documents (so every hash would match) and a secret.
            outside = scratch("outside")
            try FileManager.default.copyItem(atPath: backup + "/sessions", toPath: outside)
            try Data(HostileArchiveTests.evil).write(to: URL(fileURLWithPath: scratch("secret.json")))
        }

        /// `restore` and `verify-backup` both refuse; the target is not created; the outside data is never copied.
        func expectRefused(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let target = scratch("restored")
            let restore = try Tool.migrate(["restore", backup, target])
            #expect([65, 69].contains(restore.code), "restore: \(restore)", sourceLocation: sourceLocation)
            #expect(!FileManager.default.fileExists(atPath: target), "the target was created", sourceLocation: sourceLocation)
            let verify = try Tool.migrate(["verify-backup", backup])
            #expect([65, 69].contains(verify.code), "verify-backup: \(verify)", sourceLocation: sourceLocation)
            let leftovers = (try FileManager.default.contentsOfDirectory(atPath: scratch.path)).filter { $0.hasPrefix(".") }
            #expect(leftovers.isEmpty, "staging left behind: \(leftovers)", sourceLocation: sourceLocation)
        }
    }

    @Test func backupWhoseSessionsFolderIsALinkIsRefused() throws {
        let setup = try BackupSetup()
        try FileManager.default.removeItem(atPath: setup.backup + "/sessions")
        try FileManager.default.createSymbolicLink(atPath: setup.backup + "/sessions", withDestinationPath: setup.outside)
        try setup.expectRefused()
    }

    @Test func backupWhoseDocumentIsALinkIsRefused() throws {
        let setup = try BackupSetup()
        let name = "555a622d-4eba-4eda-8989-fc9e679fc303.json"
        try FileManager.default.removeItem(atPath: setup.backup + "/sessions/" + name)
        try FileManager.default.createSymbolicLink(atPath: setup.backup + "/sessions/" + name, withDestinationPath: setup.outside + "/" + name)
        try setup.expectRefused()
    }

    @Test(arguments: ["../secret.json", "sessions/../../secret.json", "/ABSOLUTE"])
    func backupManifestListingAFileOutsideIsRefused(_ listed: String) throws {
        let setup = try BackupSetup()
        let path = listed == "/ABSOLUTE" ? setup.scratch("secret.json") : listed
        let hash = SHA256.hex(of: Self.evil)
        let sums = setup.backup + "/SHA256SUMS"
        let oldSums = try String(contentsOfFile: sums, encoding: .utf8)
        try ("\(hash)  \(path)\n" + oldSums).write(toFile: sums, atomically: false, encoding: .utf8)
        let manifest = setup.backup + "/backup.json"
        let oldManifest = try String(contentsOfFile: manifest, encoding: .utf8)
        let entry = "\"files\": [\n    {\n      \"path\": \"\(path)\",\n      \"sha256\": \"\(hash)\",\n      \"size\": \(Self.evil.count)\n    },"
        try oldManifest.replacingOccurrences(of: "\"files\": [", with: entry).write(toFile: manifest, atomically: false, encoding: .utf8)
        try setup.expectRefused()
    }
}
