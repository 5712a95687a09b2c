import Foundation
import Schema

@testable import JSONStore

/// Runs one bad input through the library, in memory (`ModelFileSystem`): open read-only, list
/// the work streams, the customisations, the settings and the queue, plan the migration; then
/// open for writing and migrate. Checks that nothing crashed, that the read-only pass made no
/// state-changing call at all, that a store with a bad document has no file changed by the
/// migration attempt, and that every error names the damaged file and says where in it.
struct BadInputProbe {
    static let store = "/store"
    static let options = Store.Options(readOnly: true, tool: "reliability-tests", version: "1", lockTimeout: .zero)
    static let writable = Store.Options(readOnly: false, tool: "reliability-tests", version: "1", lockTimeout: .zero)

    /// The store the damage is applied to.
    let base: ModelState

    /// Every run of the write pass (open for writing, migrate) takes this many times longer than
    /// the read pass; it runs for one case in `writeEvery` (and for every case of the special kinds).
    var writeEvery = environmentInteger("RELIABILITY_WRITE_EVERY", default: 4, full: 1)

    /// - Parameter only: The files of the sample to keep (relative paths); nil keeps all.
    init(sample: String, only: Set<String>? = nil) throws {
        let model = ModelFileSystem()
        let root = URL(fileURLWithPath: sample)
        for relative in try FileManager.default.subpathsOfDirectory(atPath: sample).sorted() {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path, isDirectory: &isDirectory)
                || isDirectory.boolValue || only.map({ !$0.contains(relative) }) == true
            {
                continue
            }
            model.install(Self.store + "/" + relative, Array(try Data(contentsOf: root.appendingPathComponent(relative))))
        }
        base = model.current
    }

    /// The store's documents, relative path → bytes.
    var documents: [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: base.files().map { (String($0.key.dropFirst(Self.store.count + 1)), $0.value) })
    }

    /// What one case produced.
    struct Result {
        var failures: [String] = []
        var reported = false
        var writePasses = 0
    }

    /// - Parameter number: The case's number; the write pass runs when it is a multiple of `writeEvery`.
    func run(_ input: BadInputCase, number: Int = 0) -> Result {
        var result = Result()
        let target = Self.store + "/" + input.relative
        let setup = ModelFileSystem(base)
        setup.install(target, input.bytes)
        let state = setup.current

        // Read-only: every reader entry point; nothing may change, not even a lock file.
        let model = ModelFileSystem(state)
        let errors = readEverything(SystemCalls(calls: model))
        if model.current != state { result.failures.append("the read-only pass changed the disk") }
        result.reported = !errors.isEmpty
        for error in errors { result.failures += checkPositioned(error, target: target, input: input) }
        if input.mustFail && errors.isEmpty { result.failures.append("the damaged file was accepted without an error") }

        // For writing: a store with a bad document is not migrated; no document changes.
        if result.reported && (number % max(1, writeEvery) == 0 || !["truncation", "byte flip", "random bytes"].contains(input.kind)) {
            result.writePasses = 1
            let writer = ModelFileSystem(state)
            do {
                let opened = try Store.open(at: Self.store, options: Self.writable, system: SystemCalls(calls: writer))
                _ = try StoreMigrator(store: opened).migrate(toolVersion: "1")
                if case .needsMigration = opened.compatibility { result.failures.append("migrate succeeded on a store with a bad document") }
            } catch {
                result.failures += checkPositioned(error, target: target, input: input)
            }
            if writer.current.files() != state.files() { result.failures.append("a write attempt changed a document") }
        }
        return result.failures.isEmpty
            ? result
            : Result(
                failures: result.failures.map { "[\(input.kind)] '\(input.relative)' (\(input.bytes.count) bytes): \($0)" },
                reported: result.reported, writePasses: result.writePasses)
    }

    /// Every error the read-only entry points report.
    private func readEverything(_ system: SystemCalls) -> [StoreError] {
        var errors: [StoreError] = []
        let store: Store
        do { store = try Store.open(at: Self.store, options: Self.options, system: system) } catch { return [error] }
        func collect(_ body: () throws(StoreError) -> [StoreError]) {
            do { errors += try body() } catch { errors.append(error) }
        }
        collect { () throws(StoreError) in try store.listWorkStreams().problems }
        collect { () throws(StoreError) in try store.customisations().problems }
        collect { () throws(StoreError) in
            _ = try store.manifest(); return []
        }
        collect { () throws(StoreError) in
            _ = try store.settings(); return []
        }
        collect { () throws(StoreError) in
            _ = try store.queueDocument(); return []
        }
        collect { () throws(StoreError) in
            _ = try StoreMigrator(store: store).plan(); return []
        }
        return errors
    }

    /// The error (or each error it aggregates) names `target` and says where: a byte offset for
    /// a syntax error, a key path or a sentence for a schema error.
    func checkPositioned(_ error: any Error, target: String, input: BadInputCase) -> [String] {
        guard let error = error as? StoreError else { return ["not a StoreError: \(error)"] }
        if let aggregated = error.underlying as? StoreProblems {
            return aggregated.problems.flatMap { checkPositioned($0, target: target, input: input) }
        }
        var failures: [String] = []
        if error.path != target && !(error.code == .notAStore && input.relative == "store.json") {
            failures.append("the error names '\(error.path ?? "nothing")', not the damaged file: \(error.message)")
        }
        guard [.corruptDocument, .invalidDocument, .unsupportedVersion, .notAStore, .fileTooLarge].contains(error.code) else {
            return failures + ["unexpected error code \(error.code): \(error.message)"]
        }
        if let syntax = error.schemaError?.syntax {
            if !(0...input.bytes.count).contains(syntax.offset) { failures.append("syntax error offset \(syntax.offset) outside the file") }
            if !error.message.contains("byte \(syntax.offset)") { failures.append("the message does not give the byte offset: \(error.message)") }
        } else if input.mustBeSyntaxError {
            failures.append("expected a JSON syntax error with its position, got \(error.code): \(error.message)")
        } else if error.code != .fileTooLarge, let schema = error.schemaError, schema.keyPath == nil && schema.detail == nil && schema.expected == nil {
            failures.append("the schema error does not say where: \(error.message)")
        }
        return failures
    }
}
