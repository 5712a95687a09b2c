// What `import JSONStore` gives an app besides upgrade, backup, restore, export, import and
// validation: the store itself (StoreCore: `Store`, `StoreChanges`, `StoreChange`,
// `WorkStreamSummary`...), the documents, the chain and the rules (Schema), and the public types
// of the layer below the store (StoreFiles: `StoreError`, `StoreProblems`, `StoreProgress`,
// `ArchiveProblem`, `ChangeNotification`).
@_exported import Schema
@_exported import StoreCore
@_exported import StoreFiles
