import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `StoreMigrator.plan` reports its first pass through the one progress type, with its total.
@Suite struct PlanProgressTests {
    @Test func thePlanOfAV3StoreCountsEveryWorkStreamItReadsAndWritesNothing() throws {
        let folder = TemporaryDirectory()
        let path = try folder.copySample("v3-store", as: "store")
        let before = snapshot(path)
        var seen: [StoreProgress] = []
        let report = try StoreMigrator(store: try Store.open(at: path, options: .readOnly)).plan(to: 4) { seen.append($0) }
        #expect(report.totals["added_key"] == 4 + 15)
        #expect(seen == (0...8).map { StoreProgress.phase(.validating, done: $0, total: 8) })
        #expect(snapshot(path) == before)
    }
}
