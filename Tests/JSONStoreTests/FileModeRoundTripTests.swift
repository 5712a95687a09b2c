import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// A backup records each file's permission bits and a restore reinstates them; an export records
/// them per line and an import reinstates them (`RecordedMode`). Archives written before modes
/// were recorded still restore and import, every file `0600` as before.
@Suite struct FileModeRoundTripTests {
    /// The modes given to the sample store's files before the round trip; every other file stays 0600.
    /// The modes given to the store folder and its document folders.
    private static let folderModes: [String: mode_t] = [".": 0o755, "sessions": 0o750, "user-sessions": 0o700]
    private static let modes: [String: mode_t] = [
        "store.json": 0o644, "settings.json": 0o640, "queue.json": 0o600,
        "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json": 0o644,
        "sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json": 0o640,
    ]

    @Test func backupThenRestoreGivesEveryFileItsModeAndBytes() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.storeWithModes(scratch)
        for links in [false, true] {
            let backup = scratch.path + "/b-\(links)", target = scratch.path + "/r-\(links)"
            let report = try Backup.create(
                store: store, destination: backup, tool: "t", version: "0",
                options: .init(allowHardLinks: links))
            #expect(report.manifest.files.first { $0.path == "settings.json" }?.mode == 0o640)
            #expect(String(decoding: try Self.read(backup + "/backup.json"), as: UTF8.self).contains("\"mode\": \"0640\""))
            #expect(try BackupVerification.verify(backup: backup).status == .ok)
            #expect(report.manifest.folderModes == [".": 0o755, "sessions": 0o750, "user-sessions": 0o700])
            _ = try Restore.run(backup: backup, target: target, tool: "t", version: "0")
            #expect(try Self.modesAndBytes(target) == Self.modesAndBytes(store))
            #expect(Self.folderModes(target) == Self.folderModes)
        }
    }

    @Test func exportThenImportGivesEveryFileItsModeAndBytes() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.storeWithModes(scratch)
        _ = try StoreExport.write(store: store, to: .file(scratch.path + "/e.jsonl"), tool: "t", version: "0")
        #expect(String(decoding: try Self.read(scratch.path + "/e.jsonl"), as: UTF8.self).contains(#""mode":"0640","path":"settings.json""#))
        _ = try StoreImport.read(from: .file(scratch.path + "/e.jsonl"), into: scratch.path + "/i", tool: "t", version: "0")
        #expect(try Self.modesAndBytes(scratch.path + "/i") == Self.modesAndBytes(store))
        #expect(Self.folderModes(scratch.path + "/i") == Self.folderModes)
    }

    @Test func backupWithoutModesStillVerifiesAndRestoresEveryFile0600() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.storeWithModes(scratch)
        let backup = scratch.path + "/b"
        _ = try Backup.create(store: store, destination: backup, tool: "t", version: "0")
        // The backup.json of a tool that did not record modes.
        var manifest = try BackupManifest(bytes: try Self.read(backup + "/backup.json"))
        for index in manifest.files.indices { manifest.files[index].mode = nil }
        manifest.folderModes = [:]
        #expect(!String(decoding: manifest.encoded, as: UTF8.self).contains("mode"))
        try Data(manifest.encoded).write(to: URL(fileURLWithPath: backup + "/backup.json"))
        #expect(try BackupVerification.verify(backup: backup).status == .ok)
        _ = try Restore.run(backup: backup, target: scratch.path + "/r", tool: "t", version: "0")
        let restored = try Self.modesAndBytes(scratch.path + "/r"), original = try Self.modesAndBytes(store)
        #expect(restored.mapValues(\.bytes) == original.mapValues(\.bytes))
        #expect(Set(restored.values.map(\.mode)) == [0o600])
        #expect(Self.folderModes(scratch.path + "/r") == [".": 0o700, "sessions": 0o700, "user-sessions": 0o700])
    }

    @Test func exportWithoutModesStillImportsEveryFile0600() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.storeWithModes(scratch)
        _ = try StoreExport.write(store: store, to: .file(scratch.path + "/e.jsonl"), tool: "t", version: "0")
        // The export of a tool that did not record modes: no "mode" member, the trailer's hash redone.
        let text = String(decoding: try Self.read(scratch.path + "/e.jsonl"), as: UTF8.self)
        var lines = text.split(separator: "\n").map(String.init)
        let trailer = lines.removeLast()
        lines = lines.map { $0.replacingOccurrences(of: #""mode":"0[0-7]{3}","#, with: "", options: .regularExpression) }
        lines[0] = lines[0].replacingOccurrences(of: #""folder_modes":\{[^}]*\},"#, with: "", options: .regularExpression)
        #expect(!lines[0].contains("folder_modes"))
        #expect(!lines.joined().contains("\"mode\""))
        let body = lines.map { $0 + "\n" }.joined()
        guard case .object(let old) = try JSONParser.parse(Array(trailer.utf8)),
            case .number(let files)? = old["files"], case .number(let bytes)? = old["bytes"],
            let fileCount = files.int64Value, let byteCount = bytes.int64Value
        else {
            Issue.record("the trailer does not parse")
            return
        }
        let newTrailer = ExportFormat.trailer(files: Int(fileCount), bytes: byteCount, sha256: SHA256.hex(of: Array(body.utf8)))
        try Data(Array(body.utf8) + newTrailer + [UInt8(ascii: "\n")]).write(to: URL(fileURLWithPath: scratch.path + "/old.jsonl"))
        _ = try StoreImport.read(from: .file(scratch.path + "/old.jsonl"), into: scratch.path + "/i", tool: "t", version: "0")
        let imported = try Self.modesAndBytes(scratch.path + "/i"), original = try Self.modesAndBytes(store)
        #expect(imported.mapValues(\.bytes) == original.mapValues(\.bytes))
        #expect(Set(imported.values.map(\.mode)) == [0o600])
        #expect(Self.folderModes(scratch.path + "/i") == [".": 0o700, "sessions": 0o700, "user-sessions": 0o700])
    }

    @Test func setIDAndStickyBitsAreNeverRecordedAndRefusedWhenRead() throws {
        let scratch = TemporaryDirectory()
        let store = try Self.storeWithModes(scratch)
        #expect(chmod(store + "/settings.json", 0o6640) == 0)
        let backup = scratch.path + "/b"
        let report = try Backup.create(store: store, destination: backup, tool: "t", version: "0")
        #expect(report.manifest.files.first { $0.path == "settings.json" }?.mode == 0o640)
        // An edited backup.json asking for setuid is refused, naming the file.
        var edited = String(decoding: try Self.read(backup + "/backup.json"), as: UTF8.self)
        let first = try #require(edited.range(of: "\"mode\": \"0600\""))  // queue.json, the first file listed
        edited.replaceSubrange(first, with: "\"mode\": \"4755\"")
        #expect { try BackupManifest(bytes: Array(edited.utf8)) } throws: {
            ($0 as? ArchiveProblem)?.kind == .corrupt && ($0 as? ArchiveProblem)?.entry == "queue.json"
        }
        // A sticky store folder, or a folder that is not the store's, is refused too.
        for bad in [#"".": "1777""#, #""../x": "0700""#] {
            let folders = String(decoding: try Self.read(backup + "/backup.json"), as: UTF8.self)
                .replacingOccurrences(of: #"".": "0755""#, with: bad)
            #expect(folders.contains(bad))
            #expect { try BackupManifest(bytes: Array(folders.utf8)) } throws: {
                ($0 as? ArchiveProblem)?.kind == .corrupt && ($0 as? ArchiveProblem)?.entry == "backup.json"
            }
        }
    }

    @Test func recordedModesParseStrictlyAndRestoreNeverOpenerForGroupOrOthers() {
        #expect(RecordedMode.text(0o644) == "0644" && RecordedMode.text(0o4755) == "0755" && RecordedMode.text(0) == "0000")
        #expect(RecordedMode.parse("0644") == 0o644 && RecordedMode.parse("0000") == 0)
        for bad in ["644", "4755", "1777", "0648", "00644", "", "0x1a4"] { #expect(RecordedMode.parse(bad) == nil, "\(bad)") }
        #expect(RecordedMode.restored(nil) == 0o600)
        #expect(RecordedMode.restored(0o640) == 0o640 && RecordedMode.restored(0o044) == 0o444)
        #expect(RecordedMode.restored(0o200) == 0o600)
    }

    // MARK: - Helpers

    private struct FileState: Equatable {
        var mode: mode_t
        var bytes: [UInt8]
    }

    private static func storeWithModes(_ scratch: TemporaryDirectory) throws -> String {
        let store = scratch.path + "/store"
        try Samples.copy("v2-store", to: store)
        for (path, _) in try modesAndBytes(store) { #expect(chmod(store + "/" + path, modes[path] ?? 0o600) == 0) }
        for (folder, mode) in folderModes { #expect(chmod(store + "/" + folder, mode) == 0) }
        return store
    }

    /// The permission bits of `root` (`"."`) and of its document folders.
    private static func folderModes(_ root: String) -> [String: mode_t] {
        var result: [String: mode_t] = [:]
        for folder in [".", "sessions", "user-sessions"] {
            var status = stat()
            if lstat(root + "/" + folder, &status) == 0 { result[folder] = status.st_mode & 0o7777 }
        }
        return result
    }

    private static func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// Every store file under `root` (backup files and dot names aside): its permission bits and bytes.
    private static func modesAndBytes(_ root: String) throws -> [String: FileState] {
        var result: [String: FileState] = [:]
        for path in try TreeScan.scan(root).files {
            var status = stat()
            guard lstat(path.absolute(in: root), &status) == 0 else { continue }
            result[path.rawValue] = FileState(mode: status.st_mode & 0o7777, bytes: try read(path.absolute(in: root)))
        }
        return result
    }
}
