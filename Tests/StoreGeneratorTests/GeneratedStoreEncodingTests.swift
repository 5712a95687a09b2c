import Foundation
import Testing
import Schema
import StoreGenerator
import StoreJSON

/// The direct session encoder against `JSONWriter.document(json)` over a whole generated store:
/// every v1 document as read, and as migrated to v2.
@Suite struct GeneratedStoreEncodingTests {
    @Test func everyGeneratedWorkStreamEncodesAsTheReferenceWriterDoes() throws {
        let generator = StoreGenerator(seed: 20_251_120, workStreams: 300, messagesPerStream: 8)
        var checked = 0
        try generator.forEachDocument { path, bytes in
            guard path.hasPrefix("sessions/") else { return }
            let document = try SessionDocument(bytes: bytes)
            #expect(document.encoded == JSONWriter.document(document.json), "\(path)")
            let (migrated, _) = try SessionMigration.migrate(document)
            #expect(migrated.encoded == JSONWriter.document(migrated.json), "\(path) migrated")
            checked += 1
        }
        #expect(checked == 300)
    }
}
