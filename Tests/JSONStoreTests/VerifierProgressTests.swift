import Foundation
import JSONStore
import Testing

@Suite struct VerifierProgressTests {
    @Test func verifyReportsEveryWorkStreamCheckedInOrder() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v2-store", as: "store"), options: .readOnly)
        var seen: [StoreProgress] = []
        let result = try StoreVerifier(store: store).verify { seen.append($0) }
        #expect(result.passed)
        #expect(seen == (0...8).map { .phase(.verifyingStore, done: $0, total: 8) })
    }

    @Test func verifyOfAV4StoreReportsEveryWorkStreamCheckedWithItsTotal() throws {
        let folder = TemporaryDirectory()
        let store = try folder.copySample("v5-store", as: "store")
        var seen: [StoreProgress] = []
        let result = try BreakingStepVerifier(path: store, against: nil).verify { seen.append($0) }
        #expect(result.passed && result.checked == 8)
        #expect(seen == (0...8).map { .phase(.verifyingStore, done: $0, total: 8) })
    }
}
