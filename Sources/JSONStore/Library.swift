import Foundation

// The library's wiring: the public ways into a `Store` with the real system calls and the
// library's own `StoreMaintenance`. The store (the `StoreCore` target) never names `Restore/` or
// `Migration/` (both depend on it, and it cannot import `JSONStore`); what opening a store needs
// from them is handed to it from here.

extension StoreMaintenance {
    /// Restore recovery from `Restore/`, the §7 reconcile from `Migration/`.
    static let library = StoreMaintenance(
        finishInterruptedRestore: { (path, options, system) throws(StoreError) -> String? in
            try StoreSwap.recover(try SiblingPath(path), tool: options.tool, version: options.version, system: system)?.summary
        },
        reconcile: { (store) throws(StoreError) in
            _ = try StoreMigrator(store: store).reconcileHoldingLock()
        })
}

extension Store {
    /// Opens an existing store and classifies it (spec §4 reader rule).
    ///
    /// Opened for writing (the default), it takes the lock once to sweep temp files a crash left
    /// behind and to reconcile the queue with its mirror (spec §7). When the store's `WriteRecord`
    /// shows that nobody changed it since this library's last write, both are known to be done
    /// and are skipped: the open then costs the same whatever the size of the store. Read-only,
    /// it writes nothing at all.
    ///
    /// - Throws: `.notAStore` when there is no `store.json`; `.restoreInterrupted` read-only, when
    ///   a restore into `path` has not finished (opened for writing, it is finished first, and
    ///   `warnings` says so); `.unsupportedVersion` naming both
    ///   versions when `min_reader_version` excludes this code; `.locked`; a document error.
    public static func open(at path: String, options: Options = Options()) throws(StoreError) -> Store {
        try open(at: path, options: options, system: .real)
    }

    static func open(at path: String, options: Options, system: SystemCalls) throws(StoreError) -> Store {
        try open(at: path, options: options, system: system, maintenance: .library)
    }

    /// Creates a new, empty v2 store: `store.json`, `settings.json` with the defaults, empty
    /// `queue.json`, and the two document folders (0700; files 0600).
    ///
    /// - Throws: `.alreadyExists` when the folder already holds a `store.json`.
    public static func create(at path: String, options: Options = Options(), now: Date = Date()) throws(StoreError) -> Store {
        try create(at: path, options: options, now: now, system: .real)
    }

    static func create(at path: String, options: Options, now: Date, system: SystemCalls) throws(StoreError) -> Store {
        try create(at: path, options: options, now: now, system: system, maintenance: .library)
    }

    /// A store value over `path` as it is, without opening it (no recovery, sweep or reconcile).
    convenience init(path: String, options: Options, compatibility: StoreCompatibility, warnings: [String], system: SystemCalls) {
        self.init(
            path: path, options: options, compatibility: compatibility, warnings: warnings, system: system,
            maintenance: .library)
    }
}
