import Foundation
import JSONStore
import StoreGenerator
import Testing

/// Bad input through the built tool
@Suite struct BadInputBinaryTests {
    static let commands: [[String]] = [["status"], ["plan"], ["migrate", "--no-backup"], ["ls"], ["validate"], ["stats"], ["queue"]]

    /// A spread of the in-memory cases: the special kinds, corpus files and seeded damage.
    static func cases(seed: UInt64) throws -> [BadInputCase] {
        let target = BadInputTests.v1Sessions
        let original = Array(try Data(contentsOf: URL(fileURLWithPath: Samples.v1Store + "/" + target)))
        var random = SeededGenerator(seed: seed)
        var out: [BadInputCase] = [
            BadInputCase(
                kind: "1,000,000 '['", relative: target, bytes: [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000),
                mustFail: true, mustBeSyntaxError: true),
            BadInputCase(
                kind: "byte-order mark", relative: "store.json",
                bytes: [0xEF, 0xBB, 0xBF] + Array(try Data(contentsOf: URL(fileURLWithPath: Samples.v1Store + "/store.json"))),
                mustFail: true, mustBeSyntaxError: true),
            BadInputCase(kind: "empty file", relative: "settings.json", bytes: [], mustFail: true, mustBeSyntaxError: true),
        ]
        out += [1, 100, 1000, 2500, original.count - 2].map { BadInputCases.truncations(original, relative: target)[$0] }
        let corpus = BadInputCases.corpus(target: target)
        for name in ["n_structure_open_array_object", "n_string_invalid_utf-8", "n_number_infinity"] where !corpus.isEmpty {
            if let index = try? corpusIndex(name) { out.append(corpus[index]) }
        }
        var documents: [String: [UInt8]] = [:]
        for relative in [target, "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json", "settings.json"] {
            documents[relative] = Array(try Data(contentsOf: URL(fileURLWithPath: Samples.v1Store + "/" + relative)))
        }
        while out.count < 24 {
            let candidate = BadInputCases.random(1, files: documents, random: &random)[0]
            if candidate.mustFail { out.append(candidate) }
        }
        return out
    }

    static func corpusIndex(_ name: String) throws -> Int? {
        guard let root = BadInputCases.corpusDirectory else { return nil }
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/test_parsing").sorted().filter { $0.hasSuffix(".json") }
        return names.firstIndex(of: name + ".json")
    }

    @Test func damagedDocumentMakesEveryCommandExit65NamingItAndWritesNothing() throws {
        let seed = environmentSeed()
        let scratch = TemporaryDirectory()
        let implemented = Self.commands.filter { Tool.implements($0[0]) }
        var failures: [String] = [], runs = 0
        var unchecked: [String: Int] = [:]
        for input in try Self.cases(seed: seed) {
            let store = scratch("store-\(runs)")
            try Samples.copy("v1-store", to: store)
            try Data(input.bytes).write(to: URL(fileURLWithPath: store + "/" + input.relative))
            let before = rootedTree(store, includeDotNames: true)
            let entriesBefore = try FileManager.default.subpathsOfDirectory(atPath: store).sorted()
            for command in implemented {
                let run = try Tool.migrate([command[0], store] + command.dropFirst(), timeLimit: 60)
                runs += 1
                let output = run.stdout + run.stderr
                var problems: [String] = []
                // Two documented exceptions may exit 0 (see RELIABILITY.md, observations): `ls` never reads
                // settings.json, and `stats` lists a bad one among its anomalies with complete counts; the
                // listing commands skim a work stream's messages (JSONSkimmer), so damage inside `messages`
                // is reported by plan, migrate, validate and stats, not by status, ls and queue.
                let insideMessages =
                    input.relative.hasPrefix("sessions/")
                    && (try? WorkStreamSummary(bytes: input.bytes, acceptingNewerVersions: false)) != nil
                let skimsMessages = ["status", "ls", "queue"].contains(command[0]) && insideMessages
                let settingsUnread = input.relative == "settings.json" && (command[0] == "ls" || command[0] == "stats")
                if skimsMessages || settingsUnread {
                    if run.code != 0 { problems.append("exit \(run.code)") }
                    if settingsUnread && command[0] == "stats" && !output.contains("invalid_json") { problems.append("stats does not list it") }
                    if skimsMessages { unchecked[command[0], default: 0] += 1 }
                } else {
                    if run.code != 65 { problems.append("exit \(run.code)") }
                    if command[0] == "stats" {
                        // `stats` counts problems by kind and sends the user to `validate` for each one.
                        if !output.contains("validate") { problems.append("stats does not point to 'validate'") }
                    } else {
                        if !output.contains(input.relative) { problems.append("the output does not name '\(input.relative)'") }
                        if input.mustBeSyntaxError && !output.contains("byte ") { problems.append("no byte offset in the output") }
                    }
                }
                if !problems.isEmpty {
                    failures.append("[\(input.kind) in \(input.relative)] \(command.joined(separator: " ")): \(problems.joined(separator: "; "))\n\(run)")
                }
            }
            let entriesAfter = try FileManager.default.subpathsOfDirectory(atPath: store).sorted()
            if rootedTree(store, includeDotNames: true) != before || entriesAfter != entriesBefore {
                failures.append("[\(input.kind) in \(input.relative)] the store changed")
            }
            try FileManager.default.removeItem(atPath: store)
        }
        if !unchecked.isEmpty {
            print("bad input through the tool: damage inside 'messages' left unreported by the listing commands (by design): \(unchecked)")
        }
        print(
            "bad input through the tool: \(runs) runs of \(implemented.map { $0[0] }) on damaged stores, RELIABILITY_SEED=\(seed), \(failures.count) failures")
        #expect(failures.isEmpty, "RELIABILITY_SEED=\(seed)\n\(failures.prefix(10).joined(separator: "\n"))")
    }
}
