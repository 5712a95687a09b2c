import Foundation
import Testing

@testable import JSONStore
@testable import StoreCore

/// The lock record is written by hand (not `JSONEncoder`): it must stay the same compact JSON,
/// keys sorted, absent fields left out, that `LockHolder(decoding:)` and other tools read.
@Suite struct LockHolderRecordTests {
    @Test func recordBytesAreCompactSortedJSON() {
        let record = LockHolder(pid: 4242, tool: "migrate-store", version: "0.3.0", since: "2026-11-21T12:01:00Z", host: "mac.local")
        #expect(
            String(decoding: record.encoded, as: UTF8.self)
                == #"{"host":"mac.local","pid":4242,"since":"2026-11-21T12:01:00Z","tool":"migrate-store","version":"0.3.0"}"# + "\n")
    }

    @Test func absentFieldsAreLeftOut() {
        #expect(String(decoding: LockHolder().encoded, as: UTF8.self) == "{}\n")
        #expect(String(decoding: LockHolder(pid: -1, version: "").encoded, as: UTF8.self) == #"{"pid":-1,"version":""}"# + "\n")
    }

    @Test func oddStringsAreEscapedAndReadBackUnchanged() {
        let record = LockHolder(pid: Int32.max, tool: "a\"b\\c/d\n\u{1}é", version: "\u{7f}\u{2028}", since: "x", host: "h\t🦊")
        #expect(
            String(decoding: record.encoded, as: UTF8.self)
                == #"{"host":"h\t🦊","pid":2147483647,"since":"x","tool":"a\"b\\c/d\n\u0001é","version":"\#u{7f}\#u{2028}"}"# + "\n")
        #expect(LockHolder(decoding: record.encoded) == record)
    }

    @Test func sinceIsWholeSecondsUTCAsISO8601Formatting() {
        for seconds in [0, 59, 951_782_400, 1_700_000_000, 1_795_000_000, 4_102_444_799] as [time_t] {
            #expect(LockHolder.utcSeconds(seconds) == Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601))
        }
    }
}
