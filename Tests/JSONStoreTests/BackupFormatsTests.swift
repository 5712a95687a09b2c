import Foundation
import StoreJSON
import Testing

@testable import JSONStore

/// The pure parts of backups and exports: store paths, SHA256SUMS, backup.json, export lines.
@Suite struct BackupFormatsTests {
    @Test(arguments: [
        "store.json", "settings.json", "queue.json", "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json",
        "user-sessions/e3ec053b-0661-4e09-b86f-1dad7839b6fd.json",
    ])
    func theFiveSpecShapesAreStorePaths(path: String) {
        #expect(StoreFilePath(path)?.rawValue == path)
    }

    @Test(arguments: [
        "", "../x", "/etc/passwd", "sessions/../../x", "./store.json", "store.json/", "sessions//x.json",
        "sessions/NOT-A-UUID.json", "sessions/1CAAA999-8519-45F8-B97B-72E5454D2AEE.json", ".lock",
        "sessions/.tmp-0123456789abcdef-1caaa999-8519-45f8-b97b-72e5454d2aee.json", "sessions",
        "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json/x", "other/1caaa999-8519-45f8-b97b-72e5454d2aee.json",
        "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.JSON", "backup.json", "SHA256SUMS",
    ])
    func everythingElseIsRefused(path: String) {
        #expect(StoreFilePath(path) == nil)
    }

    @Test func storePathsSortByTheirBytes() {
        let paths = [
            "user-sessions/e3ec053b-0661-4e09-b86f-1dad7839b6fd.json", "store.json", "settings.json",
            "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json", "queue.json",
        ].compactMap(StoreFilePath.init)
        #expect(
            paths.sorted().map(\.rawValue) == [
                "queue.json", "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json",
                "settings.json", "store.json", "user-sessions/e3ec053b-0661-4e09-b86f-1dad7839b6fd.json",
            ])
    }

    @Test func checksumFileIsWhatSha256sumWritesAndParsesBack() throws {
        let entries = [BackupManifest.Entry(path: "queue.json", size: 3, sha256: SHA256.hex(of: Array("abc".utf8)))]
        let bytes = ChecksumFile.render(entries)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  queue.json\n")
        let parsed = try ChecksumFile.parse(bytes)
        #expect(parsed.map(\.path) == ["queue.json"])
        #expect(throws: ArchiveProblem.self) { try ChecksumFile.parse(Array(bytes.dropLast())) }
        #expect(throws: ArchiveProblem.self) { try ChecksumFile.parse(Array("xyz  queue.json\n".utf8)) }
    }

    @Test func backupManifestRoundTripsAndRefusesNewerVersionsAsIncompatible() throws {
        let manifest = BackupManifest(
            toolVersion: "0.1.0", storeSchemaVersion: 2, createdAt: Date(timeIntervalSince1970: 0),
            files: [.init(path: "store.json", size: 4, sha256: String(repeating: "a", count: 64))])
        #expect(
            String(decoding: manifest.encoded, as: UTF8.self) == """
                {
                  "created_at": "1970-01-01T00:00:00.000Z",
                  "files": [
                    {
                      "path": "store.json",
                      "sha256": "\(String(repeating: "a", count: 64))",
                      "size": 4
                    }
                  ],
                  "format": "work-stream-store-backup",
                  "format_version": 1,
                  "store_schema_version": 2,
                  "tool_version": "0.1.0"
                }

                """)
        #expect(try BackupManifest(bytes: manifest.encoded) == manifest)
        let newer = Array(
            String(decoding: manifest.encoded, as: UTF8.self)
                .replacingOccurrences(of: "\"format_version\": 1", with: "\"format_version\": 7").utf8)
        #expect { try BackupManifest(bytes: newer) } throws: { ($0 as? ArchiveProblem)?.kind == .incompatible }
        #expect { try BackupManifest(bytes: Array("[]".utf8)) } throws: { ($0 as? ArchiveProblem)?.kind == .corrupt }
    }

    @Test func exportLinesAreCompactSortedAndEscapeEveryControlCharacter() throws {
        let path = try #require(StoreFilePath("settings.json"))
        let content = Array("{\"a\": \"\u{1}\\\t\"}\n".utf8)
        let line = String(decoding: try #require(ExportFormat.file(path, content: content, mode: 0o4640)), as: UTF8.self)
        #expect(
            line == #"{"content":"{\"a\": \"\u0001\\\t\"}\n","mode":"0640","path":"settings.json","sha256":""#
                + SHA256.hex(of: content) + #"","size":\#(content.count),"type":"file"}"#)
        #expect(!line.contains("\n"))
        // Reading the line back gives the exact bytes.
        guard case .object(let object) = try JSONParser.parse(Array(line.utf8)), case .string(let text)? = object["content"] else {
            Issue.record("the line does not parse")
            return
        }
        #expect(Array(text.utf8) == content)
    }

    @Test func utf8ValidationRefusesBrokenSequences() {
        #expect(ExportFormat.isValidUTF8(Array("Café — ok".utf8)))
        #expect(!ExportFormat.isValidUTF8([0x7B, 0xC3, 0x28, 0x7D]))
        #expect(!ExportFormat.isValidUTF8([0xFF]))
    }

    @Test func asideNamesCarryTheUTCTimeAndNeverReuseAName() throws {
        let scratch = TemporaryDirectory()
        let target = try SiblingPath(scratch.path + "/store")
        let date = try #require(RFC3339.parse("2025-11-20T09:00:00.250Z"))
        #expect(try AsideName.make(for: target, at: date, system: .real) == "store.replaced-20251120T090000Z")
        try scratch.write(["x": "x"], under: "store.replaced-20251120T090000Z")
        #expect(try AsideName.make(for: target, at: date, system: .real) == "store.replaced-20251120T090000Z-2")
    }

    @Test(arguments: ["", "/", ".", "..", "a/.."])
    func targetPathsThatCannotBeRenamedAreRefused(path: String) {
        #expect(throws: StoreError.self) { try SiblingPath(path) }
    }
}
