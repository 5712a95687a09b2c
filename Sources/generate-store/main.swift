import Foundation
import StoreGenerator

/// `generate-store <dir> --work-streams N --messages M --seed S [--version 1]`
///
/// Writes a deterministic, realistic schema-v1 store for benchmarks and tests, and prints one
/// summary line. Exit status: 0 on success, 64 on a usage error, 73 when the store can't be written.
let usage = "Usage: generate-store <dir> --work-streams N --messages M --seed S [--version 1]"

/// `--help`: what the tool makes, every option, an example.
let help = """
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
    """

func fail(_ message: String, _ status: Int32) -> Never {
    FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
    if status == 64 { FileHandle.standardError.write(Data((usage + "\n").utf8)) }
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") { print(help); exit(0) }
var values: [String: String] = [:]
var directory: String?
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    if argument.hasPrefix("--") {
        let name = String(argument.dropFirst(2))
        guard ["work-streams", "messages", "seed", "version"].contains(name) else { fail("unknown option '\(argument)'.", 64) }
        guard !arguments.isEmpty else { fail("'\(argument)' needs a value.", 64) }
        values[name] = arguments.removeFirst()
    } else if directory == nil {
        directory = argument
    } else {
        fail("unexpected argument '\(argument)'.", 64)
    }
}

func number<T: FixedWidthInteger>(_ name: String, _: T.Type, default value: T? = nil, in values: [String: String]) -> T {
    guard let text = values[name] else {
        if let value { return value }
        fail("--\(name) is required.", 64)
    }
    guard let parsed = T(text), parsed >= 0 else { fail("--\(name) needs a number ≥ 0, not '\(text)'.", 64) }
    return parsed
}

guard let directory else { fail("the store folder is required.", 64) }
let version = number("version", Int.self, default: 1, in: values)
guard version == 1 else { fail("only --version 1 is generated; migrate the store with 'migrate-store migrate' for version 2.", 64) }
let generator = StoreGenerator(
    seed: number("seed", UInt64.self, in: values), workStreams: number("work-streams", Int.self, in: values),
    messagesPerStream: number("messages", Int.self, in: values), version: version)
do {
    let summary = try generator.write(to: directory)
    print("Generated \(directory) (seed \(generator.seed), schema v1): \(summary).")
} catch {
    fail("\(error)", 73)
}
