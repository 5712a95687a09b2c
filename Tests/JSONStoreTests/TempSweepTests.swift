import Foundation
import Testing

@testable import JSONStore
@testable import StoreCore

@Suite struct TempSweepTests {
    let ours = ".tmp-0123456789abcdef-"

    /// A store with our temp files in all three folders, plus look-alikes that must survive.
    private func makeStore() -> (TemporaryDirectory, temps: [String], survivors: [String]) {
        let dir = TemporaryDirectory()
        #expect(mkdir(dir("sessions"), 0o700) == 0 && mkdir(dir("user-sessions"), 0o700) == 0)
        let temps = [dir(ours + "store.json"), dir("sessions/\(ours)x.json"), dir("user-sessions/\(ours)y.json")]
        for path in temps { plant(path, "partial") }
        plant(dir("outside"), "outside")
        let survivors = [
            dir("store.json"), dir(".tmp-notours"), dir(".tmp-0123456789ABCDEF-upper.json"), dir(ours),
            dir("sessions/tmp-0123456789abcdef-x.json"), dir("sessions/\(ours)folder"), dir("sessions/\(ours)link"),
            dir("outside"),
        ]
        plant(dir("store.json"), "{}")
        plant(dir(".tmp-notours"), "?")
        plant(dir(".tmp-0123456789ABCDEF-upper.json"), "?")
        plant(dir(ours), "?")
        plant(dir("sessions/tmp-0123456789abcdef-x.json"), "?")
        #expect(mkdir(dir("sessions/\(ours)folder"), 0o700) == 0)
        #expect(symlink(dir("outside"), dir("sessions/\(ours)link")) == 0)
        return (dir, temps, survivors)
    }

    @Test func sweepRemovesOnlyOurTempFiles() throws {
        let (dir, temps, survivors) = makeStore()
        let removed = try StoreLock.withExclusiveLock(store: dir.path, tool: "t", version: "1") { lock in
            try TempSweep.sweep(store: dir.path, holding: lock)
        }
        #expect(removed == temps.sorted())
        for path in temps { #expect(!FileManager.default.fileExists(atPath: path)) }
        for path in survivors {
            var status = stat()
            #expect(lstat(path, &status) == 0, "'\(path)' was removed")
        }
        #expect(contents(dir("outside")) == bytes("outside"))
    }

    @Test func sweepSkipsMissingDocumentFolders() throws {
        let dir = TemporaryDirectory()
        plant(dir(ours + "a.json"), "partial")
        let removed = try StoreLock.withExclusiveLock(store: dir.path, tool: "t", version: "1") { lock in
            try TempSweep.sweep(store: dir.path, holding: lock)
        }
        #expect(removed == [dir(ours + "a.json")])
    }

    @Test func sweepFailingAtEveryCallRemovesNothingElse() throws {
        var runs = 0
        for (errno, code) in sweptErrnos {
            runs += try forEveryCall(failing: .error(errno)) { faults, _ in
                let (dir, _, survivors) = makeStore()
                let lock = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero)
                do {
                    try TempSweep.sweep(store: dir.path, holding: lock, system: .injecting(faults))
                } catch let error as StoreError {
                    #expect(error.errno == errno && error.code == code)
                }
                for path in survivors {
                    var status = stat()
                    #expect(lstat(path, &status) == 0, "'\(path)' was removed")
                }
                // A later sweep without faults finishes the job.
                try TempSweep.sweep(store: dir.path, holding: lock)
                lock.release()
                #expect(temporaryFiles(in: dir.path) == [ours, ".tmp-0123456789ABCDEF-upper.json", ".tmp-notours"].sorted())
                #expect(temporaryFiles(in: dir("sessions")) == [ours + "folder", ours + "link"])
                #expect(temporaryFiles(in: dir("user-sessions")) == [])
            }
        }
        print("TempSweep fault sweep: \(runs) runs with an injected errno")
        #expect(runs >= 3 * 6)
    }

    @Test func temporaryNamePatternIsStrict() {
        #expect(TempSweep.isTemporaryName(".tmp-0123456789abcdef-a.json"))
        #expect(!TempSweep.isTemporaryName(".tmp-0123456789abcdef-"))
        #expect(!TempSweep.isTemporaryName(".tmp-0123456789abcde-a.json"))
        #expect(!TempSweep.isTemporaryName(".tmp-0123456789abcdefXa.json"))
        #expect(!TempSweep.isTemporaryName(".tmp-0123456789abcdeg-a.json"))
        #expect(!TempSweep.isTemporaryName("tmp-0123456789abcdef-a.json"))
        #expect(!TempSweep.isTemporaryName(".lock"))
    }

    @Test func readingPathsMakeNoWritingCall() throws {
        let dir = TemporaryDirectory()
        #expect(mkdir(dir("sessions"), 0o700) == 0)
        plant(dir("sessions/00000000-0000-4000-8000-000000000001.json"), "{}")
        plant(dir("sessions/\(ours)x.json"), "partial")
        let faults = FaultInjectingCalls()
        let system = SystemCalls.injecting(faults)
        _ = try DocumentListing.list(dir("sessions"), system: system)
        _ = try FileReader.read(dir("sessions/00000000-0000-4000-8000-000000000001.json"), system: system)
        _ = try StoreLock.currentHolder(store: dir.path, system: system)
        let writing: Set<String> = ["write", "pwrite", "fsync", "fchmod", "rename", "unlink", "mkdir", "rmdir", "ftruncate", "link"]
        #expect(faults.log.filter { writing.contains($0.kind) }.isEmpty, "\(faults.log)")
        #expect(FileManager.default.fileExists(atPath: dir(".lock")) == false)
        #expect(temporaryFiles(in: dir("sessions")) == ["\(ours)x.json"])
    }
}
