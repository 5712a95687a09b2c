/// Every document a scan could not read; the `underlying` of an aggregated `StoreError`.
public struct StoreProblems: Error, Sendable {
    public var problems: [StoreError]
}

extension StoreError {
    /// One error for several unreadable documents, listing each.
    static func unreadable(_ problems: [StoreError], store: String, action: String) -> StoreError {
        let list = problems.prefix(20).map { "  - \($0.message)" }.joined(separator: "\n")
        let more = problems.count > 20 ? "\n  … and \(problems.count - 20) more" : ""
        let code = problems.first?.code ?? .invalidDocument
        let fix = "Fix them (see 'migrate-store validate') and run again."
        return StoreError(code, "Can't \(action) '\(store)': \(problems.count) document\(problems.count == 1 ? "" : "s") can't be read; nothing was changed.\n\(list)\(more)\n\(fix)",
                          path: store, underlying: StoreProblems(problems: problems), recovery: fix)
    }
}
