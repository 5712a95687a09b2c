import Foundation
import TestSupport
import Testing

@testable import Schema
@testable import StoreJSON

@Suite struct JSONSkimmerTests {
    @Test(arguments: [
        (#"{"messages": []}"#, 0), (#"{"messages": [1]}"#, 1), (#"{"messages": [ {"a": [1, 2]}, "x,]}", [[]] ]}"#, 3),
        (#"{"messages": ["\"],[", {"k": "\\"}]}"#, 2), (#"{"a": 1}"#, -1),
    ])
    func countsTopLevelElementsOfSkippedArrays(text: String, count: Int) throws {
        let result = try #require(JSONSkimmer.topLevel(Array(text.utf8), skipping: ["messages"]))
        #expect(result.skipped["messages"] == (count < 0 ? nil : .some(count)))
    }

    @Test(arguments: [
        #"{"messages": [1, 2"#, #"{"messages": [1}, "a": 2}"#, #"{"a": 1, "a": 2}"#, #"{"messages": [], "messages": []}"#,
        #"{"a": tru}"#, #"{"a": 1} x"#, "[1]", "{\"a\": \"\u{01}\"}", "{\"messages\": [\"\u{01}\"]}",
    ])
    func unusualInputFallsBackToTheFullParser(text: String) {
        #expect(JSONSkimmer.topLevel(Array(text.utf8), skipping: ["messages"]) == nil)
    }

    @Test func summaryOfEverySampleEqualsTheFullDecode() throws {
        for store in ["v1-store", "v2-store"] {
            let dir = URL(fileURLWithPath: Samples.path(store) + "/sessions")
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
                let bytes = Array(try Data(contentsOf: dir.appendingPathComponent(name)))
                let full = try WorkStreamDocument(bytes: bytes)
                let skim = try #require(JSONSkimmer.topLevel(bytes, skipping: ["messages"]))
                guard case .object(var object) = full.json else { Issue.record("not an object"); continue }
                object.removeValue(forKey: "messages")
                var skimmed = try WorkStreamDocument(json: .object(skim.members))
                if let messages = MessageV1.messages(of: full) { #expect(MessageV1.replaceMessages(of: &skimmed, with: messages)) }
                if let messages = MessageV3.messages(of: full) { #expect(MessageV3.replaceMessages(of: &skimmed, with: messages)) }
                #expect(skimmed == full, "\(store)/\(name)")
                #expect((skim.skipped["messages"] ?? 0) == .some(full.storedMessageCount))
            }
        }
    }
}
