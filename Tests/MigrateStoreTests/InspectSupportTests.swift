import Foundation
import JSONStore
import StoreGenerator
import Testing

@testable import MigrateStoreCLI

/// A copy of a sample store in a fresh temporary folder, and the built tool run against it
/// with the folder's path replaced by `<store>` in everything it prints.
final class InspectFixture {
    /// The temporary folder; removed when the fixture goes away.
    let root: TemporaryDirectory
    /// The store copy: `<root>/<sample>`.
    let store: String

    /// Copies `Samples/<sample>` (for example `v1-store`) into a new temporary folder. `v5-store`
    /// is made from `Samples/v3-store` by `V5Fixture` (spec §11, without the engine).
    init(_ sample: String, label: String = #function) throws {
        root = TemporaryDirectory(label)
        if sample == Self.v5Store {
            store = root(sample)
            try V5Fixture.make(from: Samples.v4Store, to: store)
        } else {
            store = try root.copySample(sample)
        }
    }

    /// The name of the v4 fixture.
    static let v5Store = "v5-store"

    /// A path inside the store copy.
    func path(_ relative: String) -> String { (store as NSString).appendingPathComponent(relative) }

    /// Writes `text` to a file of the store copy (creating or replacing it).
    func write(_ relative: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(relative)))
    }

    /// Replaces `old` by `new` in a file of the store copy; the text must contain `old`.
    func edit(_ relative: String, replacing old: String, with new: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try String(contentsOfFile: path(relative), encoding: .utf8)
        #expect(text.contains(old), "'\(relative)' doesn't contain '\(old)'", sourceLocation: sourceLocation)
        try write(relative, text.replacingOccurrences(of: old, with: new))
    }

    /// Runs `migrate-store <command> <store> <arguments>` and replaces the store path by `<store>`.
    func run(_ command: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> ToolRun {
        var run = try BuiltTool.run([command, store] + arguments, sourceLocation: sourceLocation)
        run.stdout = run.stdout.replacingOccurrences(of: store, with: "<store>")
        run.stderr = run.stderr.replacingOccurrences(of: store, with: "<store>")
        return run
    }

    /// Runs the command with `--json` and parses its standard output.
    func json(_ command: String, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let run = try run(command, arguments + ["--json"], sourceLocation: sourceLocation)
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        return try #require(object as? [String: Any], sourceLocation: sourceLocation)
    }

    /// Every entry under the store and the store itself (dot names included): its bytes (files),
    /// its link target (links) and its modification time, to prove a command changed nothing.
    func snapshot() -> [String: TreeEntry] {
        TestSupport.snapshot(store, includingRoot: true)
    }
}

/// Expected outputs kept in `Tests/Golden/`. With `UPDATE_GOLDEN=1` in the environment, a
/// comparison rewrites the file with the actual output instead of failing.
///
/// The folder is outside the test target's folder on purpose: SwiftPM warns about every
/// non-source file in a target it isn't told about, and Package.swift declares no resources.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static var isUpdating: Bool { ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" }

    /// Compares `actual` with `Golden/<name>`, or rewrites it when updating.
    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if isUpdating {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try? String(contentsOf: url, encoding: .utf8)
        #expect(expected != nil, "no golden file '\(name)'; run the tests with UPDATE_GOLDEN=1 to write it", sourceLocation: sourceLocation)
        guard let expected else { return }
        #expect(
            actual == expected, "output differs from Golden/\(name) (UPDATE_GOLDEN=1 rewrites it):\n\(firstDifference(actual, expected))",
            sourceLocation: sourceLocation)
    }

    /// The first line that differs, for a readable failure.
    static func firstDifference(_ actual: String, _ expected: String) -> String {
        let a = actual.components(separatedBy: "\n"), e = expected.components(separatedBy: "\n")
        for index in 0..<max(a.count, e.count)
        where a.indices.contains(index) != e.indices.contains(index) || (a.indices.contains(index) && a[index] != e[index]) {
            return
                "line \(index + 1):\n  actual:   \(a.indices.contains(index) ? a[index] : "<none>")\n  expected: \(e.indices.contains(index) ? e[index] : "<none>")"
        }
        return "(no line differs)"
    }
}

/// The small text helpers of the inspecting commands.
@Suite struct InspectSupportTests {
    @Test func countsAreGroupedByThousandsInEveryLocale() {
        #expect(TextFormat.count(0) == "0")
        #expect(TextFormat.count(999) == "999")
        #expect(TextFormat.count(2841) == "2,841")
        #expect(TextFormat.count(1_234_567) == "1,234,567")
        #expect(TextFormat.count(-1000) == "-1,000")
    }

    @Test func tableAlignsColumnsAndDropsTrailingSpaces() {
        var table = TextTable(["POS", "NAME", "FLAGS"], rightAligned: [0])
        table.append(["1", "Café", ""])
        table.append(["10", "Résumé notes", "local"])
        #expect(
            table.render(indent: "  ") == [
                "  POS  NAME          FLAGS",
                "    1  Café",
                "   10  Résumé notes  local",
            ])
    }

    @Test func shortIDsGrowUntilEveryIDIsDistinct() throws {
        let a = try #require(UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062b"))
        let b = try #require(UUID(uuidString: "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba0600"))
        let c = try #require(UUID(uuidString: "c25e47cd-f10a-49a3-9ec4-a9355366da75"))
        #expect(ShortIDs([a, c])(a) == "ad9a22b8")
        #expect(ShortIDs([a, b, c])(a) == "ad9a22b8-a0a3-4cf2-b7a4-205cd0ba062")
    }

    @Test func problemLineNamesFileKeyPathWhatAndFix() {
        let problem = StoreProblem(
            file: "queue.json", keyPath: "fifo[3].work_stream_id", code: "queue_entry_missing",
            message: "work stream 'x' does not exist", fix: "Run migrate.")
        #expect(problem.line == "queue.json: fifo[3].work_stream_id: work stream 'x' does not exist. Fix: Run migrate.")
        var whole = problem
        whole.keyPath = nil
        #expect(whole.line == "queue.json: work stream 'x' does not exist. Fix: Run migrate.")
    }
}
