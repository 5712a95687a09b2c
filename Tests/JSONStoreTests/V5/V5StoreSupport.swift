import Foundation
import StoreGenerator
import TestSupport

/// The v5 fixture (spec §12) made from `Samples/v4-store` by `V5Fixture`, and what tests compare it with.
enum V5Store {
    static let released = UUID(uuidString: "c25e47cd-f10a-49a3-9ec4-a9355366da75")!
    static let queued = UUID(uuidString: "ec3629cb-f446-449f-b8a0-f43e156345d8")!

    /// A fresh v5 store in `dir`, named `name`.
    static func make(_ dir: TemporaryDirectory, as name: String = "v5-store") throws -> String {
        let path = dir(name)
        try V5Fixture.make(from: Samples.v4Store, to: path)
        return path
    }

    /// The text of a sample v4 work stream as v5 writes it: `backend_name` renamed `name` (in its
    /// sorted place, before `next_seq`), the seven mirror lines gone, `schema_version` 5.
    static func expectedV5Text(ofV4 text: String) -> String {
        var name = ""
        var lines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("  \"backend_name\": ") { name = String(line.dropFirst("  \"backend_name\": ".count)); continue }
            let mirror = ["is_in_queue", "queue_position", "queued_at", "is_in_priority_queue", "priority", "priority_order", "priority_queued_at"]
            if mirror.contains(where: { line.hasPrefix("  \"\($0)\": ") }) { continue }
            if line.hasPrefix("  \"next_seq\": ") { lines.append("  \"name\": " + name) }
            lines.append(line == "  \"schema_version\": 4," ? "  \"schema_version\": 5," : line)
        }
        return lines.joined(separator: "\n")
    }
}
