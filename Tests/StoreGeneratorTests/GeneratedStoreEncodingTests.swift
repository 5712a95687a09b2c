import Foundation
import Schema
import StoreGenerator
import StoreJSON
import Testing

/// The direct session encoder against `JSONWriter.document(json)` over a whole generated store:
/// every v1 document as read, as migrated to v2, and as migrated to v3.
@Suite struct GeneratedStoreEncodingTests {
    @Test func everyGeneratedWorkStreamEncodesAsTheReferenceWriterDoes() throws {
        let generator = StoreGenerator(seed: 20_251_120, workStreams: 300, messagesPerStream: 8)
        var checked = 0
        try generator.forEachDocument { path, bytes in
            guard path.hasPrefix("sessions/") else { return }
            let document = try WorkStreamDocument(bytes: bytes)
            #expect(document.encoded == JSONWriter.document(document.json), "\(path)")
            for target in [2, 3] {
                let (migrated, _) = try MigrationChain.migrateWorkStream(document, storeVersion: 1, to: target)
                #expect(migrated.schemaVersion == target)
                #expect(migrated.encoded == JSONWriter.document(migrated.json), "\(path) migrated to v\(target)")
            }
            checked += 1
        }
        #expect(checked == 300)
    }
}
