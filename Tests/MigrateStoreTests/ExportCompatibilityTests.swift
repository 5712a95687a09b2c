import Foundation
import JSONStore
import TestSupport
import Testing

/// Issue 19 made `export` faster (one-pass escaping, SHA-NI, a pipeline, early write-back); the
/// format did not change. An export written by the tool before that change still imports, and
/// the new code writes the same file lines for the same store.
@Suite struct ExportCompatibilityTests {
    /// `Tests/Golden/export-v3-store-before-issue-19.jsonl`: `migrate-store export Samples/v3-store`
    /// by the build before issue 19, kept as it was written.
    static let oldExport = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/export-v3-store-before-issue-19.jsonl").path

    @Test func anExportWrittenBeforeIssue19ImportsByteIdentical() throws {
        let scratch = TemporaryDirectory()
        let run = try BuiltTool.run(["import", Self.oldExport, scratch("copy")])
        #expect(
            run
                == ToolRun(
                    stdout: "Imported 15 files (22284 bytes, schema version 3) from '\(Self.oldExport)' into "
                        + "'\(scratch("copy"))'; every file was verified first.\n", stderr: "", code: 0))
        #expect(tree(scratch("copy"), dotNames: true, everyKind: true) == tree(Samples.v3Store, everyKind: true))
    }

    @Test func theNewCodeWritesTheSameFileLinesAsTheOld() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v3-store", as: "store")
        let export = try BuiltTool.run(["export", store, scratch("new.jsonl")])
        #expect(export.code == 0, "\(export)")
        let old = try lines(Self.oldExport), new = try lines(scratch("new.jsonl"))
        #expect(new.count == old.count)
        // The header (its created_at) and so the trailer's SHA-256 differ; every file line is equal
        // when the copied store has the sample's modes (the old export recorded those).
        let modes = try fileModes(Samples.v3Store) == fileModes(store)
        #expect(modes)
        #expect(Array(new.dropFirst().dropLast()) == Array(old.dropFirst().dropLast()))
        #expect(new.last?.hasPrefix("{\"bytes\":22284,\"files\":15,\"sha256\":\"") == true)
    }

    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private func fileModes(_ root: String) throws -> [String: Int] {
        var modes: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            // Dot names (the store's .lock) are bookkeeping, never exported.
            if path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let attributes = try FileManager.default.attributesOfItem(atPath: root + "/" + path)
            modes[path] = (attributes[.posixPermissions] as? Int) ?? -1
        }
        return modes
    }
}
