/// Every document a scan could not read; the `underlying` of an aggregated `StoreError`.
public struct StoreProblems: Error, Sendable {
    public var problems: [StoreError]
}

extension StoreError {
    /// One error for several unreadable documents, listing each.
    package static func unreadable(_ problems: [StoreError], store: String, action: String) -> StoreError {
        var text = Text("Can't \(action) '\(store)': \(problems.count) document\(problems.count == 1 ? "" : "s") can't be read; nothing was changed.")
        text.append("\n")
        for (index, problem) in problems.prefix(20).enumerated() {
            text.append(index == 0 ? "  - " : "\n  - ")
            text.append(problem.text)
        }
        if problems.count > 20 { text.append("\n  … and \(problems.count - 20) more") }
        let code = problems.first?.code ?? .invalidDocument
        let fix = Recovery.runCommand(
            .validate(store: nil), advice: "Fix them (validating the store lists every problem) and run again.",
            before: "Fix them (see ", after: ") and run again.")
        text.append("\n")
        text.append(fix)
        return StoreError(code, text: text, path: store, underlying: StoreProblems(problems: problems), recovery: fix)
    }
}
