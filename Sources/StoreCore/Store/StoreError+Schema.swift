extension StoreError {
    /// A document that could not be read, as a store error naming the file and the way out.
    /// The schema error stays attached as `underlying` (key path, expected, found, position).
    package static func document(_ error: SchemaError, path: String) -> StoreError {
        let code: StoreError.Code
        let fix: Recovery
        /// `advice`, then in brackets how to see every problem: validating the store.
        func listing(_ advice: String) -> Recovery {
            .runCommand(
                .validate(store: nil), advice: advice + " (validating the store lists every problem).",
                before: advice + " (", after: " lists every problem).")
        }
        switch error.code {
        case .syntax:
            code = .corruptDocument
            fix = listing("The file is not valid JSON: restore it from a backup, or fix it by hand")
        case .unsupportedVersion:
            code = .unsupportedVersion
            fix = .advice("Use a version of the tool that reads it.")
        case .notAStore:
            code = .notAStore
            fix = .advice("Point the tool at a work-stream store folder.")
        default:
            code = .invalidDocument
            fix = listing("Fix the value by hand or restore the file from a backup")
        }
        return StoreError(code, text: Text("Can't read '\(path)': \(error.reason). ", fix), path: path, underlying: error, recovery: fix)
    }

    /// The schema error behind a document error, if any.
    public var schemaError: SchemaError? { underlying as? SchemaError }
}

/// What a scan over many documents found: the documents it could read and every one it could not.
///
/// One bad document never hides the others (spec §8).
public struct ScanResult<Item: Sendable>: Sendable {
    public var items: [Item]
    /// One error per unreadable or misplaced entry, each naming its file.
    public var problems: [StoreError]

    package init(items: [Item] = [], problems: [StoreError] = []) { self.items = items; self.problems = problems }
}
