/// Reads the way out off a message shaped "Can't <verb> '<what>': <why>. <What to do>."
/// (HOUSE-STYLE §9), for `StoreError.recoverySuggestion`.
enum StoreErrorText {
    /// The sentences after the first; for a single sentence, the clause after its last "; ",
    /// capitalised and ended with a full stop; nil when there is neither. A `'` opens a quoted
    /// value after a space, a bracket or the start, and closes before a space, punctuation or the
    /// end; nothing inside a quoted value splits the text.
    static func recovery(in message: String) -> String? {
        let text = Array(message)
        var inQuote = false
        var lastClause: Int?
        for index in text.indices {
            let character = text[index]
            let before = index > 0 ? text[index - 1] : " "
            let after = index + 1 < text.count ? text[index + 1] : " "
            if character == "'" {
                if !inQuote, before.isWhitespace || "([\"".contains(before) {
                    inQuote = true
                } else if inQuote, after.isWhitespace || ".,:;)]".contains(after) {
                    inQuote = false
                }
                continue
            }
            guard !inQuote else { continue }
            if character == ".", after.isWhitespace, index + 1 < text.count {
                let rest = String(text[(index + 1)...]).trimmingWhitespace
                if let first = rest.first, first.isUppercase { return rest }
            }
            if character == ";", after == " " { lastClause = index + 2 }
        }
        guard let start = lastClause, start < text.count else { return nil }
        var clause = String(text[start...]).trimmingWhitespace
        if clause.hasSuffix(".") { clause.removeLast() }
        guard let first = clause.first else { return nil }
        return first.uppercased() + clause.dropFirst() + "."
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let characters = Array(self)
        guard let start = characters.firstIndex(where: { !$0.isWhitespace }),
            let end = characters.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(characters[start...end])
    }
}
