import Foundation
import Testing

/// The bundled v1 sample keeps the shape the README promises (spec §1–3).
@Suite struct SampleStoreTests {
    static let store = URL(fileURLWithPath: Samples.v1Store)

    private func object(_ relativePath: String) throws -> [String: Any] {
        let data = try Data(contentsOf: Self.store.appendingPathComponent(relativePath))
        #expect(data.last == UInt8(ascii: "\n"), "\(relativePath) ends with a newline")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.store.appendingPathComponent(folder).path).sorted()
    }

    @Test func sampleIsAV1StoreWithoutQueueDocument() throws {
        #expect(try names(in: ".") == ["sessions", "settings.json", "store.json", "user-sessions"])
        let manifest = try object("store.json")
        #expect(manifest["format"] as? String == "work-stream-store")
        #expect(manifest["schema_version"] as? Int == 1)
    }

    @Test func everyDocumentIsNamedByItsLowercaseIdAndHasSchemaVersion1() throws {
        for folder in ["sessions", "user-sessions"] {
            for name in try names(in: folder) {
                let document = try object("\(folder)/\(name)")
                let id = try #require(document["id"] as? String)
                #expect(name == id + ".json" && id == id.lowercased() && UUID(uuidString: id) != nil)
                #expect(document["schema_version"] as? Int == 1)
                #expect(document["provider_session_id"] == nil && document["provider"] == nil)
            }
        }
    }

    @Test func sampleHasEightWorkStreamsAndAnOrphanCustomisation() throws {
        let sessions = Set(try names(in: "sessions"))
        let customisations = try names(in: "user-sessions")
        #expect(sessions.count == 8)
        #expect(customisations.filter { !sessions.contains($0) } == ["e3ec053b-0661-4e09-b86f-1dad7839b6fd.json"])
    }
}
