import Foundation
import Testing

@testable import MigrateStoreCLI

/// The one rule for a path on the command line (see `PathRole`): a path that does not exist,
/// or a folder that is not a store (nor a backup, nor an export file), is a usage error, exit
/// status 64, for every command, and nothing is created or changed.
@Suite struct PathArgumentExitCodeTests {
    /// A command line with `path` where the command reads its input; `dir` holds good inputs
    /// for the other arguments (`good-backup`) and room for outputs.
    struct Case: CustomTestStringConvertible, Sendable {
        var command: String
        var words: @Sendable (_ path: String, _ dir: String) -> [String]
        var needsBackup = false
        var testDescription: String { command }
    }

    static let cases: [Case] = [
        Case(command: "status") { p, _ in ["status", p] },
        Case(command: "plan") { p, _ in ["plan", p] },
        Case(command: "migrate") { p, _ in ["migrate", p] },
        Case(command: "verify") { p, _ in ["verify", p] },
        Case(command: "rollback", words: { p, d in ["rollback", p, "--from-backup", d + "/good-backup"] }, needsBackup: true),
        Case(command: "ls") { p, _ in ["ls", p] },
        Case(command: "show") { p, _ in ["show", p, "555a"] },
        Case(command: "queue") { p, _ in ["queue", p] },
        Case(command: "stats") { p, _ in ["stats", p] },
        Case(command: "validate") { p, _ in ["validate", p] },
        Case(command: "backup") { p, d in ["backup", p, d + "/new-backup"] },
        Case(command: "verify-backup") { p, _ in ["verify-backup", p] },
        Case(command: "restore") { p, d in ["restore", p, d + "/new-store"] },
        Case(command: "export") { p, d in ["export", p, d + "/new-export.jsonl"] },
        Case(command: "import") { p, d in ["import", p, d + "/new-store"] },
        Case(command: "list-backups") { p, _ in ["list-backups", p] },
        Case(command: "prune-backups") { p, _ in ["prune-backups", p, "--keep", "1"] },
    ]

    enum Path: String, CaseIterable, Sendable {
        case missing = "no-such-path"
        case notAStore = "not-a-store"
    }

    @Test(arguments: cases, Path.allCases)
    func pathThatIsMissingOrNotAStoreExits64(_ c: Case, _ kind: Path) throws {
        let temporary = TemporaryDirectory("path-rule")
        let dir = temporary.path
        try FileManager.default.createDirectory(atPath: dir + "/not-a-store", withIntermediateDirectories: false)
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: dir + "/not-a-store/notes.txt"))
        if c.needsBackup {
            let store = try temporary.copySample("v2-store")
            #expect(try BuiltTool.run(["backup", store, dir + "/good-backup"]).code == 0)
        }
        let before = snapshot(dir, includingRoot: false)
        let path = dir + "/" + kind.rawValue
        let run = try BuiltTool.run(c.words(path, dir))
        #expect(run.code == 64, "\(run)")
        #expect(run.stdout == "")
        #expect(run.stderr.hasPrefix("Error: '\(path)' "), "the message names the path first: \(run.stderr)")
        #expect(
            run.stderr.hasSuffix("Check the path.\n") || run.stderr.contains("Check the path;")
                || run.stderr.contains("Check the path, or create a store first."), "\(run.stderr)")
        #expect(snapshot(dir, includingRoot: false) == before, "nothing is created or changed")

        let json = try BuiltTool.run(c.words(path, dir) + ["--json"])
        #expect(json.code == 64)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["error"] as? [String: Any])?["exit_code"] as? Int == 64)
    }

    /// A file where `import` and `restore` create a store: the same rule, and the message names the command.
    @Test(arguments: ["import", "restore"])
    func targetThatIsAFileExits64NamingTheCommand(_ command: String) throws {
        let temporary = TemporaryDirectory("path-target")
        let dir = temporary.path
        let store = try temporary.copySample("v2-store")
        let source = dir + (command == "import" ? "/export.jsonl" : "/backup")
        #expect(try BuiltTool.run([command == "import" ? "export" : "backup", store, source]).code == 0)
        try Data("a file\n".utf8).write(to: URL(fileURLWithPath: dir + "/afile"))
        let run = try BuiltTool.run([command, source, dir + "/afile"])
        #expect(
            run
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Can't \(command) into '\(dir)/afile': it is not a folder. Move it away or choose another path.

                        """, code: 64))
    }

    @Test func noOpMigrateJSONLeavesOutDocumentsAsTheREADMESays() throws {
        let temporary = TemporaryDirectory("noop-json")
        let store = try temporary.copySample("v4-store")
        let run = try BuiltTool.run(["migrate", store, "--json"])
        #expect(run.code == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["documents"] == nil)
        #expect(object["noop"] as? Bool == true && object["files_changed"] as? Int == 0 && object["backup"] is NSNull)
    }
}
