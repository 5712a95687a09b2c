import Foundation
import Testing

@testable import JSONStore

/// The library's own texts name no command-line tool: a way out that is one of the store's
/// operations stays a value (`StoreError.Recovery`), said in plain words to an app and as a
/// command line by a tool that puts its own in; the others are worded for any caller.
@Suite struct ToolFreeTextsTests {
    /// The session replaced or edited in the fixtures below (in every sample).
    static let session = "1caaa999-8519-45f8-b97b-72e5454d2aee"

    /// A tool's command line for an operation, as a test tool spells it.
    static func commandLine(_ operation: StoreError.Operation) -> String {
        switch operation {
        case .migrate(nil, nil, false): "TOOL migrate"
        default: "TOOL ?"
        }
    }

    @Test func aV2StoreWithoutItsQueueDocumentNamesTheMigrationAsAnOperation() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v2-store", as: "store")
        #expect(unlink(path + "/queue.json") == 0)
        let result = try StoreVerifier(store: try Store.open(at: path, options: .readOnly)).verify()
        #expect(result.integrity.map(\.description) == ["queue.json: missing in a v2 store; migrate the store to rebuild it"])
        #expect(
            result.integrity.map { $0.text(commandLine: Self.commandLine) } == ["queue.json: missing in a v2 store; run 'TOOL migrate' to rebuild it"])
    }

    @Test func anOlderDocumentInTheStoreNamesTheMigrationAsAnOperation() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v3-store", as: "store")
        let file = "sessions/\(Self.session).json"
        try FileManager.default.removeItem(atPath: path + "/" + file)
        try FileManager.default.copyItem(atPath: Samples.path("v2-store") + "/" + file, toPath: path + "/" + file)
        let result = try StoreVerifier(store: try Store.open(at: path, options: .readOnly)).verify()
        let problem = "\(file): schema_version 2 in a v3 store (written by a v2 writer); "
        #expect(result.integrity.map(\.description) == [problem + "migrate the store to upgrade it and reconcile the queue"])
        #expect(
            result.integrity.map { $0.text(commandLine: Self.commandLine) } == [problem + "run 'TOOL migrate' to upgrade it and reconcile the queue"])
    }

    @Test func aDocumentOfAnUnsupportedVersionHasAFixThatNamesNoTool() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v3-store", as: "store")
        let file = path + "/sessions/\(Self.session).json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"schema_version\": 3", with: "\"schema_version\": 99").write(toFile: file, atomically: true, encoding: .utf8)
        let validator = try StoreValidator(try Store.open(at: path, options: .readOnly))
        let problem = try #require(validator.problems.first { $0.code == "unsupported_version" })
        #expect(problem.fix == "Use a version of the tool that reads it, or migrate the store first.")
        #expect(problem.recovery.text(commandLine: Self.commandLine) == "Use a version of the tool that reads it, or run 'TOOL migrate' first.")
    }

    @Test func aFolderWithoutBackupJSONIsNotABackupMadeByThisTool() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v2-store", as: "store")
        _ = try Backup.create(store: store, destination: folder("backup"), tool: "t", version: "1")
        #expect(unlink(folder("backup") + "/backup.json") == 0)
        let report = try BackupVerification.verify(backup: folder("backup"))
        #expect(
            report.problems.filter { $0.entry == "backup.json" }
                == [ArchiveProblem(.corrupt, entry: "backup.json", "is missing: this folder is not a backup made by this tool, or it is incomplete")])
    }

    @Test(arguments: [
        (
            "{\"content\":\"\",\"path\":\"settings.json\",\"sha256\":\"\",\"size\":0,\"type\":\"file\"}",
            "'line 1': the first line must be the header of a work-stream store export; this is not an export"
        ),
        (
            "{\"format\":\"tarball\",\"format_version\":1,\"store_schema_version\":2,\"tool_version\":\"1\",\"type\":\"header\"}",
            "'line 1': is not the header of a work-stream store export ('format' is not 'work-stream-store-export')"
        ),
    ])
    func anInputThatIsNotAnExportNamesTheFormatNotATool(firstLine: String, problem: String) throws {
        let folder = TemporaryDirectory()
        try Data((firstLine + "\n").utf8).write(to: URL(fileURLWithPath: folder("e.jsonl")))
        #expect {
            try StoreImport.read(from: .file(folder("e.jsonl")), into: folder("imported"), tool: "t", version: "1")
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.message
                == "Can't import '\(folder("e.jsonl"))': the export is corrupt: \(problem). Nothing was written."
        }
    }

    @Test func openingForWritingPastUnreadableDocumentsWarnsInPlainWords() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v4-store", as: "store")
        try Data("{".utf8).write(to: URL(fileURLWithPath: path + "/sessions/\(Self.session).json"))
        let store = try Store.open(at: path, options: Store.Options(readOnly: false, tool: "t", version: "1"))
        #expect(
            store.warnings == [
                "The queue of '\(path)' was not checked against its mirror: 1 document(s) can't be read. "
                    + "Validate the store for each one's problem and its fix."
            ])
    }
}
