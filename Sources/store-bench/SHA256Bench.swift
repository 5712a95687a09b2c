import Foundation
import JSONStore

/// `store-bench sha256 <file> [--passes N]`: reads the file into memory, then hashes it N times
/// (default 1) with the package's `SHA256`, and prints the digest (which must equal
/// `sha256sum <file>`), the CPU time per pass and the throughput.
///
/// For instruction counts, run it under `valgrind --tool=callgrind` with `--passes 1` and
/// `--passes 2`: the difference is exactly one pass over the file, without start-up and reading.
func sha256(_ args: [String]) throws {
    guard args.count >= 2 else { fail("sha256 needs <file>") }
    guard let passes = Int(option("passes", in: args) ?? "1"), passes > 0 else { fail("--passes needs a positive count") }
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: args[1])))
    var digest = ""
    let start = cpuTime()
    for _ in 0..<passes { digest = SHA256.hex(of: bytes) }
    let perPass = (cpuTime() - start) / Double(passes)
    print(
        json([
            ("sha256", "\"\(digest)\""), ("bytes", "\(bytes.count)"), ("passes", "\(passes)"),
            ("cpu_per_pass_s", "\(perPass)"), ("mb_per_s", "\(Double(bytes.count) / perPass / 1e6)"),
        ]))
}
