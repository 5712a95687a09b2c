import Foundation
import StoreGenerator
import Testing

@testable import JSONStore

/// The content of write number `n` to `name`. Keep in step with `payload` in store-test-helper.
private func ackPayload(name: String, n: Int) -> [UInt8] {
    let length = 1 + (n &* 7919) % 150_000
    var bytes = Array("\(name) \(n) \(length)\n".utf8)
    for index in 0..<length { bytes.append(UInt8(truncatingIfNeeded: n &* 131 &+ index)) }
    return bytes + Array("\nend \(n)\n".utf8)
}

@Suite(.serialized) struct MultiProcessTests {
    @Test(.timeLimit(.minutes(2)))
    func killedWriterNeverLosesAcknowledgedWrite() throws {
        let seed = ProcessInfo.processInfo.environment["STORE_TEST_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0 ... .max)
        let kills = environmentInteger("STORE_KILLS", default: 200)
        print("killedWriterNeverLosesAcknowledgedWrite: STORE_TEST_SEED=\(seed) STORE_KILLS=\(kills)")
        var random = SeededGenerator(seed: seed)
        let dir = TemporaryDirectory()
        var acknowledged: [String: Int] = [:]
        var acknowledgements = 0, leftovers = 0, killedBeforeFirstAck = 0

        for round in 0..<kills {
            let child = try ChildProcess(["ack-writes", dir.path, "\(random.next() >> 1)", "\(round * 1_000_000)"])
            var linesBeforeKill = Int(random.next() % 5)  // 0: kill during startup or the first write
            if linesBeforeKill == 0 { killedBeforeFirstAck += 1 }
            let record = { (line: String) in
                let parts = line.split(separator: " ")
                if parts.first == "ack", parts.count == 3, let n = Int(parts[2]) {
                    acknowledged[String(parts[1])] = n
                    acknowledgements += 1
                } else if parts.first == "swept", parts.count == 2, let count = Int(parts[1]) {
                    leftovers += count
                }
            }
            while linesBeforeKill > 0, let line = child.readLine() { record(line); linesBeforeKill -= 1 }
            usleep(UInt32(random.next() % 3000))
            child.killHard()
            while let line = child.readLine() { record(line) }
            let end = child.wait()
            #expect(end.reason == .uncaughtSignal && end.status == SIGKILL, "round \(round): the helper ended on its own (\(end))")
            try expectEveryFileWhole(dir("sessions"), acknowledged: acknowledged, round: round, seed: seed)
        }
        try sweepAndExpectNoTemporaryFiles(dir.path)
        #expect(temporaryFiles(in: dir("sessions")).isEmpty)
        print(
            "killedWriterNeverLosesAcknowledgedWrite: \(kills) kills (\(killedBeforeFirstAck) before an ack was read), "
                + "\(acknowledgements) acknowledged writes, \(leftovers) temp files left by kills and swept")
        #expect(acknowledgements > kills)
    }

    /// Every session file is exactly one whole payload, and at least as new as its last acknowledgement.
    private func expectEveryFileWhole(
        _ sessions: String, acknowledged: [String: Int], round: Int, seed: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sessions)) ?? []
        for name in names where !name.hasPrefix(".") {
            let data = try #require(contents(sessions + "/" + name))
            let header = data.prefix { $0 != UInt8(ascii: "\n") }.split(separator: UInt8(ascii: " "))
            let n = header.count == 3 ? Int(String(decoding: header[1], as: UTF8.self)) : nil
            #expect(
                n != nil && data == ackPayload(name: name, n: n!),
                "round \(round), seed \(seed): '\(name)' is torn or mixed (\(data.count) bytes)", sourceLocation: sourceLocation)
            if let n, let acked = acknowledged[name] {
                #expect(
                    n >= acked, "round \(round), seed \(seed): '\(name)' lost acknowledged write \(acked), holds \(n)",
                    sourceLocation: sourceLocation)
            }
        }
        for name in acknowledged.keys {
            #expect(names.contains(name), "round \(round), seed \(seed): acknowledged '\(name)' is missing", sourceLocation: sourceLocation)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func fourProcessesIncrementingUnderLockReachExactTotal() throws {
        let dir = TemporaryDirectory()
        let count = environmentInteger("STORE_INCREMENTS", default: 250)
        let children = try (0..<4).map { _ in try ChildProcess(["increment", dir.path, "\(count)"]) }
        for child in children {
            #expect(child.readLine() == "done")
            let end = child.wait()
            #expect(end.reason == .exit && end.status == 0)
        }
        #expect(contents(dir("a")) == bytes("\(4 * count)\n"))
        #expect(contents(dir("b")) == bytes("\(4 * count)\n"))
        #expect(temporaryFiles(in: dir.path).isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func killedLockHolderDoesNotBlockNextProcess() throws {
        let dir = TemporaryDirectory()
        let child = try ChildProcess(["hold-lock", dir.path])
        #expect(child.readLine() == "locked")

        let error = #expect(throws: StoreError.self) { _ = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .zero) }
        #expect(error?.code == .locked)
        #expect(error?.message.contains("it is locked by process \(child.pid) (store-test-helper 1.0) since ") == true)
        #expect(try StoreLock.currentHolder(store: dir.path)?.pid == child.pid)

        child.killHard()
        child.wait()
        let start = ContinuousClock.now
        let lock = try StoreLock(store: dir.path, tool: "t", version: "1", timeout: .seconds(5))
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(try StoreLock.currentHolder(store: dir.path)?.pid == getpid())
        lock.release()
    }

    @Test func newFilesAndFoldersIgnoreUmask() throws {
        let fresh = TemporaryDirectory()
        let child = try ChildProcess(["write-with-umask", fresh.path, "277"])
        #expect(child.readLine() == "ok")
        child.wait()
        #expect(permissions(fresh("new.json")) == 0o600)
        #expect(permissions(fresh("sub")) == 0o700)
        #expect(contents(fresh("new.json")) == bytes("hello\n"))

        let existing = TemporaryDirectory()
        plant(existing("new.json"), "old", mode: 0o640)
        let rewriter = try ChildProcess(["write-with-umask", existing.path, "077"])
        #expect(rewriter.readLine() == "ok")
        rewriter.wait()
        #expect(permissions(existing("new.json")) == 0o640)
        #expect(contents(existing("new.json")) == bytes("hello\n"))
    }
}
