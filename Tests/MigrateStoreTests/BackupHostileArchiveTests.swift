import Foundation
import JSONStore
import Testing

/// Hostile or broken backups and exports: each is rejected before anything is written, with a
/// message naming the entry. The target (absent, or an existing store with --force) and its
/// parent folder are compared before and after.
@Suite struct BackupHostileArchiveTests {
    static let session = "sessions/ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b.json"
    static let upper = "sessions/AD9A22B8-A0A3-4CF2-B7A4-205CD0BA062B.json"

    /// A backup case: how to damage a fresh backup of the v2 sample, and the entry the error must name.
    static let backupCases: [(name: String, entry: String)] = [
        ("dot-dot path in backup.json", "../x"),
        ("absolute path in backup.json", "/etc/passwd"),
        ("path escaping through sessions", "sessions/../../x"),
        ("invalid name in backup.json", "sessions/NOT-A-UUID.json"),
        ("uppercase UUID in backup.json", upper),
        ("invalid name in the folder", "sessions/NOT-A-UUID.json"),
        ("uppercase UUID in the folder", upper),
        ("duplicate path", session),
        ("symbolic link", session),
        ("FIFO", session),
        ("size mismatch", session),
        ("hash mismatch", session),
        ("truncated file", session),
        ("extra file", "user-sessions/00000000-0000-4000-8000-000000000000.json"),
        ("missing file", session),
        ("SHA256SUMS disagrees", session),
        ("no backup.json", "backup.json"),
    ]

    @Test(arguments: backupCases.map(\.name))
    func hostileBackupIsRejectedByVerifyAndRestoreWithNothingWritten(name: String) throws {
        let entry = try #require(Self.backupCases.first { $0.name == name }).entry
        let scratch = TemporaryDirectory()
        let source = try scratch.copySample("v2-store", as: "source")
        let backup = scratch("b")
        #expect(try BuiltTool.run(["backup", source, backup]).code == 0)
        try damage(backup, name)

        let verify = try BuiltTool.run(["verify-backup", backup])
        #expect(verify.code == 69, "\(verify)")
        #expect(verify.stderr.contains("\n  '\(entry)': "), "\(verify)")

        let namesBefore = folderNames(scratch.path)
        let fresh = try BuiltTool.run(["restore", backup, scratch("new")])
        #expect(fresh.code == 69)
        #expect(fresh.stderr.hasPrefix("Error: Can't restore from '\(backup)': the backup is corrupt: "), "\(fresh)")
        #expect(fresh.stderr.contains("'\(entry)'"), "\(fresh)")
        #expect(folderNames(scratch.path) == namesBefore)

        let target = try scratch.copySample("v1-store", as: "target")
        let targetBefore = tree(target, dotNames: true, everyKind: true)
        let namesWithTarget = folderNames(scratch.path)
        #expect(try BuiltTool.run(["restore", backup, target, "--force"]).code == 69)
        #expect(tree(target, dotNames: true, everyKind: true) == targetBefore)
        #expect(folderNames(scratch.path) == namesWithTarget)
    }

