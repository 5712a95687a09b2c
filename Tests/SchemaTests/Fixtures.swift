import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// Small builders for documents used across the schema tests.
enum Fixtures {
    static let id = UUID(uuidString: "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69")!
    static let otherID = UUID(uuidString: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d")!
    static let t0 = RFC3339.parse("2025-10-17T14:30:00.000Z")!

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// A v1 session document with only the required keys, plus `extra` members spliced in.
    static func minimalSession(_ extra: String = "", id: UUID = Fixtures.id, version: Int = 1) -> String {
        """
        {"schema_version": \(version), "id": "\(id.lowercased)", "backend_name": "Fix login", \
        "working_directory": "/Users/ana/app", "last_modified": "2025-10-17T14:30:00.000Z"\(extra.isEmpty ? "" : ", " + extra)}
        """
    }

    static func message(id: String = "11111111-2222-4333-8444-555555555555", sessionID: UUID = Fixtures.id, extra: String = "") -> String {
        """
        {"id": "\(id)", "session_id": "\(sessionID.lowercased)", "role": "user", "text": "hi", \
        "timestamp": "2025-10-17T14:30:00.000Z"\(extra.isEmpty ? "" : ", " + extra)}
        """
    }

    static func sessionV1(_ extra: String = "", id: UUID = Fixtures.id) throws -> WorkStreamV1 {
        try WorkStreamV1(bytes: bytes(minimalSession(extra, id: id)))
    }

    /// The error thrown by `body`, or a recorded issue when it does not throw.
    static func error(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws(SchemaError) -> Void) -> SchemaError? {
        do { try body() } catch { return error }
        Issue.record("expected a SchemaError, nothing was thrown", sourceLocation: sourceLocation)
        return nil
    }

    static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
