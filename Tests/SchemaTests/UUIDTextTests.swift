import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

@Suite struct UUIDTextTests {
    @Test(arguments: [
        "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69", "4F1C2A9E-8B7D-4C3E-9A1F-0D2E3C4B5A69", "00000000-0000-0000-0000-000000000000",
        "4f1c2a9e8b7d-4c3e-9a1f-0d2e3c4b5a69-", "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a6", "4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a6g",
        "{4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69}", "", "é1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a69",
    ])
    func parsesExactlyWhatFoundationParses(text: String) {
        #expect(UUIDText.parse(text) == UUID(uuidString: text))
    }

    @Test func lowercaseSpellingEqualsFoundations() {
        for _ in 0..<1000 {
            let id = UUID()
            #expect(UUIDText.lowercase(id) == id.uuidString.lowercased())
        }
    }

    /// Foundation's parser goes through sscanf and accepts a leading space and a short last
    /// group; the spec's form is exactly 8-4-4-4-12 hex digits, so these are not UUIDs here.
    @Test func rejectsWhatFoundationWronglyAccepts() {
        #expect(UUID(uuidString: " 4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a6") != nil)
        #expect(UUIDText.parse(" 4f1c2a9e-8b7d-4c3e-9a1f-0d2e3c4b5a6") == nil)
    }
}
