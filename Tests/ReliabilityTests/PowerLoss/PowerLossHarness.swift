import Foundation
import StoreGenerator

@testable import JSONStore

/// Runs a workload once on a `ModelFileSystem`, then cuts the power after every state-changing
/// call and checks every state the disk may hold (see `CrashStates`).
///
/// A workload is a list of operations; an operation is acknowledged once it has returned without
/// error. The generic check: for every file a reader sees (dot names aside), its bytes after the
/// crash equal its bytes after the last acknowledged operation, or after the operation in flight
/// (old or new, never torn, never older than acknowledged). `extraCheck` adds what the workload
/// promises beyond that (the store opens, the queue is consistent, the migration resumes).
struct PowerLossHarness {
    /// Which system calls the code under test goes through: the model itself, or a mutant around it.
    var seam: (ModelFileSystem) -> any FileSystemCalls = { $0 }
    /// Combinations tried per crash point at most; above it they are sampled.
    var limitPerCrashPoint = environmentInteger("RELIABILITY_CRASH_LIMIT", default: 256, full: 4096)
    var seed: UInt64 = environmentSeed()
    /// Run the generic old-or-new check on the crash state as found. Off for a restore, whose
    /// target folder is missing between its two renames until recovery finishes the swap (the
    /// workload's check recovers first, then compares).
    var checkFilesBeforeRecovery = true
    /// Stop at the first crash state that fails (enough to show a mutant is caught).
    var stopAtFirstFailure = false

    /// What a run found.
    struct Outcome {
        var crashPoints = 0
        var statesChecked = 0
        var sampledCrashPoints = 0
        var failures: [String] = []
        /// Bytes of every visible file after each acknowledged operation (index 0: before the first).
        var versions: [[String: [UInt8]]] = []
        /// How many calls of each kind the workload made (`ModelFileSystem.callCounts`).
        var callCounts: [String: Int] = [:]
    }

    /// A crash state handed to a check.
    struct Crash {
        var state: ModelState
        /// Operations acknowledged before the power went.
        var acknowledged: Int
        /// The call after which the power went.
        var call: String
        var versions: [[String: [UInt8]]]
    }

    /// - Parameters:
    ///   - initial: The disk before the workload (everything durable).
    ///   - operations: The workload; each gets the system calls to use.
    ///   - extraCheck: Returns failure descriptions for one crash state (empty when it passes).
    func run(
        initial: ModelState, operations: [(SystemCalls) throws -> Void],
        extraCheck: (Crash) -> [String] = { _ in [] }
    ) -> Outcome {
        var outcome = Outcome()
        let model = ModelFileSystem(initial.allDurable)
        let system = SystemCalls(calls: seam(model))
        outcome.versions = [model.current.files()]
        model.startRecording()
        for (index, operation) in operations.enumerated() {
            do { try operation(system) } catch {
                outcome.failures.append("operation \(index + 1) failed without a crash: \(error)")
                return outcome
            }
            model.acknowledge(index + 1)
            outcome.versions.append(model.current.files())
        }
        model.stopRecording()
        outcome.callCounts = model.callCounts

        var random = SeededGenerator(seed: seed)
        var previous: (state: ModelState, acknowledged: Int)?
        // Hunting a mutant, look at the latest crash points first: a lost acknowledged write shows there.
        for snapshot in stopAtFirstFailure ? model.snapshots.reversed() : model.snapshots {
            if let previous, previous.state == snapshot.state && previous.acknowledged == snapshot.acknowledged { continue }
            if stopAtFirstFailure && !outcome.failures.isEmpty { break }
            previous = (snapshot.state, snapshot.acknowledged)
            outcome.crashPoints += 1
            let exploration = CrashStates.explore(snapshot.state, limit: limitPerCrashPoint, random: &random)
            if !exploration.exhaustive { outcome.sampledCrashPoints += 1 }
            for state in exploration.states {
                outcome.statesChecked += 1
                let crash = Crash(state: state, acknowledged: snapshot.acknowledged, call: snapshot.call, versions: outcome.versions)
                let found = (checkFilesBeforeRecovery ? Self.filesAreOldOrNew(crash) : []) + extraCheck(crash)
                for failure in found where outcome.failures.count < 50 {
                    outcome.failures.append("after call '\(snapshot.call)' (\(snapshot.acknowledged) acknowledged): \(failure)")
                }
                if stopAtFirstFailure && !outcome.failures.isEmpty { break }
            }
        }
        return outcome
    }

    /// Every visible file holds the version of the last acknowledged operation or of the one in
    /// flight; a file that exists in neither is a leftover the crash must not show.
    static func filesAreOldOrNew(_ crash: Crash) -> [String] {
        let files = crash.state.files()
        let acknowledged = crash.versions[crash.acknowledged]
        let inFlight = crash.acknowledged + 1 < crash.versions.count ? crash.versions[crash.acknowledged + 1] : acknowledged
        var failures: [String] = []
        for path in Set(files.keys).union(acknowledged.keys).union(inFlight.keys).sorted() {
            let found = files[path]
            if found == acknowledged[path] || found == inFlight[path] { continue }
            switch (found, acknowledged[path]) {
            case (nil, _): failures.append("'\(path)' is missing; it held \(acknowledged[path]?.count ?? 0) bytes when acknowledged")
            case (let bytes?, nil) where inFlight[path] == nil:
                failures.append("'\(path)' (\(bytes.count) bytes) appeared though no operation wrote it")
            case (let bytes?, _):
                failures.append(
                    "'\(path)' holds \(bytes.count) bytes that are neither the acknowledged version "
                        + "(\(acknowledged[path]?.count ?? 0) bytes) nor the new one (\(inFlight[path]?.count ?? 0) bytes): torn or lost")
            }
        }
        return failures
    }
}

/// The seed for seeded randomness: `RELIABILITY_SEED`, else a random one (printed by the tests).
func environmentSeed() -> UInt64 {
    ProcessInfo.processInfo.environment["RELIABILITY_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0 ... .max)
}
