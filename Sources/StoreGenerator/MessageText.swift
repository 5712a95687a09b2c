/// Message texts that look like a voice-coding conversation: short spoken requests from the
/// user, longer assistant answers with Markdown and fenced code blocks.
///
/// Lengths follow the spec's description of real stores: user utterances of 20–200 characters,
/// assistant answers of 200–6,000 characters skewed toward the short end, about 700 bytes per
/// message on average. Texts include the characters a writer must escape (quotes, backslashes,
/// newlines, tabs) and some non-ASCII (é, —, →, ✅).
enum MessageText {
    static func user(_ rng: inout SeededGenerator) -> String {
        let target = rng.int(in: 20...200)
        var text = rng.pick(openers)
        while text.count < target {
            text += " " + rng.pick(requests)
        }
        return fit(text, to: target, minimum: 20)
    }

    /// 200 + 5,800·u⁴: mean about 1,360 characters, so with the user turns the average message
    /// is about 700 bytes.
    static func assistant(_ rng: inout SeededGenerator) -> String {
        let u = rng.unit()
        let target = 200 + Int(5_800 * u * u * u * u)
        var parts: [String] = [rng.pick(answerOpeners)]
        var length = parts[0].count
        while length < target {
            let part: String
            switch rng.below(5) {
            case 0: part = codeBlock(&rng)
            case 1: part = list(&rng)
            default: part = paragraph(&rng)
            }
            parts.append(part)
            length += part.count + 2
        }
        return fit(parts.joined(separator: "\n\n"), to: target, minimum: 200)
    }

    /// Cuts `text` to at most `target` characters (on a character boundary, so UTF-8 stays valid).
    private static func fit(_ text: String, to target: Int, minimum: Int) -> String {
        guard text.count > target else { return text }
        var cut = String(text.prefix(max(target, minimum)))
        while cut.last == " " || cut.last == "\n" { cut.removeLast() }
        while cut.count < minimum { cut += "." }
        return cut
    }

    private static func paragraph(_ rng: inout SeededGenerator) -> String {
        (0..<rng.int(in: 2...5)).map { _ in
            "\(rng.pick(subjects)) \(rng.pick(verbs)) \(rng.pick(objects))\(rng.pick(tails))"
        }.joined(separator: " ")
    }

    private static func list(_ rng: inout SeededGenerator) -> String {
        (0..<rng.int(in: 2...5)).map { _ in "- `\(rng.pick(identifiers))`: \(rng.pick(verbs)) \(rng.pick(objects))." }
            .joined(separator: "\n")
    }

    private static func codeBlock(_ rng: inout SeededGenerator) -> String {
        let name = rng.pick(identifiers)
        var lines = ["```swift", "func \(name)(_ input: String) async throws -> Result<Data, Error> {"]
        for _ in 0..<rng.int(in: 2...12) { lines.append("    " + rng.pick(codeLines)) }
        lines += ["}", "```"]
        return lines.joined(separator: "\n")
    }

    private static let openers = [
        "Okay,", "Can you", "Please", "Now", "Hmm, the build fails again.", "Also", "Next,",
        "Wait —", "Let's", "Quick one:", "Café app: ",
    ]
    private static let requests = [
        "fix the crash when I tap logout on the iPad.", "add a dark mode toggle to settings.",
        "rename the \"Theme\" row to \"Appearance\".", "run the tests and tell me what fails.",
        "move the network calls to async/await.", "why is the list scrolling so slowly?",
        "make the retry button actually retry.", "check the widget uses the same setting.",
        "put it above Notifications.", "revert that last change, it broke the login flow.",
        "use the path C:\\Users\\ana\\project for the Windows build.", "add a unit test for the parser.",
        "keep the old behaviour behind a flag.", "ship it → TestFlight when it's green ✅.",
    ]
    private static let answerOpeners = [
        "Done. Here is what changed:", "I found the cause.", "The tests pass now.",
        "Here is a first version; I kept the public API unchanged.", "Good catch — there were two problems.",
        "I looked at `SessionStore` and the crash comes from a force unwrap.",
    ]
    private static let subjects = [
        "The view model", "This change", "The retry logic", "`AppearancePreference`", "The decoder",
        "The new test", "The websocket client", "Résumé export", "The queue", "The settings screen",
    ]
    private static let verbs = [
        "now keeps", "no longer drops", "reads", "writes back", "caches", "validates", "migrates",
        "re-renders", "serialises", "retries",
    ]
    private static let objects = [
        "the user's draft", "every unknown key", "the last 50 messages", "the session id",
        "the \"appearance\" value in user defaults", "the provider session", "a tab\tseparated header",
        "the scroll position", "the priority order", "the working directory",
    ]
    private static let tails = [
        ".", " on every launch.", " before the first write.", ", so nothing changes for existing users.",
        " when the app comes back to the foreground.", " (see the snapshot tests).", " without blocking the main thread.",
    ]
    private static let identifiers = [
        "loadSessions", "reconnect", "applyAppearance", "decodeMessage", "retryFailedSend",
        "queuePosition", "migrateStore", "renderPreview", "scrollToLatest", "validateInput",
    ]
    private static let codeLines = [
        "let url = baseURL.appendingPathComponent(\"sessions\")",
        "guard !input.isEmpty else { return .failure(ValidationError.empty) }",
        "let (data, response) = try await session.data(from: url)",
        "if let http = response as? HTTPURLResponse, http.statusCode == 401 { try await refreshToken() }",
        "print(\"retrying \\(attempt) of \\(maxAttempts)\")",
        "defaults.set(preference.rawValue, forKey: \"appearance\")",
        "let pattern = #\"\\d{4}-\\d{2}-\\d{2}\"#",
        "for message in messages where message.status == .error { await resend(message) }",
        "return .success(try JSONEncoder().encode(payload))",
        "logger.debug(\"decoded \\(items.count) items in \\(elapsed) ms\")",
    ]
}
