import Foundation
import Testing

@testable import JSONStore

@Suite struct AtomicFileTests {
    let old = bytes("{\"version\": \"old\"}\n")
    let new = bytes("{\"version\": \"new\", \"padding\": \"" + String(repeating: "x", count: 100_000) + "\"}\n")

    @Test func writeCreatesFileWithExactBytesAndMode0600() throws {
        let dir = TemporaryDirectory()
        try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new)
        #expect(contents(dir("a.json")) == new)
        #expect(permissions(dir("a.json")) == 0o600)
        #expect(temporaryFiles(in: dir.path).isEmpty)
    }

    @Test func writeOfEmptyContentCreatesEmptyFile() throws {
        let dir = TemporaryDirectory()
        try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: [])
        #expect(contents(dir("a.json")) == [])
    }

    @Test func permissionsAreKeptAcrossRewrites() throws {
        let dir = TemporaryDirectory()
        try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: old)
        try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new)
        #expect(permissions(dir("a.json")) == 0o600)

        plant(dir("b.json"), "old", mode: 0o640)
        try AtomicFile.durableReplace(directory: dir.path, name: "b.json", bytes: new)
        #expect(contents(dir("b.json")) == new)
        #expect(permissions(dir("b.json")) == 0o640)

        try AtomicFile.durableReplace(directory: dir.path, name: "c.json", bytes: new, newFileMode: 0o644)
        #expect(permissions(dir("c.json")) == 0o644)
    }

    @Test func symlinkTargetIsRefusedNotFollowed() throws {
        let dir = TemporaryDirectory()
        plant(dir("victim"), "victim")
        #expect(symlink(dir("victim"), dir("a.json")) == 0)
        #expect(symlink(dir("missing"), dir("dangling.json")) == 0)

        for name in ["a.json", "dangling.json"] {
            let error = #expect(throws: StoreError.self) {
                try AtomicFile.durableReplace(directory: dir.path, name: name, bytes: new)
            }
            #expect(error?.code == .symlinkRefused)
            #expect(error?.path == dir(name))
        }
        #expect(contents(dir("victim")) == bytes("victim"))
        #expect(FileManager.default.fileExists(atPath: dir("missing")) == false)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: dir("a.json"))) == dir("victim"))
        #expect(temporaryFiles(in: dir.path).isEmpty)
    }

    @Test func folderOrFifoInPlaceOfTargetIsRefused() throws {
        let dir = TemporaryDirectory()
        #expect(mkdir(dir("folder.json"), 0o700) == 0)
        #expect(mkfifo(dir("fifo.json"), 0o600) == 0)
        for name in ["folder.json", "fifo.json"] {
            let error = #expect(throws: StoreError.self) {
                try AtomicFile.durableReplace(directory: dir.path, name: name, bytes: new)
            }
            #expect(error?.code == .notARegularFile)
        }
    }

    @Test func hardLinkedCopyKeepsOldContentAfterRewrite() throws {
        let dir = TemporaryDirectory()
        plant(dir("a.json"), "old")
        #expect(link(dir("a.json"), dir("backup.json")) == 0)
        try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new)
        #expect(contents(dir("backup.json")) == bytes("old"))
        #expect(contents(dir("a.json")) == new)
    }

    @Test func writeThatFailsAtEveryCallLeavesOldFile() throws {
        var runs = 0
        for (errno, code) in sweptErrnos {
            for existing in [true, false] {
                for persistent in [false, true] {
                    runs += try forEveryCall(failing: .error(errno), persistent: persistent) { faults, callNumber in
                        try checkOneFailingWrite(faults, existing: existing, persistent: persistent, errno: errno, code: code)
                    }
                }
            }
        }
        print("AtomicFile fault sweep: \(runs) runs with an injected errno")
        #expect(runs > 50)
    }

    /// One durableReplace with `faults`: the file is exactly old (or absent) unless the rename
    /// succeeded, the error carries the injected errno, and a sweep leaves no temp file.
    private func checkOneFailingWrite(
        _ faults: FaultInjectingCalls, existing: Bool, persistent: Bool, errno: Int32, code: StoreError.Code,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let dir = TemporaryDirectory()
        if existing { plant(dir("a.json"), String(decoding: old, as: UTF8.self), mode: 0o640) }
        var thrown: StoreError?
        do {
            try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new, system: .injecting(faults))
        } catch { thrown = error }

        let failed = faults.injected.first
        let renamed = faults.succeeded("rename")
        // The only failure that does not fail the write: closing the directory after its fsync.
        let mustThrow = failed != nil && !(failed?.kind == "close" && renamed)
        #expect((thrown != nil) == mustThrow, "call log: \(faults.log)", sourceLocation: sourceLocation)
        if let thrown {
            #expect(
                thrown.errno == errno && thrown.code == code && thrown.syscall == failed?.kind,
                "\(thrown)", sourceLocation: sourceLocation)
            #expect(thrown.path == dir("a.json"), sourceLocation: sourceLocation)
        }
        let expected = renamed ? new : existing ? old : nil
        #expect(contents(dir("a.json")) == expected, "call log: \(faults.log)", sourceLocation: sourceLocation)
        if existing || renamed { #expect(permissions(dir("a.json")) == (existing ? 0o640 : 0o600), sourceLocation: sourceLocation) }
        // One failing call: the write cleans up itself. A disk that keeps failing may defeat the
        // cleanup's unlink too; then the sweep must.
        if !persistent { #expect(temporaryFiles(in: dir.path).isEmpty, sourceLocation: sourceLocation) }
        try sweepAndExpectNoTemporaryFiles(dir.path, sourceLocation: sourceLocation)
    }

    @Test func shortWritesStillWriteEveryByte() throws {
        var runs = 0
        for persistent in [false, true] {
            runs += try forEveryCall(failing: .shortWrite, kinds: ["write"], persistent: persistent) { faults, _ in
                let dir = TemporaryDirectory()
                plant(dir("a.json"), "old")
                try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new, system: .injecting(faults))
                #expect(contents(dir("a.json")) == new)
                if !faults.injected.isEmpty { #expect(faults.count("write") >= 2) }
            }
        }
        #expect(runs >= 2)
    }

    @Test func interruptedCallsAreRetriedExceptFsyncAndClose() throws {
        try forEveryCall(failing: .error(EINTR)) { faults, _ in
            let dir = TemporaryDirectory()
            plant(dir("a.json"), "old")
            do {
                try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new, system: .injecting(faults))
                #expect(contents(dir("a.json")) == new)
                #expect(["fsync", "close"].contains(faults.injected.first?.kind) == false || faults.succeeded("rename"))
            } catch let error as StoreError {
                #expect(error.errno == EINTR && ["fsync", "close"].contains(error.syscall ?? ""), "\(error)")
                #expect(contents(dir("a.json")) == (faults.succeeded("rename") ? new : bytes("old")))
            }
            #expect(faults.count("fsync") <= 2, "a failed fsync must never be retried")
        }
    }

    @Test func failedFsyncIsNeverRetried() throws {
        let dir = TemporaryDirectory()
        plant(dir("a.json"), "old")
        let faults = FaultInjectingCalls(.init(callNumber: 1, kinds: ["fsync"], fault: .error(EIO)))
        let error = #expect(throws: StoreError.self) {
            try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new, system: .injecting(faults))
        }
        #expect(error?.syscall == "fsync" && error?.errno == EIO && error?.code == .io)
        #expect(faults.count("fsync") == 1)
        #expect(faults.count("rename") == 0)
        #expect(contents(dir("a.json")) == bytes("old"))
        #expect(temporaryFiles(in: dir.path).isEmpty)
    }

    @Test func directoryFsyncFailureAfterRenameIsReportedAsNotConfirmed() throws {
        let dir = TemporaryDirectory()
        plant(dir("a.json"), "old")
        let faults = FaultInjectingCalls(.init(callNumber: 2, kinds: ["fsync"], fault: .error(EIO)))
        let error = #expect(throws: StoreError.self) {
            try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new, system: .injecting(faults))
        }
        #expect(error?.message.contains("the new version is in place but may not survive a power failure") == true)
        #expect(contents(dir("a.json")) == new)
    }

    @Test func fullDiskErrorNamesFileAndWayOut() throws {
        let dir = TemporaryDirectory()
        plant(dir("a.json"), "old")
        let faults = FaultInjectingCalls(.init(callNumber: 1, kinds: ["write"], fault: .error(ENOSPC)))
        let error = #expect(throws: StoreError.self) {
            try AtomicFile.durableReplace(directory: dir.path, name: "a.json", bytes: new, system: .injecting(faults))
        }
        #expect(
            error?.message == "Can't write '\(dir("a.json"))': the disk is full (ENOSPC). "
                + "Free some space and try again; the previous version of the file is unchanged.")
        #expect(error?.description.hasSuffix("(write: ENOSPC)") == true)
    }

    @Test func temporaryNamesAreDotNamesSweepRecognises() {
        let name = AtomicFile.temporaryName(for: "a.json")
        #expect(name.hasPrefix(".tmp-") && name.hasSuffix("-a.json") && name.count == ".tmp-".count + 17 + 6)
        #expect(TempSweep.isTemporaryName(name))
    }
}

/// Sweeps `store` with the real calls under its lock and expects no temp file to remain.
func sweepAndExpectNoTemporaryFiles(_ store: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let lock = try StoreLock(store: store, tool: "test", version: "0", timeout: .zero)
    try TempSweep.sweep(store: store, holding: lock)
    lock.release()
    #expect(temporaryFiles(in: store).isEmpty, sourceLocation: sourceLocation)
}
