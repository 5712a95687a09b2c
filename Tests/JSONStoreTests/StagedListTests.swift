import Foundation
import Schema
import Testing

@testable import JSONStore

/// The packed staged list of a migration (`StoreMigrator.StagedList`) gives back every field of
/// every staged work stream as it was appended, whatever is stored beside the entries.
@Suite struct StagedListTests {
    typealias StagedWorkStream = StoreMigrator.StagedWorkStream
    typealias StagedList = StoreMigrator.StagedList

    static func id(_ n: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", n))!
    }

    static let queued = QueueKeys(
        isInQueue: true, queuePosition: 7, queuedAt: Date(timeIntervalSince1970: 1_700_000_000.125),
        isInPriorityQueue: true, priority: 5, priorityOrder: 1.5,
        priorityQueuedAt: Date(timeIntervalSince1970: 1_700_000_100.5))
    /// Not queued, but a stale position and date (a v1 writer's leftovers): not the defaults.
    static let stale = QueueKeys(queuePosition: 3, queuedAt: Date(timeIntervalSince1970: 1_600_000_000))
    /// Only the priority order differs from the defaults.
    static let orderOnly = QueueKeys(priorityOrder: 2)

    static func session(
        _ n: Int, version: Int = 1, keys: QueueKeys = .defaults, changes: [Change] = [],
        counted: Bool = false, temporary: UInt64? = nil
    ) -> StagedWorkStream {
        var session = StagedWorkStream(summary: WorkStreamQueueSummary(id: id(n), schemaVersion: version, keys: keys), changes: changes)
        session.counted = counted
        session.temporary = temporary
        return session
    }

    static func expectSame(_ a: StagedWorkStream, _ b: StagedWorkStream) {
        #expect(a.summary == b.summary)
        #expect(a.changes == b.changes)
        #expect(a.counted == b.counted)
        #expect(a.temporary == b.temporary)
    }

    @Test func anEntryTakes32Bytes() {
        #expect(MemoryLayout<StagedList.Entry>.stride == 32)
    }

    @Test func everyFieldRoundTripsIncludingNonDefaultKeysAndNoTempFile() {
        let sessions = [
            Self.session(0),
            Self.session(1, version: 2, keys: Self.queued, changes: [.schemaVersion(from: 1, to: 2)], temporary: 0),
            Self.session(2, keys: Self.stale, counted: true, temporary: UInt64.max),
            Self.session(3, version: 3, keys: Self.orderOnly, temporary: 0x0123_4567_89ab_cdef),
            Self.session(4, version: 65_534, changes: [.schemaVersion(from: 1, to: 2), .addedKey("queue_position", value: "0")]),
            Self.session(5, version: 65_535, keys: Self.queued),
            Self.session(6, version: Int(Int32.max) + 5, counted: true, temporary: 42),
            Self.session(7, version: -1),
        ]
        var list = StagedList(capacity: sessions.count)
        for session in sessions { list.append(session) }
        list.finishAppending()
        #expect(list.count == sessions.count)
        #expect(!list.isEmpty)
        for (position, session) in sessions.enumerated() {
            Self.expectSame(list[position], session)
            #expect(list.id(position) == session.id)
            #expect(list.keys(position) == session.keys)
            #expect(list.schemaVersion(position) == session.summary.schemaVersion)
            #expect(list.temporary(position) == session.temporary)
            #expect(list.isCounted(position) == session.counted)
            #expect(list.changes(position) == session.changes)
        }
        #expect(Array(list.summaries) == sessions.map(\.summary))
        #expect(list.temporaryCount == 4)
        #expect(list.hasUnreportedChanges)
    }

    @Test func aTempFileAndChangesSetLaterAreKeptAndEmptyChangesAreNone() {
        var list = StagedList()
        list.append(Self.session(0, keys: Self.queued))
        list.append(Self.session(1, temporary: 9))
        #expect(list.temporaryCount == 1)
        #expect(!list.hasUnreportedChanges)

        list.setTemporary(0, at: 0)
        list.setChanges([.schemaVersion(from: 1, to: 2)], at: 0)
        #expect(list.temporary(0) == 0)
        #expect(list.temporaryCount == 2)
        #expect(list.changes(0) == [.schemaVersion(from: 1, to: 2)])
        #expect(list.keys(0) == Self.queued)
        #expect(list.hasUnreportedChanges)

        list.setTemporary(10, at: 1)
        #expect(list.temporary(1) == 10)
        list.setChanges([], at: 0)
        #expect(list.changes(0) == [])
        #expect(!list.hasUnreportedChanges)
    }

    @Test func anEmptyListHasNoSummaries() {
        let list = StagedList()
        #expect(list.isEmpty)
        #expect(list.summaries.isEmpty)
        #expect(list.temporaryCount == 0)
        #expect(!list.hasUnreportedChanges)
    }
}
