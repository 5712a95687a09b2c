import Foundation
import Testing

@testable import JSONStore

@Suite struct RestoreJournalSafetyTests {
    /// A journal that exists but cannot be read might name any staging folder, so none may be
    /// removed as stale (the restored store recovery needs could be one of them).
    @Test func unreadableJournalProtectsEveryStagingFolder() throws {
        let dir = TemporaryDirectory()
        let target = try SiblingPath(dir("store"))
        #expect(RestoreJournal.stagingInJournal(of: target, system: .real) == [])
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: target.sibling(RestoreJournal.fileName(for: target))))
        #expect(RestoreJournal.stagingInJournal(of: target, system: .real) == nil)
    }
}
