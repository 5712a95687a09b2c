import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// `V5Fixture` makes the v5 store of spec §12 from `Samples/v4-store`, byte for byte.
@Suite struct V5FixtureTests {
    @Test func fixtureMovesEveryWorkStreamToWorkStreamsAndKeepsTheOtherFiles() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let v4 = tree(Samples.v4Store)
        let v5 = tree(path)
        let expected = Set(v4.keys.map { $0.hasPrefix("sessions/") ? "work-streams/" + $0.dropFirst("sessions/".count) : $0 })
        #expect(Set(v5.keys) == expected)
        #expect(v5.keys.filter { $0.hasPrefix("work-streams/") }.count == 8)
    }

    @Test func workStreamsAreRenamedWithoutMirrorKeys() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let v4 = tree(Samples.v4Store)
        let v5 = tree(path)
        for (relative, bytes) in v4 where relative.hasPrefix("sessions/") {
            let renamed = "work-streams/" + relative.dropFirst("sessions/".count)
            #expect(String(decoding: v5[renamed] ?? [], as: UTF8.self) == V5Store.expectedV5Text(ofV4: String(decoding: bytes, as: UTF8.self)), "\(renamed)")
        }
    }

    @Test func smallDocumentsChangeOnlyTheirSchemaVersion() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let v4 = tree(Samples.v4Store)
        let v5 = tree(path)
        for (relative, bytes) in v4 where relative == "settings.json" || relative == "queue.json" || relative.hasPrefix("user-sessions/") {
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"schema_version\": 4", with: "\"schema_version\": 5")
            #expect(String(decoding: v5[relative] ?? [], as: UTF8.self) == text, "\(relative)")
        }
    }

    @Test func manifestIsV5WithMinimumReader5AndOneMoreMigrationRecord() throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let v4 = String(decoding: tree(Samples.v4Store)["store.json"]!, as: UTF8.self)
        let record =
            "," + """

                    {
                      "counts": {
                        "fifo_entries": 3,
                        "priority_entries": 4,
                        "sessions": 8,
                        "settings": 1,
                        "user_sessions": 5
                      },
                      "finished_at": "2025-11-20T09:00:00.250Z",
                      "from": 4,
                      "started_at": "2025-11-20T09:00:00.000Z",
                      "to": 5,
                      "tool_version": "0.1.0"
                    }
                  ],
                  "min_reader_version": 5,
                  "schema_version": 5
                }

                """
        let expected = v4.replacingOccurrences(of: "\n  ],\n  \"min_reader_version\": 1,\n  \"schema_version\": 4\n}\n", with: record)
        #expect(expected != v4)
        #expect(String(decoding: tree(path)["store.json"]!, as: UTF8.self) == expected)
    }

    /// §4 reader rule, §9: the fixture's store.json refuses every older reader, naming both versions.
    @Test(arguments: [1, 2, 3, 4])
    func olderReaderIsRefusedNamingBothVersions(_ reader: Int) throws {
        let dir = TemporaryDirectory()
        let path = try V5Store.make(dir)
        let header = try ManifestHeader(json: try DocumentVersion.parse(tree(path)["store.json"]!))
        #expect(header.compatibility(reader: reader) == .refused(storeVersion: 5, minReaderVersion: 5, reader: reader))
        #expect(
            header.compatibility(reader: reader).refusal
                == "the store has schema_version 5 and needs a reader of version 5 or newer (min_reader_version 5), but this tool reads version \(reader); use a newer version of the tool"
        )
        #expect(header.compatibility() == .breakingCurrent(storeVersion: 5))
    }
}
