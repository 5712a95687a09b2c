import Foundation
import Testing
import JSONStore

@Suite struct VerifierProgressTests {
    @Test func verifyReportsEveryWorkStreamCheckedInOrder() throws {
        let folder = TemporaryDirectory()
        let store = try Store.open(at: try folder.copySample("v2-store", as: "store"), options: .readOnly)
        var seen: [String] = []
        let result = try StoreVerifier(store: store).verify { done, total in seen.append("\(done)/\(total)") }
        #expect(result.passed)
        #expect(seen == (0...8).map { "\($0)/8" })
    }
}
