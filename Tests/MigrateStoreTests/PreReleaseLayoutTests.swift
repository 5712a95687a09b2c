import Foundation
import TestSupport
import Testing

/// Spec §11: a store that a pre-release build took to its v4 (the breaking rename:
/// `work-streams/`, `schema_version` 4, `min_reader_version` 4) is recognised and refused by
/// every command, with the way out, and nothing in it changes.
@Suite struct PreReleaseLayoutTests {
    static let refusal =
        "the store has schema_version 4 with min_reader_version 4, which this tool never writes (its v4 admits readers from version 1): "
        + "a pre-release build took it to that build's v4, the breaking rename to work-streams/, which this version numbers v5. "
        + "Take it back with that build ('migrate --to 3'), then migrate it with this one."

    /// The v5 sample as the pre-release build wrote it: every `schema_version` 4, `min_reader_version` 4.
    static func make(_ folder: TemporaryDirectory) throws -> String {
        let store = try folder.copySample("v5-store", as: "store")
        for (relative, bytes) in tree(store) {
            let text = String(decoding: bytes, as: UTF8.self)
                .replacingOccurrences(of: "\"schema_version\": 5", with: "\"schema_version\": 4")
                .replacingOccurrences(of: "\"min_reader_version\": 5", with: "\"min_reader_version\": 4")
            try Data(text.utf8).write(to: URL(fileURLWithPath: store + "/" + relative))
        }
        return store
    }

    @Test(arguments: [
        ["status"], ["plan"], ["migrate", "--no-backup"], ["migrate", "--to", "5", "--allow-breaking"], ["migrate", "--to", "3", "--no-backup"],
        ["verify"], ["ls"], ["show", "555a"],
        ["queue"], ["stats"], ["settings"], ["validate"], ["backup", "<folder>/copy"], ["export", "<folder>/export.jsonl"],
    ])
    func everyCommandRefusesItWithTheWayOutAndChangesNothing(_ command: [String]) throws {
        let folder = TemporaryDirectory()
        let store = try Self.make(folder)
        let before = snapshot(folder.path)
        let run = try BuiltTool.run([command[0], store] + command.dropFirst().map { $0.replacingOccurrences(of: "<folder>", with: folder.path) })
        #expect(run.code == 65, "\(command): \(run.stderr)")
        #expect(run.stderr.contains(Self.refusal), "\(command): \(run.stderr)")
        #expect(run.stdout.isEmpty || command[0] == "validate", "\(command): \(run.stdout)")
        #expect(snapshot(folder.path) == before, "\(command) changed something")
    }
}
