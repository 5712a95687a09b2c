#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Who holds a store's lock, as the holder recorded it in `<store>/.lock`:
/// `{"host":"mac.local","pid":4242,"since":"2026-11-21T12:01:00Z","tool":"migrate-store","version":"0.3.0"}`.
///
/// Every field is optional because the record is written by another process and may be empty,
/// from an older tool, or caught half-written; the lock itself is the kernel's flock, not this record.
public struct LockHolder: Sendable, Equatable, Codable {
    /// The holder's process id.
    public var pid: Int32?
    /// The holder's tool name, e.g. `"migrate-store"`.
    public var tool: String?
    /// The holder's tool version, e.g. `"0.3.0"`.
    public var version: String?
    /// When the holder took the lock, RFC 3339 in UTC.
    public var since: String?
    /// The host the holder runs on.
    public var host: String?

    /// Creates a record. All fields default to nil (an unknown holder).
    public init(pid: Int32? = nil, tool: String? = nil, version: String? = nil, since: String? = nil, host: String? = nil) {
        self.pid = pid
        self.tool = tool
        self.version = version
        self.since = since
        self.host = host
    }

    /// True when the record said nothing usable about the holder.
    public var isUnknown: Bool { pid == nil && tool == nil }

    /// "process 4242 (migrate-store 0.3.0) on 'mac.local' since 2026-11-21T12:01:00Z";
    /// "another process (it left no readable record of who it is)" when unknown.
    public var summary: String {
        if isUnknown { return "another process (it left no readable record of who it is)" }
        var text = pid.map { "process \($0)" } ?? "a process"
        if let tool { text += " (\([tool, version].compactMap { $0 }.joined(separator: " ")))" }
        if let host, host != Self.currentHost() { text += " on '\(host)'" }
        if let since { text += " since \(since)" }
        return text
    }

    /// The record for this process, taking the lock now.
    static func current(tool: String, version: String) -> LockHolder {
        LockHolder(pid: getpid(), tool: tool, version: version,
                   since: Date().formatted(.iso8601), host: currentHost())
    }

    /// The record as written to the lock file: compact JSON, keys sorted, then a newline.
    var encoded: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding five optional scalars cannot fail; a failure would be a broken invariant.
        guard let data = try? encoder.encode(self) else { preconditionFailure("LockHolder: JSON encoding failed") }
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// Parses a record; an empty or unreadable record gives an unknown holder.
    init(decoding bytes: [UInt8]) {
        // A record that does not parse is expected (empty, half-written, foreign): not an error.
        self = (try? JSONDecoder().decode(LockHolder.self, from: Data(bytes))) ?? LockHolder()
    }

    /// This machine's host name (`gethostname(3)`), nil if it cannot be read.
    static func currentHost() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
