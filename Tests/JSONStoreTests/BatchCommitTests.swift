import Foundation
import Testing

@testable import JSONStore

@Suite struct BatchCommitTests {
    /// A store-like layout: queue.json at the top, three sessions, store.json last.
    private func makeChanges(_ dir: TemporaryDirectory) -> [FileChange] {
        let sessions = dir("sessions")
        return [
            FileChange(directory: dir.path, name: "queue.json", bytes: bytes("new queue\n")),
            FileChange(directory: sessions, name: "a.json", bytes: bytes("new a\n")),
            FileChange(directory: sessions, name: "b.json", bytes: bytes("new b\n")),
            FileChange(directory: sessions, name: "c.json", bytes: bytes("new c\n")),
            FileChange(directory: dir.path, name: "store.json", bytes: bytes("new store\n")),
        ]
    }

    private func plantOld(_ dir: TemporaryDirectory, _ changes: [FileChange]) {
        #expect(mkdir(dir("sessions"), 0o700) == 0)
        for change in changes where change.name != "c.json" {  // c.json is a new file
            plant(change.path, "old \(change.name)\n", mode: change.name == "a.json" ? 0o640 : 0o600)
        }
    }

    private func old(_ change: FileChange) -> [UInt8]? {
        change.name == "c.json" ? nil : bytes("old \(change.name)\n")
    }

    @Test func batchCommitWritesAllFilesAndFsyncsEachDirectoryOnce() throws {
        let dir = TemporaryDirectory()
        let changes = makeChanges(dir)
        plantOld(dir, changes)
        let faults = FaultInjectingCalls()
        try BatchCommit.commit(changes, system: .injecting(faults))
        for change in changes { #expect(contents(change.path) == change.bytes) }
        #expect(permissions(dir("sessions/a.json")) == 0o640)
        #expect(permissions(dir("sessions/c.json")) == 0o600)
        // One fsync per file, one per distinct directory (2), one rename per file.
        #expect(faults.count("fsync") == changes.count + 2)
        #expect(faults.count("rename") == changes.count)
        #expect(faults.count("open") == changes.count + 2)
        #expect(temporaryFiles(in: dir.path).isEmpty && temporaryFiles(in: dir("sessions")).isEmpty)
    }

    @Test func renamesHappenInTheGivenOrder() throws {
        let dir = TemporaryDirectory()
        let changes = makeChanges(dir)
        plantOld(dir, changes)
        // Fail the 3rd rename: exactly the first two targets are new.
        let faults = FaultInjectingCalls(.init(callNumber: 3, kinds: ["rename"], fault: .error(EIO)))
        let error = #expect(throws: StoreError.self) { try BatchCommit.commit(changes, system: .injecting(faults)) }
        #expect(error?.path == changes[2].path)
        #expect(error?.message.contains("the first 2 of 5 files of this change were replaced (the last was '\(changes[1].path)')") == true)
        for (index, change) in changes.enumerated() {
            #expect(contents(change.path) == (index < 2 ? change.bytes : old(change)))
        }
        #expect(temporaryFiles(in: dir.path).isEmpty && temporaryFiles(in: dir("sessions")).isEmpty)
    }

    @Test func batchCommitFailingAtEveryCallLeavesEachFileOldOrNew() throws {
        var runs = 0
        for (errno, code) in sweptErrnos {
            for persistent in [false, true] {
                runs += try forEveryCall(failing: .error(errno), persistent: persistent) { faults, _ in
                    let dir = TemporaryDirectory()
                    let changes = makeChanges(dir)
                    plantOld(dir, changes)
                    var thrown: StoreError?
                    do { try BatchCommit.commit(changes, system: .injecting(faults)) } catch let error as StoreError { thrown = error }

                    if let thrown {
                        #expect(thrown.errno == errno && thrown.code == code && thrown.syscall == faults.injected.first?.kind, "\(thrown)")
                    } else {
                        // Only closing a directory after its fsync may fail without failing the batch.
                        #expect(faults.injected.allSatisfy { $0.kind == "close" } && faults.count("rename") == changes.count)
                    }
                    // The renames that succeeded are a prefix of the order; those files are new, the rest old.
                    let renamed = faults.log.filter { $0.kind == "rename" && $0.fault == nil }.count
                    for (index, change) in changes.enumerated() {
                        #expect(contents(change.path) == (index < renamed ? change.bytes : old(change)), "call log: \(faults.log)")
                    }
                    #expect(permissions(dir("sessions/a.json")) == 0o640)
                    if !persistent {
                        #expect(temporaryFiles(in: dir.path).isEmpty && temporaryFiles(in: dir("sessions")).isEmpty)
                    }
                    try sweepAndExpectNoTemporaryFiles(dir.path)
                    #expect(temporaryFiles(in: dir("sessions")).isEmpty)
                }
            }
        }
        print("BatchCommit fault sweep: \(runs) runs with an injected errno")
        #expect(runs > 100)
    }

    @Test func batchCommitWithShortWritesWritesEveryByte() throws {
        try forEveryCall(failing: .shortWrite, kinds: ["write"]) { faults, _ in
            let dir = TemporaryDirectory()
            let changes = makeChanges(dir)
            plantOld(dir, changes)
            try BatchCommit.commit(changes, system: .injecting(faults))
            for change in changes { #expect(contents(change.path) == change.bytes) }
        }
    }

    @Test func batchCommitRefusesSymlinkBeforeWritingAnything() throws {
        let dir = TemporaryDirectory()
        let changes = makeChanges(dir)
        plantOld(dir, changes)
        plant(dir("elsewhere"), "elsewhere")
        #expect(symlink(dir("elsewhere"), dir("sessions/c.json")) == 0)
        let faults = FaultInjectingCalls()
        let error = #expect(throws: StoreError.self) { try BatchCommit.commit(changes, system: .injecting(faults)) }
        #expect(error?.code == .symlinkRefused && error?.path == dir("sessions/c.json"))
        #expect(faults.count("open") == 0)
        for change in changes where change.name != "c.json" { #expect(contents(change.path) == old(change)) }
        #expect(contents(dir("elsewhere")) == bytes("elsewhere"))
    }

    @Test func emptyBatchMakesNoCall() throws {
        let faults = FaultInjectingCalls()
        try BatchCommit.commit([], system: .injecting(faults))
        #expect(faults.log.isEmpty)
    }
}
