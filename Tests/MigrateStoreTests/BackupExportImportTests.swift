import Foundation
import JSONStore
import Testing

/// `export` and `import`, run as the built binary.
@Suite struct BackupExportImportTests {
    @Test(arguments: ["v1-store", "v2-store"])
    func exportThenImportThroughAFileGivesAByteIdenticalStore(sample: String) throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample(sample, as: "store")
        let export = try BuiltTool.run(["export", store, scratch("e.jsonl")])
        #expect(export.code == 0, "\(export)")
        let files = sample == "v1-store" ? 14 : 15
        #expect(export.stdout.hasPrefix("Exported \(files) files ("))
        let imported = try BuiltTool.run(["import", scratch("e.jsonl"), scratch("copy")])
        #expect(imported.code == 0, "\(imported)")
        #expect(tree(scratch("copy"), dotNames: true, everyKind: true) == tree(Samples.path(sample), everyKind: true))
        #expect(folderNames(scratch.path).allSatisfy { !$0.hasPrefix(".copy.restoring-") })
    }

    @Test func exportToStandardOutputThenImportFromStandardInputGivesAByteIdenticalStore() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let (bytes, code) = try BuiltTool.runBytes(["export", store, "-"])
        #expect(code == 0)
        let lines = bytes.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 17)
        #expect(String(decoding: lines[1], as: UTF8.self).contains("\"path\":\"store.json\""))
        // The trailer's checksum is the SHA-256 of every byte before it.
        let trailerStart = bytes.count - lines[16].count - 1
        #expect(String(decoding: lines[16], as: UTF8.self).contains("\"sha256\":\"\(SHA256.hex(of: bytes[..<trailerStart]))\""))
        let run = try BuiltTool.run(["import", "-", scratch("copy")], stdin: bytes)
        #expect(
            run
                == ToolRun(
                    stdout: "Imported 15 files (20278 bytes, schema version 2) from standard input into '\(scratch("copy"))'; "
                        + "every file was verified first.\n", stderr: "", code: 0))
        #expect(tree(scratch("copy"), dotNames: true, everyKind: true) == tree(Samples.v2Store, everyKind: true))
    }

    @Test func exportLinesAreCompactJSONWithSortedKeysAndTheExactFileText() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        _ = try BuiltTool.run(["export", store, scratch("e.jsonl")])
        let lines = try String(contentsOfFile: scratch("e.jsonl"), encoding: .utf8).split(separator: "\n")
        #expect(lines[0].hasPrefix("{\"created_at\":\""))
        #expect(lines[0].contains(#"","files":15,"folder_modes":"#), "the header announces the file count")
        #expect(lines[0].contains(#","folder_modes":{".":"0"#))
        #expect(
            lines[0].hasSuffix(
                "\"},\"format\":\"work-stream-store-export\",\"format_version\":1,\"store_schema_version\":2,"
                    + "\"tool_version\":\"0.1.0\",\"type\":\"header\"}"))
        let settings = try String(contentsOfFile: store + "/settings.json", encoding: .utf8)
        let hash = SHA256.hex(of: Array(settings.utf8))
        var status = stat()
        #expect(lstat(store + "/settings.json", &status) == 0)
        let mode = String(status.st_mode & 0o777, radix: 8)
        #expect(
            lines.contains(
                "{\"content\":\"{\\n  \\\"priority_queue_enabled\\\": true,\\n  \\\"queue_enabled\\\": true,\\n  "
                    + "\\\"schema_version\\\": 2\\n}\\n\",\"mode\":\"0\(mode)\",\"path\":\"settings.json\",\"sha256\":\"\(hash)\",\"size\":85,\"type\":\"file\"}"
            ))
        #expect(lines[16].hasPrefix("{\"bytes\":20278,\"files\":15,\"sha256\":\""))
    }

    @Test func importRefusesANonEmptyFolderWithExit73AndWritesNothing() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let target = try scratch.copySample("v1-store", as: "target")
        _ = try BuiltTool.run(["export", store, scratch("e.jsonl")])
        let before = tree(target, dotNames: true, everyKind: true)
        let names = folderNames(scratch.path)
        #expect(
            try BuiltTool.run(["import", scratch("e.jsonl"), target])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Can't import into '\(target)': it is not empty (4 entries). Import into a new or empty folder.

                        """, code: 73))
        #expect(tree(target, dotNames: true, everyKind: true) == before)
        #expect(folderNames(scratch.path) == names)
    }

    @Test func importIntoAnEmptyFolderFillsIt() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        _ = try BuiltTool.run(["export", store, scratch("e.jsonl")])
        try FileManager.default.createDirectory(atPath: scratch("empty"), withIntermediateDirectories: false)
        #expect(try BuiltTool.run(["import", scratch("e.jsonl"), scratch("empty")]).code == 0)
        #expect(tree(scratch("empty"), dotNames: true, everyKind: true) == tree(Samples.v2Store, everyKind: true))
    }

    @Test func exportRefusesAnExistingFileWithExit73() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: scratch("e.jsonl")))
        #expect(
            try BuiltTool.run(["export", store, scratch("e.jsonl")])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: Can't write the export '\(scratch("e.jsonl"))': it already exists. Choose a new file name; an existing file is never overwritten.

                        """, code: 73))
        #expect(tree(scratch.path, everyKind: true)["e.jsonl"] == Array("keep".utf8))
        #expect(folderNames(scratch.path) == ["e.jsonl", "store"])
    }

    @Test func exportWithJSONToStandardOutputIsAUsageError() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let run = try BuiltTool.run(["--json", "export", store, "-"])
        #expect(run.code == 64)
        #expect(run.stderr.hasPrefix("Error: --json can't be used with '-': standard output holds the export.\n"))
    }
}
