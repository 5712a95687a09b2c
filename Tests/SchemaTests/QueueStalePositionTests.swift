import Foundation
import Testing

@testable import Schema

// Spec §6 rule 5 as the shipped app (reifying/untethered) sorts its queue list: by queue_position
// ascending, so a stale 0 comes first. Pure: no disk.

private enum L {
    static func id(_ n: Int) -> UUID { StoreMigrationTests.id(n) }
    static let t1 = Fixtures.t0

    static func summary(_ n: Int, inQueue: Bool = true, position: Int32, queuedAt: Date? = nil) -> WorkStreamQueueSummary {
        WorkStreamQueueSummary(id: id(n), schemaVersion: 1, keys: QueueKeys(isInQueue: inQueue, queuePosition: position, queuedAt: queuedAt))
    }
}

@Suite struct StalePositionAppRulesTests {
    // Spec §6 rule 5: the app's queue list sorts by queue_position ascending
    // (DirectoryListView.updateCachedQueuedSessions), so a queued work stream whose position is a
    // stale 0 comes first. It used to be placed last.
    @Test func aStalePositionZeroIsPlacedFirst() {
        let queue = QueueBuilder.build(from: [
            L.summary(1, position: 2), L.summary(2, position: 0), L.summary(3, position: 1),
            L.summary(4, inQueue: false, position: 0),
        ])
        #expect(queue.fifo.map(\.workStreamID) == [2, 3, 1].map(L.id))
    }

    // Restates testQueuedSessionsSortedByPosition (added 3, 1, 2: listed by position), with two
    // stale zeros: among equal positions, queued_at (null last), then id, as before.
    @Test func equalStalePositionsKeepTheTieBreaks() {
        let queue = QueueBuilder.build(from: [
            L.summary(1, position: 2), L.summary(2, position: 3), L.summary(3, position: 1),
            L.summary(4, position: 0), L.summary(5, position: 0, queuedAt: L.t1), L.summary(6, position: -1),
        ])
        #expect(queue.fifo.map(\.workStreamID) == [6, 5, 4, 3, 1, 2].map(L.id))
    }
}