    private func damage(_ backup: String, _ name: String) throws {
        let file = backup + "/" + Self.session
        switch name {
        case "dot-dot path in backup.json": try renameEntry(backup, "settings.json", to: "../x")
        case "absolute path in backup.json": try renameEntry(backup, "settings.json", to: "/etc/passwd")
        case "path escaping through sessions": try renameEntry(backup, "settings.json", to: "sessions/../../x")
        case "invalid name in backup.json": try renameEntry(backup, Self.session, to: "sessions/NOT-A-UUID.json")
        case "uppercase UUID in backup.json": try renameEntry(backup, Self.session, to: Self.upper)
        case "invalid name in the folder":
            try Data("{}".utf8).write(to: URL(fileURLWithPath: backup + "/sessions/NOT-A-UUID.json"))
        case "uppercase UUID in the folder": #expect(rename(file, backup + "/" + Self.upper) == 0)
        case "duplicate path":
            try edit(backup + "/backup.json") { text in
                // The entry's first line: `{` before its first key (`mode`, then `path`).
                let path = text.range(of: "\"path\": \"\(Self.session)\"")!.lowerBound
                let start = text[..<path].range(of: "    {\n", options: .backwards)!.lowerBound
                let end = text[start...].range(of: "    },\n")!.upperBound
                return text.replacingCharacters(in: start..<start, with: String(text[start..<end]))
            }
        case "symbolic link":
            let target = try String(contentsOfFile: file, encoding: .utf8)
            try target.write(toFile: backup + "/elsewhere.json", atomically: false, encoding: .utf8)
            #expect(unlink(file) == 0 && symlink("../elsewhere.json", file) == 0)
            #expect(unlink(backup + "/elsewhere.json") == 0 && symlink("/etc/passwd", backup + "/elsewhere.json") == 0)
            #expect(unlink(backup + "/elsewhere.json") == 0)
        case "FIFO": #expect(unlink(file) == 0 && mkfifo(file, 0o600) == 0)
        case "size mismatch": try replaceFile(file, with: tree(backup, everyKind: true)[Self.session]! + [0x0A])
        case "hash mismatch":
            var bytes = tree(backup, everyKind: true)[Self.session]!
            bytes[10] ^= 0x20
            try replaceFile(file, with: bytes)
        case "truncated file": try replaceFile(file, with: Array(tree(backup, everyKind: true)[Self.session]!.prefix(100)))
        case "extra file":
            try Data("{}".utf8).write(to: URL(fileURLWithPath: backup + "/user-sessions/00000000-0000-4000-8000-000000000000.json"))
        case "missing file": #expect(unlink(file) == 0)
        case "SHA256SUMS disagrees":
            try edit(backup + "/SHA256SUMS") { text in
                text.split(separator: "\n").map { $0.hasSuffix(Self.session) ? String(repeating: "0", count: 64) + "  " + Self.session : String($0) }
                    .joined(separator: "\n") + "\n"
            }
        case "no backup.json": #expect(unlink(backup + "/backup.json") == 0)
        default: Issue.record("unknown case '\(name)'")
        }
    }

    /// Renames an entry in backup.json and SHA256SUMS alike, so only the path itself is wrong.
    private func renameEntry(_ backup: String, _ old: String, to new: String) throws {
        try edit(backup + "/backup.json") { $0.replacingOccurrences(of: "\"path\": \"\(old)\"", with: "\"path\": \"\(new)\"") }
        try edit(backup + "/SHA256SUMS") { $0.replacingOccurrences(of: "  \(old)\n", with: "  \(new)\n") }
    }

    private func edit(_ path: String, _ change: (String) -> String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let changed = change(text)
        #expect(changed != text, "the edit of '\(path)' changed nothing")
        try replaceFile(path, with: Array(changed.utf8))
    }

    // MARK: Exports

    static let exportCases: [(name: String, entry: String)] = [
        ("dot-dot path", "../x"),
        ("absolute path", "/etc/passwd"),
        ("path escaping through sessions", "sessions/../../x"),
        ("invalid name", "sessions/NOT-A-UUID.json"),
        ("uppercase UUID", upper),
        ("dot name", ".lock"),
        ("duplicate path", session),
        ("size mismatch", session),
        ("hash mismatch", session),
        ("document that does not decode", session),
        ("no trailer", "line 16"),
        ("trailer count mismatch", "line 17"),
        ("header count mismatch", "line 17"),
        ("trailer checksum mismatch", "line 17"),
        ("last line cut off", "line 17"),
        ("data after the trailer", "line 18"),
        ("no header", "line 1"),
        ("not JSON", "line 3"),
    ]

