import Foundation
import Testing

@testable import Schema

@Suite struct StoreLayoutTests {
    @Test func documentPathsAreTheFolderAndTheLowercaseID() throws {
        let id = try #require(UUID(uuidString: "1CAAA999-8519-45F8-B97B-72E5454D2AEE"))
        #expect(StoreLayout.workStreamPath(id) == "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json")
        #expect(StoreLayout.customisationPath(id) == "user-sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json")
        #expect(StoreLayout.workStreamPath(id, schemaVersion: 4) == "sessions/1caaa999-8519-45f8-b97b-72e5454d2aee.json")
        #expect(StoreLayout.workStreamPath(id, schemaVersion: 5) == "work-streams/1caaa999-8519-45f8-b97b-72e5454d2aee.json")
        #expect(StoreLayout.otherWorkStreamsFolder(schemaVersion: 4) == "work-streams")
        #expect(StoreLayout.otherWorkStreamsFolder(schemaVersion: 5) == "sessions")
        #expect(StoreLayout.documentFileName(id) == "1caaa999-8519-45f8-b97b-72e5454d2aee.json")
    }

    @Test(arguments: [
        ("1caaa999-8519-45f8-b97b-72e5454d2aee.json", true),
        ("1CAAA999-8519-45F8-B97B-72E5454D2AEE.json", false),
        ("1caaa999-8519-45f8-b97b-72e5454d2aee.JSON", false),
        ("1caaa999-8519-45f8-b97b-72e5454d2aee", false),
        ("1caaa99985194-5f8-b97b-72e5454d2aee.json", false),
        (".1caaa999-8519-45f8-b97b-72e5454d2aee.json", false),
        ("notes.json", false),
    ])
    func onlyLowercaseUUIDNamesAreDocumentNames(name: String, valid: Bool) {
        #expect(StoreLayout.isDocumentFileName(name) == valid)
    }

    @Test func everyNameOfSpecSection1HasItsKind() {
        #expect(StoreLayout.topLevelDocuments == ["store.json": .manifest, "settings.json": .settings, "queue.json": .queue])
        #expect(StoreLayout.documentFolders == ["sessions": .workStream, "user-sessions": .customisation])
        #expect(StoreLayout.isBookkeeping(StoreLayout.Bookkeeping.lock) && !StoreLayout.isBookkeeping(StoreLayout.manifest))
    }

    /// The layout is spelled once: no other source file has a string literal that is one of its
    /// names, or builds a path by hand (`"sessions/\(id).json"`, `store + "/sessions"`). Comments
    /// and sentences for people may name files ("… has no store.json"); code builds paths from
    /// `StoreLayout`. The one exception is a key of the migration record in `store.json`, which
    /// counts work streams under the same word (spec §4), not a path.
    @Test func noSourceFileOutsideStoreLayoutSpellsTheLayout() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let names = [
            "store.json", "settings.json", "queue.json", "sessions", "user-sessions",
            "work-streams", ".lock", ".tmp-", ".migration-sessions", ".writes",
            ".staging-work-streams", ".staging-sessions", ".retired-work-streams",
        ]
        let whole = names.map { "\"\($0)\"" }
        let building = [
            "\"sessions/", "\"user-sessions/", " sessions/\\(", " user-sessions/\\(", "(sessions/\\(", "(user-sessions/\\(",
            "\"/sessions", "\"/user-sessions", "\"/store.json", "\"/settings.json", "\"/queue.json",
        ]
        let exceptions = [
            "Schema/Migration/StoreMigration.swift": "\"sessions\": sessions, \"user_sessions\"",
            // an option of the generator's command line (`--work-streams N`), not a path
            "generate-store/main.swift": "guard [\"work-streams\"",
        ]
        let optionUse = "number(\"work-streams\""
        var found: [String] = []
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
        for file in files where file.hasSuffix(".swift") && !file.hasSuffix("Layout/StoreLayout.swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") || exceptions[file].map(code.hasPrefix) == true { continue }
                if file == "generate-store/main.swift" && code.contains(optionUse) { continue }
                if (whole + building).contains(where: { code.contains($0) }) { found.append("\(file):\(number + 1): \(code)") }
            }
        }
        #expect(found.isEmpty, Comment(rawValue: "layout literals outside StoreLayout:\n" + found.joined(separator: "\n")))
    }
}
