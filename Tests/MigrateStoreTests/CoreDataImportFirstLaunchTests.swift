import Dispatch
import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// `CoreDataImport.firstLaunch` and `AsyncStore.firstLaunchImport`: the move from inside the app,
/// with its preferences as a dictionary or data, progress, cancellation, and a second call after a
/// crash at any point or after success (spec §13).
@Suite(.enabled(if: SkippedTests.check(CoreDataFixture.sqliteAvailable, "MigrateStoreTests CoreDataImportFirstLaunchTests", CoreDataFixture.sqliteMissing)))
struct CoreDataImportFirstLaunchTests {
    typealias S = AppStoreSample
    typealias P = CoreDataImportPreferencesTests

    private func launch(
        _ scratch: TemporaryDirectory, preferences: CoreDataImport.Preferences? = .userDefaults(P.everyKey),
        progress: @escaping (StoreProgress) -> Void = { _ in }, shouldContinue: @escaping () -> Bool = { true }
    ) throws(StoreError) -> CoreDataImport.FirstLaunchOutcome {
        try CoreDataImport.firstLaunch(
            source: scratch("VoiceCode.sqlite"), into: scratch("store"), preferences: preferences, tool: "tests", version: "1",
            progress: progress, shouldContinue: shouldContinue)
    }

    private func imported(_ outcome: CoreDataImport.FirstLaunchOutcome, sourceLocation: SourceLocation = #_sourceLocation) throws -> CoreDataImportReport {
        guard case .imported(let report) = outcome else {
            Issue.record("expected .imported, got \(outcome)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return report
    }

    /// The store folder and the staging folders beside it (`.store.…`).
    private func storeEntries(_ scratch: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0 == "store" || $0.hasPrefix(".store") }.sorted()
    }

    /// No store and no staging folder beside it.
    private func nothingWritten(_ scratch: TemporaryDirectory, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try storeEntries(scratch) == [], sourceLocation: sourceLocation)
    }

    @Test func theDictionaryAndTheDataGiveTheSameStore() throws {
        let dictionary = TemporaryDirectory(), data = TemporaryDirectory()
        _ = try S.write(version: 7, in: dictionary.path)
        _ = try S.write(version: 7, in: data.path)
        let one = try imported(try launch(dictionary))
        let plist = try PropertyListSerialization.data(fromPropertyList: P.everyKey, format: .xml, options: 0)
        let two = try imported(try launch(data, preferences: .data(plist)))
        #expect(one.preferences == "a UserDefaults dictionary (22 keys)" && two.preferences == "property-list data (\(plist.count) bytes)")
        #expect(try String(contentsOfFile: dictionary("store/settings.json"), encoding: .utf8) == P.everyKeySettings)
        #expect(FileManager.default.contents(atPath: dictionary("store/settings.json")) == FileManager.default.contents(atPath: data("store/settings.json")))
        #expect(one.preferenceKeysCarried == two.preferenceKeysCarried && one.preferenceKeysNotCarried == two.preferenceKeysNotCarried)
        #expect(one.preferenceFindings == two.preferenceFindings && one.drafts == 3 && two.drafts == 3)
        let a = try Store.open(at: data("store"), options: .init(readOnly: true)).customisation(S.a)
        #expect(a?.draft == "Also rename the helpers")
    }

    @Test func progressCountsEveryDocumentThenEveryFileReadBack() throws {
        let scratch = TemporaryDirectory()
        _ = try S.write(version: 7, in: scratch.path)
        var events: [StoreProgress] = []
        let report = try imported(try launch(scratch, progress: { events.append($0) }))
        let files = report.files
        #expect(files == 4 + 5 + 3)
        let importing = (0...files).map { StoreProgress.phase(.importing, done: $0, total: files) }
        let verifying = (0...files).map { StoreProgress.phase(.verifyingCopy, done: $0, total: files) }
        #expect(events == importing + verifying)
    }

