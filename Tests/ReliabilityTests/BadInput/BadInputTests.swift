import Foundation
import Schema
import StoreGenerator
import Testing

@testable import JSONStore

/// Bad input (issue part 3): damaged documents through open, the scans, plan and migrate, in
/// memory. At least 10,000 cases per run (`RELIABILITY_CASES` scales it), seed printed
/// (`RELIABILITY_SEED` replays it).
@Suite(.serialized) struct BadInputTests {
    static let v1Sessions = "sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json"
    /// A smaller store from a sample, so that the 10,000 cases run in seconds: the manifest, the
    /// settings, three work streams (4.9 KB, 2.7 KB, 0.2 KB), two customisations, and the queue in v2.
    static let small: Set<String> = [
        "store.json", "settings.json", "queue.json", v1Sessions,
        "sessions/ec3629cb-f446-449f-b8a0-f43e156345d8.json", "sessions/d664cf84-65da-4768-8ba1-acf742bdc1f1.json",
        "user-sessions/555a622d-4eba-4eda-8989-fc9e679fc303.json", "user-sessions/e3ec053b-0661-4e09-b86f-1dad7839b6fd.json",
    ]

    /// Runs `cases` and returns every failure (at most 40 kept), counting by kind.
    static func run(_ cases: [BadInputCase], on probe: BadInputProbe, label: String) -> [String] {
        var failures: [String] = []
        var byKind: [String: Int] = [:], reported = 0, writePasses = 0
        for (number, input) in cases.enumerated() {
            let result = probe.run(input, number: number)
            byKind[input.kind, default: 0] += 1
            if result.reported { reported += 1 }
            writePasses += result.writePasses
            failures += result.failures.prefix(max(0, 40 - failures.count))
        }
        print(
            "bad input [\(label)]: \(cases.count) cases, \(reported) reported as bad, \(writePasses) also through open-for-writing + migrate, \(failures.count) failures; "
                + byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        return failures
    }

    @Test func everyJSONTestSuiteFileAsADocumentIsReportedWithoutCrash() throws {
        let cases = BadInputCases.corpus(target: Self.v1Sessions)
        try SkippedTests.require(
            !cases.isEmpty,
            "no JSONTestSuite corpus: set JSON_TEST_SUITE_DIR, or put it at "
                + "../shared/corpora/JSONTestSuite beside the checkout")
        let failures = Self.run(cases, on: try BadInputProbe(sample: Samples.v1Store, only: Self.small), label: "JSONTestSuite")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(cases.count > 300)
    }

    @Test func documentTruncatedAtEveryByteIsReportedAndNothingIsWritten() throws {
        let probe = try BadInputProbe(sample: Samples.v1Store, only: Self.small)
        let original = try #require(probe.documents[Self.v1Sessions])
        let cases = BadInputCases.truncations(original, relative: Self.v1Sessions)
        let failures = Self.run(cases, on: probe, label: "truncation at every byte")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(cases.count == original.count)
    }

    @Test func seededRandomDamageOfSampleDocumentsIsReportedAndNothingIsWritten() throws {
        let seed = environmentSeed()
        // 10,000 cases in all by default: the corpus and the truncations count toward it.
        let total = environmentInteger("RELIABILITY_CASES", default: 10_000, full: 100_000)
        let count = max(1_000, total - 5_200)
        print("seededRandomDamageOfSampleDocumentsIsReportedAndNothingIsWritten: RELIABILITY_SEED=\(seed) RELIABILITY_CASES=\(total)")
        var random = SeededGenerator(seed: seed)
        var failures: [String] = []
        for sample in [Samples.v1Store, Samples.v2Store] {
            let probe = try BadInputProbe(sample: sample, only: Self.small)
            let cases = BadInputCases.random(count / 2, files: probe.documents, random: &random)
            failures += Self.run(cases, on: probe, label: "random damage of \(URL(fileURLWithPath: sample).lastPathComponent), seed \(seed)")
        }
        #expect(failures.isEmpty, "RELIABILITY_SEED=\(seed)\n\(failures.joined(separator: "\n"))")
    }

    @Test func millionOpenBracketsGiveAPositionedErrorNotAStackOverflow() throws {
        let probe = try BadInputProbe(sample: Samples.v1Store)
        let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        let objects = [UInt8](repeating: 0, count: 0) + Array(String(repeating: "{\"a\":", count: 200_000).utf8)
        let cases = [
            BadInputCase(kind: "1,000,000 '['", relative: Self.v1Sessions, bytes: brackets, mustFail: true, mustBeSyntaxError: true),
            BadInputCase(kind: "200,000 nested objects", relative: "settings.json", bytes: objects, mustFail: true, mustBeSyntaxError: true),
            BadInputCase(
                kind: "1,000,000 '[' closed", relative: "store.json", bytes: brackets + [UInt8](repeating: UInt8(ascii: "]"), count: 1_000_000),
                mustFail: true, mustBeSyntaxError: true),
        ]
        #expect(Self.run(cases, on: probe, label: "deep nesting").isEmpty)

        let store = Store(
            path: BadInputProbe.store, options: BadInputProbe.options, compatibility: .needsMigration(from: 1), warnings: [],
            system: SystemCalls(
                calls: {
                    let m = ModelFileSystem(probe.base); m.install(BadInputProbe.store + "/" + Self.v1Sessions, brackets); return m
                }()))
        let error = #expect(throws: StoreError.self) { _ = try store.workStream(UUID(uuidString: "555a622d-4eba-4eda-8989-fc9e679fc303")!) }
        #expect(error?.code == .corruptDocument)
        #expect(error?.schemaError?.syntax?.offset == 512)
        #expect(error?.message.contains("'/store/\(Self.v1Sessions)'") == true)
    }

    @Test func hundredMegabyteStringIsReadWithoutCrashAndOversizedFileIsRefused() throws {
        try SkippedTests.require(
            environmentInteger("RELIABILITY_HUGE", default: 0, full: 1) == 1,
            "opt-in: set RELIABILITY_HUGE=1 or RELIABILITY_FULL=1 (needs ~1.5 GB of memory, ~1 min)")
        let probe = try BadInputProbe(sample: Samples.v1Store)
        let original = String(decoding: try #require(probe.documents[Self.v1Sessions]), as: UTF8.self)
        let huge = original.replacingOccurrences(of: "\"preview\": \"", with: "\"preview\": \"" + String(repeating: "a", count: 100 * 1024 * 1024))
        let oversized = [UInt8](repeating: UInt8(ascii: " "), count: FileReader.defaultLimit + 1)
        let cases = [
            BadInputCase(kind: "100 MB string", relative: Self.v1Sessions, bytes: Array(huge.utf8), mustFail: false, mustBeSyntaxError: false),
            BadInputCase(kind: "256 MiB + 1 byte", relative: Self.v1Sessions, bytes: oversized, mustFail: true, mustBeSyntaxError: false),
        ]
        #expect(Self.run(cases, on: probe, label: "huge").isEmpty)
    }
}
