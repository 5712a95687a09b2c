import Foundation
import TestSupport
import Testing

/// `generate-store`, run as the built binary: its help and its usage errors.
@Suite struct GenerateStoreCommandTests {
    static var executable: String { BuiltTool.products.appendingPathComponent("generate-store").path }

    @Test func helpSaysWhatItMakesEveryOptionAndAnExample() throws {
        let expected = ToolRun(
            stdout: """
                OVERVIEW: Write a deterministic, realistic v1 store for benchmarks and tests.

                The same seed and sizes give the same bytes on every platform. The store has
                store.json, settings.json, N work streams of M messages each with their queue
                positions, and customisations, with the v1 edge cases of Samples/v1-store at
                low rates (empty and UUID backend names, duplicate and stale queue positions,
                messages naming another work stream, unknown keys, orphan customisations). Files
                are written without fsync: run 'sync' before a measurement. For a newer schema
                version, migrate it: 'migrate-store migrate <dir>'.

                USAGE: generate-store <dir> --work-streams N --messages M --seed S [--version 1]

                ARGUMENTS:
                  <dir>                   The store folder: a new or empty folder.

                OPTIONS:
                  --work-streams N        How many work streams (N ≥ 0). Required.
                  --messages M            Messages per work stream (M ≥ 0). Required.
                  --seed S                The seed (an unsigned 64-bit integer). Required.
                  --version 1             The schema version; only 1 is generated (the default).
                  -h, --help              Show this help.

                Prints one line: what it generated. Exit status: 0 on success, 64 for a wrong
                command line, 73 when the store can't be written.

                EXAMPLE:
                  generate-store /tmp/bench-store --work-streams 2000 --messages 50 --seed 1

                """, stderr: "", code: 0)
        #expect(try BuiltTool.runProgram(Self.executable, ["--help"]) == expected)
        #expect(try BuiltTool.runProgram(Self.executable, ["-h"]) == expected)
    }

    @Test func anUnknownOptionPrintsTheUsageLineWithStatus64() throws {
        #expect(
            try BuiltTool.runProgram(Self.executable, ["--bogus"])
                == ToolRun(
                    stdout: "",
                    stderr: """
                        Error: unknown option '--bogus'.
                        Usage: generate-store <dir> --work-streams N --messages M --seed S [--version 1]

                        """, code: 64))
    }
}
