/// "Did you mean ...?" for mistyped commands, options and choices.
enum Suggestion {
    /// The largest edit distance that still gets a suggestion.
    static let maximumDistance = 2

    /// The candidate closest to `input` by edit distance, if it is at most
    /// ``maximumDistance`` edits away. Ties go to the earlier candidate.
    ///
    /// ```swift
    /// Suggestion.closest(to: "jsn", in: ["json", "quiet"])   // "json"
    /// ```
    static func closest(to input: String, in candidates: [String]) -> String? {
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(input, candidate)
            if distance <= maximumDistance, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// `" Did you mean '<closest>'?"` or the empty string, ready to append to a message.
    static func didYouMean(_ input: String, in candidates: [String], prefix: String = "") -> String {
        guard let match = closest(to: input, in: candidates) else { return "" }
        return " Did you mean '\(prefix)\(match)'?"
    }

    /// Levenshtein distance over Unicode scalars: insertions, deletions and substitutions cost 1.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
