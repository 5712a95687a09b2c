import Foundation
import Testing
@testable import JSONStore
import Schema

/// One test per defect the reliability suites found, at the library level (the suites that found
/// them run the built tool too; see RELIABILITY.md, "Defects found").
@Suite struct RegressionTests {
    /// Defect 1: a store whose `sessions/` was a symbolic link was read through the link (its
    /// documents listed and migrated) and written through it (temp files, documents).
    @Test func linkedSessionsFolderIsRefusedBeforeAnythingIsListedOrWritten() throws {
        let model = ModelFileSystem()
        let system = SystemCalls(calls: model)
        _ = try Store.create(at: "/store", options: PowerLossWorkloads.options, now: PowerLossWorkloads.t0, system: system)
        // The model has no links: a seam that reports one where `sessions` is, and counts what follows.
        let linked = LinkedFolderCalls(model, linkedPath: "/store/sessions")
        for options in [PowerLossWorkloads.options, Store.Options(readOnly: true)] {
            let error = #expect(throws: StoreError.self) { _ = try Store.open(at: "/store", options: options, system: SystemCalls(calls: linked)) }
            #expect(error?.code == .symlinkRefused)
            #expect(error?.path == "/store/sessions")
            #expect(error?.message == "Can't open '/store': '/store/sessions' is a symbolic link, which the store never follows. "
                    + "Replace the link with the folder it points to.")
        }
        #expect(linked.listedOrWrittenBelowLink == [])
    }

    /// Defect 2: `verify` said "Verified" for a store whose settings.json can't be read.
    @Test func verifyReportsAnUnreadableSettingsFile() throws {
        let scratch = Scratch()
        let store = try scratch.copy(Samples.v2Store, as: "store")
        try Data("{\"schema_version\": 2,".utf8).write(to: URL(fileURLWithPath: store + "/settings.json"))
        let result = try StoreVerifier(store: try Store.open(at: store, options: .readOnly)).verify()
        #expect(!result.passed)
        #expect(result.unreadable.map(\.path) == [store + "/settings.json"])
        #expect(result.unreadable.first?.code == .corruptDocument)
    }
}

/// Reports a symbolic link at `linkedPath` to `lstat`, and records every call that would list or
/// write below it.
final class LinkedFolderCalls: ForwardingCalls, @unchecked Sendable {
    let linkedPath: String
    private let lock = NSLock()
    private var touched: [String] = []

    init(_ base: ModelFileSystem, linkedPath: String) {
        self.linkedPath = linkedPath
        super.init(base)
    }

    var listedOrWrittenBelowLink: [String] { lock.lock(); defer { lock.unlock() }; return touched }

    private func note(_ call: String, _ path: String) {
        guard path == linkedPath || path.hasPrefix(linkedPath + "/") else { return }
        lock.lock(); touched.append("\(call) \(path)"); lock.unlock()
    }

    override func system_lstat(_ path: String) throws(Errno) -> FileStatus {
        var status = try base.system_lstat(path)
        if path == linkedPath { status.mode = 0o120777 }
        return status
    }
    override func system_readdir(_ path: String) throws(Errno) -> [DirectoryEntry] { note("readdir", path); return try base.system_readdir(path) }
    override func system_open(_ path: String, _ flags: Int32, _ mode: mode_t) throws(Errno) -> Int32 {
        note("open", path); return try base.system_open(path, flags, mode)
    }
    override func system_rename(_ from: String, _ to: String) throws(Errno) { note("rename", to); try base.system_rename(from, to) }
    override func system_unlink(_ path: String) throws(Errno) { note("unlink", path); try base.system_unlink(path) }
}
