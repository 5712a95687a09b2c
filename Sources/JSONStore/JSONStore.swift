// What `import JSONStore` gives an app besides the store: the documents, the chain and the rules
// (Schema), and the public types of the layer below the store (StoreFiles: `StoreError`,
// `StoreProblems`, `StoreProgress`, `ArchiveProblem`, `ChangeNotification`).
@_exported import Schema
@_exported import StoreFiles
