import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `Backup.prune` when deleting fails halfway: the backup's name is already gone, so nothing
/// under a backup's name is partial; the dot-named rest is listed and the next prune removes it.
@Suite struct BackupPruneFaultTests {
    @Test func aRemovalThatFailsHalfwayLeavesOnlyADotNamedFolderThatTheNextPruneRemoves() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let old = scratch("store.backup-20250101T000000Z"), new = scratch("store.backup-20250102T000000Z")
        _ = try Backup.create(store: store, destination: old, tool: "test", version: "1")
        _ = try Backup.create(store: store, destination: new, tool: "test", version: "1")
        let kept = tree(new, dotNames: true, everyKind: true)

        let faults = FaultInjectingCalls(.init(callNumber: 3, kinds: ["unlink"], fault: .error(EIO)))
        let error = #expect(throws: StoreError.self) {
            try Backup.prune(besides: store, keeping: 1, dryRun: false, system: .injecting(faults))
        }
        #expect(error?.syscall == "unlink" && error?.errno == EIO)
        #expect(error?.message.hasSuffix(" No backup was removed.") == true, "\(String(describing: error))")
        #expect(faults.count("rename") == 1 && faults.count("fsync") == 1, "renamed and made durable before any unlink")
        let names = folderNames(scratch.path).sorted()
        #expect(names.count == 3 && names[0].hasPrefix(".store.backup-20250101T000000Z.removing-") && names[0].count == 56)
        #expect(Array(names.dropFirst()) == ["store", "store.backup-20250102T000000Z"])

        let listing = try Backup.list(besides: store)
        #expect(listing.backups.map(\.name) == ["store.backup-20250102T000000Z"])
        #expect(listing.interruptedRemovals == [scratch(names[0])])

        let report = try Backup.prune(besides: store, keeping: 1)
        #expect(report.finishedRemovals == [scratch(names[0])])
        #expect(report.removed.isEmpty && report.kept.map(\.name) == ["store.backup-20250102T000000Z"])
        #expect(folderNames(scratch.path).sorted() == ["store", "store.backup-20250102T000000Z"])
        #expect(tree(new, dotNames: true, everyKind: true) == kept)
    }

    @Test func keepBelowOneIsRefused() throws {
        let scratch = TemporaryDirectory()
        let store = try scratch.copySample("v2-store", as: "store")
        let error = #expect(throws: StoreError.self) { try Backup.prune(besides: store, keeping: 0) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "Can't prune the backups of '\(store)' keeping 0: keep at least 1. Nothing was removed.")
    }
}
