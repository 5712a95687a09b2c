import Foundation
import Schema
import StoreJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who holds a store's lock, as the holder recorded it in `<store>/.lock`:
/// `{"host":"mac.local","pid":4242,"since":"2026-11-21T12:01:00Z","tool":"migrate-store","version":"0.3.0"}`.
///
/// Every field is optional because the record is written by another process and may be empty,
/// from an older tool, or caught half-written; the lock itself is the kernel's flock, not this record.
package struct LockHolder: Sendable, Equatable, Codable {
    /// The holder's process id.
    package var pid: Int32?
    /// The holder's tool name, e.g. `"migrate-store"`.
    package var tool: String?
    /// The holder's tool version, e.g. `"0.3.0"`.
    package var version: String?
    /// When the holder took the lock, RFC 3339 in UTC.
    package var since: String?
    /// The host the holder runs on.
    package var host: String?

    /// Creates a record. All fields default to nil (an unknown holder).
    package init(pid: Int32? = nil, tool: String? = nil, version: String? = nil, since: String? = nil, host: String? = nil) {
        self.pid = pid
        self.tool = tool
        self.version = version
        self.since = since
        self.host = host
    }

    /// True when the record said nothing usable about the holder.
    package var isUnknown: Bool { pid == nil && tool == nil }

    /// "process 4242 (migrate-store 0.3.0) on 'mac.local' since 2026-11-21T12:01:00Z";
    /// "another process (it left no readable record of who it is)" when unknown.
    package var summary: String {
        if isUnknown { return "another process (it left no readable record of who it is)" }
        var text = pid.map { "process \($0)" } ?? "a process"
        if let tool { text += " (\([tool, version].compactMap { $0 }.joined(separator: " ")))" }
        if let host, host != Self.hostOfThisProcess { text += " on '\(host)'" }
        if let since { text += " since \(since)" }
        return text
    }

    /// The record for this process, taking the lock now.
    static func current(tool: String, version: String) -> LockHolder {
        LockHolder(pid: getpid(), tool: tool, version: version, since: utcSeconds(time(nil)), host: hostOfThisProcess)
    }

    /// `current(tool:version:)` and its `encoded` bytes. The last one made is kept and given again
    /// within the same second for the same process, tool and version (a writer takes the lock
    /// for every update, and making the record, the time as text and the JSON anew each time is
    /// a measurable part of one). The bytes are those `encoded` gives.
    static func currentEncoded(tool: String, version: String) -> (holder: LockHolder, bytes: [UInt8]) {
        let pid = getpid(), now = time(nil)
        if let kept = lastMade.withLock({ $0 }), kept.pid == pid, kept.second == now, kept.holder.tool == tool,
            kept.holder.version == version
        {
            return (kept.holder, kept.bytes)
        }
        let holder = LockHolder(pid: pid, tool: tool, version: version, since: utcSeconds(now), host: hostOfThisProcess)
        let made = Made(pid: pid, second: now, holder: holder, bytes: holder.encoded)
        lastMade.withLock { $0 = made }
        return (holder, made.bytes)
    }

    /// The record `currentEncoded` made last, with the process and the second it was made for.
    private struct Made: Sendable {
        var pid: pid_t
        var second: time_t
        var holder: LockHolder
        var bytes: [UInt8]
    }
    private static let lastMade = LockedState<Made?>(nil)

    /// `2026-11-21T12:01:00Z`: RFC 3339 in UTC, whole seconds (what `Date.formatted(.iso8601)`
    /// gives), built with `gmtime_r` because a writer takes the lock for every update.
    static func utcSeconds(_ seconds: time_t) -> String {
        var seconds = seconds
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601) }
        var out: [UInt8] = []
        out.reserveCapacity(20)
        func digits(_ value: Int32, _ count: Int, then separator: Character?) {
            var text = Array(String(value).utf8)
            while text.count < count { text.insert(UInt8(ascii: "0"), at: 0) }
            out += text
            if let separator { out += Array(String(separator).utf8) }
        }
        digits(parts.tm_year + 1900, 4, then: "-")
        digits(parts.tm_mon + 1, 2, then: "-")
        digits(parts.tm_mday, 2, then: "T")
        digits(parts.tm_hour, 2, then: ":")
        digits(parts.tm_min, 2, then: ":")
        digits(parts.tm_sec, 2, then: "Z")
        return String(decoding: out, as: UTF8.self)
    }

    /// The record as written to the lock file: compact JSON, keys sorted, absent fields left out,
    /// then a newline. Written by hand (strings escaped as the store's documents are), because
    /// `JSONEncoder` cost more than the rest of taking the lock.
    var encoded: [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        func member(_ key: String, _ value: JSONValue?) {
            guard let value else { return }
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            JSONWriter.write(.string(key), indentLevel: 0, into: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.write(value, indentLevel: 0, into: &out)
        }
        member("host", host.map { .string($0) })
        member("pid", pid.map { .number(JSONNumber($0)) })
        member("since", since.map { .string($0) })
        member("tool", tool.map { .string($0) })
        member("version", version.map { .string($0) })
        out += [UInt8(ascii: "}"), UInt8(ascii: "\n")]
        return out
    }

    /// Parses a record; an empty or unreadable record gives an unknown holder.
    init(decoding bytes: [UInt8]) {
        // A record that does not parse is expected (empty, half-written, foreign): not an error.
        self = (try? JSONDecoder().decode(LockHolder.self, from: Data(bytes))) ?? LockHolder()
    }

    /// This machine's host name, read once per process (a writer takes the lock for every update).
    static let hostOfThisProcess: String? = currentHost()

    /// This machine's host name (`gethostname(3)`), nil if it cannot be read.
    static func currentHost() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