    @Test(arguments: exportCases.map(\.name))
    func hostileExportIsRejectedByImportWithNothingWritten(name: String) throws {
        let entry = try #require(Self.exportCases.first { $0.name == name }).entry
        let scratch = TemporaryDirectory()
        let source = try scratch.copySample("v2-store", as: "source")
        #expect(try BuiltTool.run(["export", source, scratch("e.jsonl")]).code == 0)
        var lines = try String(contentsOfFile: scratch("e.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 17)
        let index = try #require(lines.firstIndex { $0.contains("\"path\":\"\(Self.session)\"") })
        switch name {
        case "dot-dot path": lines[index] = lines[index].replacingOccurrences(of: Self.session, with: "../x")
        case "absolute path": lines[index] = lines[index].replacingOccurrences(of: Self.session, with: "/etc/passwd")
        case "path escaping through sessions": lines[index] = lines[index].replacingOccurrences(of: Self.session, with: "sessions/../../x")
        case "invalid name": lines[index] = lines[index].replacingOccurrences(of: Self.session, with: "sessions/NOT-A-UUID.json")
        case "uppercase UUID": lines[index] = lines[index].replacingOccurrences(of: Self.session, with: Self.upper)
        case "dot name": lines[index] = lines[index].replacingOccurrences(of: Self.session, with: ".lock")
        case "duplicate path": lines.insert(lines[index], at: index)
        case "size mismatch": lines[index] = lines[index].replacingOccurrences(of: "\"size\":2804", with: "\"size\":2805")
        case "hash mismatch": lines[index] = lines[index].replacingOccurrences(of: "Fix login", with: "Fix LOGIN")
        case "document that does not decode":
            let content = "{\"schema_version\": 2}\n"
            lines[index] =
                "{\"content\":\"{\\\"schema_version\\\": 2}\\n\",\"path\":\"\(Self.session)\",\"sha256\":\""
                + sha256Hex(Array(content.utf8)) + "\",\"size\":\(content.utf8.count),\"type\":\"file\"}"
        case "no trailer": lines.removeLast()
        case "trailer count mismatch": lines[16] = lines[16].replacingOccurrences(of: "\"files\":15", with: "\"files\":14")
        case "header count mismatch": lines[0] = lines[0].replacingOccurrences(of: "\"files\":15", with: "\"files\":16")
        case "trailer checksum mismatch":
            let digit = try #require(lines[16].range(of: "\"sha256\":\"")).upperBound
            let flipped = lines[16][digit] == "0" ? "1" : "0"
            lines[16].replaceSubrange(digit...digit, with: flipped)
        case "last line cut off": lines[16] = String(lines[16].dropLast(5))
        case "data after the trailer": lines.append(lines[3])
        case "no header": lines.removeFirst()
        case "not JSON": lines[2] = String(lines[2].prefix(40))
        default: Issue.record("unknown case '\(name)'")
        }
        var text = lines.joined(separator: "\n")
        if name != "last line cut off" { text += "\n" }
        let damaged = scratch("damaged.jsonl")
        try Data(text.utf8).write(to: URL(fileURLWithPath: damaged))

        let namesBefore = folderNames(scratch.path)
        let run = try BuiltTool.run(["import", damaged, scratch("new")])
        #expect(run.code == 69, "\(run)")
        #expect(run.stderr.hasPrefix("Error: Can't import '\(damaged)': the export is corrupt: '\(entry)'"), "\(run)")
        #expect(run.stderr.hasSuffix(". Nothing was written.\n"))
        #expect(folderNames(scratch.path) == namesBefore)
    }

    /// What is not a backup or not an export is said without naming a tool: the library's texts
    /// are read by apps too.
    @Test func aFolderWithoutBackupJSONAndAFileWithoutAHeaderAreRefusedInWordsThatNameNoTool() throws {
        let scratch = TemporaryDirectory()
        let source = try scratch.copySample("v2-store", as: "source")
        #expect(try BuiltTool.run(["backup", source, scratch("b")]).code == 0)
        #expect(unlink(scratch("b") + "/backup.json") == 0)
        #expect(
            try BuiltTool.run(["verify-backup", scratch("b")])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: '\(scratch("b"))' is corrupt: 1 problem:
                          'backup.json': is missing: this folder is not a backup made by this tool, or it is incomplete

                        """, code: 69))

        let export = scratch("e.jsonl")
        try Data("{\"content\":\"\",\"path\":\"settings.json\",\"sha256\":\"\",\"size\":0,\"type\":\"file\"}\n".utf8)
            .write(to: URL(fileURLWithPath: export))
        #expect(
            try BuiltTool.run(["import", export, scratch("new")])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Can't import '\(export)': the export is corrupt: 'line 1': the first line must be the header of a work-stream store export; this is not an export. Nothing was written.

                        """, code: 69))
    }

    @Test func importOfANewerExportFormatExits65() throws {
        let scratch = TemporaryDirectory()
        let export = scratch("e.jsonl")
        try Data(
            ("{\"format\":\"work-stream-store-export\",\"format_version\":2,\"store_schema_version\":2,"
                + "\"tool_version\":\"9.0.0\",\"type\":\"header\"}\n").utf8
        ).write(to: URL(fileURLWithPath: export))
        #expect(
            try BuiltTool.run(["import", export, scratch("new")])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Can't import '\(export)': this tool can't read the export: 'line 1': has format_version 2, but this tool reads version 1; use a newer version of the tool. Nothing was written.

                        """, code: 65))
    }
}

/// SHA-256 through the library, as hex.
func sha256Hex(_ bytes: [UInt8]) -> String { SHA256.hex(of: bytes) }