    @Test(arguments: [0, 1, 5, 12, 13])
    func cancellingLeavesNothing(afterAsks: Int) throws {
        let scratch = TemporaryDirectory()
        _ = try S.write(version: 7, in: scratch.path)
        var asked = 0
        // Asked before the work, after each of the 12 documents, and before the swap (the 14th).
        #expect(throws: StoreError.self) {
            _ = try launch(
                scratch,
                shouldContinue: {
                    asked += 1
                    return asked <= afterAsks
                })
        }
        #expect(asked == afterAsks + 1)
        try nothingWritten(scratch)
        do {
            _ = try launch(scratch, shouldContinue: { false })
        } catch {
            #expect(error.code == .cancelled && error.message == "The import into '\(scratch("store"))' was cancelled before it started. Nothing was written.")
        }
        // The next launch does it all.
        #expect(try imported(try launch(scratch)).workStreams == 4)
    }

    @Test func cancellingTheTaskStopsTheImportAndLeavesNothing() async throws {
        let scratch = TemporaryDirectory()
        _ = try S.generate(workStreams: 50, messagesEach: 2, at: scratch("VoiceCode.sqlite"))
        let reached = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        let task = Task {
            try await AsyncStore.firstLaunchImport(
                source: scratch("VoiceCode.sqlite"), into: scratch("store"), preferences: .userDefaults(["queueEnabled": true]),
                tool: "tests", version: "1"
            ) { progress in
                if case .phase(.importing, 1, _) = progress {
                    reached.signal()
                    resume.wait()
                }
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                reached.wait()
                continuation.resume()
            }
        }
        task.cancel()
        resume.signal()
        let result = await task.result
        #expect(throws: StoreError.self) { try result.get() }
        if case .failure(let error as StoreError) = result { #expect(error.code == .cancelled) }
        try nothingWritten(scratch)
    }

    @Test func aSecondLaunchAfterSuccessSaysAlreadyImportedAndWritesNothing() throws {
        let scratch = TemporaryDirectory()
        _ = try S.write(version: 7, in: scratch.path)
        let report = try imported(try launch(scratch))
        let before = tree(scratch.path, dotNames: true, everyKind: true)
        guard case .alreadyImported(let at, let finishedNow) = try launch(scratch) else {
            Issue.record("not already imported")
            return
        }
        #expect(P.ms(at) == P.ms(report.importedAt) && !finishedNow)
        #expect(tree(scratch.path, dotNames: true, everyKind: true) == before)
        // Still so once the app has written to the store, and with the Core Data files removed.
        try Store.open(at: scratch("store")).setDraft("new text", for: S.c)
        for suffix in ["", "-wal", "-shm"] { try FileManager.default.removeItem(atPath: scratch("VoiceCode.sqlite") + suffix) }
        guard case .alreadyImported(let again, false) = try launch(scratch) else {
            Issue.record("not already imported")
            return
        }
        #expect(P.ms(again) == P.ms(report.importedAt))
    }

    @Test func noCoreDataFileMeansNothingToImport() throws {
        let scratch = TemporaryDirectory()
        guard case .noCoreDataStore = try launch(scratch) else {
            Issue.record("expected .noCoreDataStore")
            return
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func aTargetHoldingAnotherStoreIsRefused() throws {
        let scratch = TemporaryDirectory()
        _ = try S.write(version: 7, in: scratch.path)
        _ = try Store.create(at: scratch("store"))
        let before = tree(scratch("store"), dotNames: true, everyKind: true)
        do {
            _ = try launch(scratch)
            Issue.record("imported over another store")
        } catch {
            #expect(error.code == .alreadyExists)
        }
        #expect(tree(scratch("store"), dotNames: true, everyKind: true) == before)
    }

    /// Killed while staging: the unfinished staging folder is removed and the import redone.
    @Test func aLaunchAfterAKillWhileStagingRedoesTheImport() throws {
        let scratch = TemporaryDirectory()
        _ = try S.write(version: 7, in: scratch.path)
        let staged = try StagedStore(besides: try SiblingPath(scratch("store")), system: .real)
        try staged.add(try #require(StoreFilePath("settings.json")), Array("{}".utf8))
        staged.directory.release()  // the killed process's folder stays
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).contains(staged.directory.name))
        let report = try imported(try launch(scratch))
        #expect(report.files == 12)
        #expect(try String(contentsOfFile: scratch("store/settings.json"), encoding: .utf8) == P.everyKeySettings)
        #expect(try storeEntries(scratch) == ["store"])
    }

    /// Killed after the staged store was complete and the swap's journal written, before or after
    /// any rename: the next launch puts that store in place and says it is imported.
    @Test(arguments: 1...3)
    func aLaunchAfterAKillInTheSwapFinishesIt(stepsDone: Int) throws {
        let scratch = TemporaryDirectory()
        _ = try S.write(version: 7, in: scratch.path)
        // The complete store a killed run had staged: an import's files, in a staging folder.
        let reference = TemporaryDirectory()
        _ = try S.write(version: 7, in: reference.path)
        let report = try imported(try launch(reference))
        let target = try SiblingPath(scratch("store"))
        let staged = try StagedStore(besides: target, system: .real)
        for (path, bytes) in tree(reference("store")).sorted(by: { $0.key < $1.key }) {
            guard let filePath = StoreFilePath(path) else { continue }
            try staged.add(filePath, bytes)
        }
        try staged.seal()
        let swap = StoreSwap(
            target: target, journal: RestoreJournal(target: "store", staging: staged.directory.name, aside: nil, startedAt: "2025-11-20T09:00:00.000Z"),
            tool: "tests", version: "1", system: .real)
        for step in swap.steps.prefix(stepsDone) { try swap.perform(step) }
        staged.directory.release()
        guard case .alreadyImported(let at, let finishedNow) = try launch(scratch) else {
            Issue.record("not finished")
            return
        }
        #expect(P.ms(at) == P.ms(report.importedAt) && finishedNow == (stepsDone == 1))
        #expect(tree(scratch("store")) == tree(reference("store")))
        #expect(try storeEntries(scratch) == ["store"])
    }
}
