// The store: `Store` (its reads, writes and queue), the lock, the write record and observation.
// It sits on StoreFiles (system calls, file commits) and Schema (the documents, the layout) and
// re-exports both, whose types its API is made of. It never imports JSONStore: what opening a
// store runs from above (restore recovery, the §7 reconcile) is handed to it as a
// `StoreMaintenance`, which JSONStore's `Library.swift` fills in.
@_exported import Schema
@_exported import StoreFiles
