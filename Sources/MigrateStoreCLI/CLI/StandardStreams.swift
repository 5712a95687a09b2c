#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
import Foundation
#endif

/// Where ``Output`` writes: the process's standard output and error, or a capture in tests.
struct OutputStreams: Sendable {
    /// Writes text to standard output as is (no newline added).
    var standardOutput: @Sendable (String) -> Void
    /// Writes text to standard error as is (no newline added).
    var standardError: @Sendable (String) -> Void
    /// True when standard error is a terminal, so a progress line can be redrawn in place.
    var standardErrorIsTerminal: Bool

    /// The process's file descriptors 1 and 2.
    static var process: OutputStreams {
        OutputStreams(
            standardOutput: { StandardStream.write($0, to: 1) },
            standardError: { StandardStream.write($0, to: 2) },
            standardErrorIsTerminal: StandardStream.isTerminal(2))
    }
}

/// Unbuffered writes to the standard file descriptors.
///
/// Unbuffered, so that standard output and standard error interleave in the order they were
/// written and nothing is lost when the process calls `exit`.
enum StandardStream {
    /// Writes all of `text` to `descriptor` with `write(2)`, retrying after `EINTR` and
    /// partial writes. Other failures (a closed pipe) are ignored: there is nowhere left
    /// to report them.
    static func write(_ text: String, to descriptor: Int32) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        // The text's own UTF-8 storage, not a copy of it (`ls --json` writes 35 MB at once).
        var text = text
        text.withUTF8 { utf8 in
            var rest = UnsafeRawBufferPointer(utf8)
            while !rest.isEmpty {
                let written = systemWrite(descriptor, rest.baseAddress, rest.count)
                if written > 0 {
                    rest = UnsafeRawBufferPointer(rebasing: rest[written...])
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
        #else
        let handle = descriptor == 1 ? FileHandle.standardOutput : FileHandle.standardError
        try? handle.write(contentsOf: Data(text.utf8))
        #endif
    }

    /// True when `descriptor` refers to a terminal (`isatty(3)`).
    static func isTerminal(_ descriptor: Int32) -> Bool {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        return isatty(descriptor) == 1
        #else
        return false
        #endif
    }
}

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
/// The C `write(2)` call, under a name that doesn't clash with ``StandardStream/write(_:to:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
#endif
