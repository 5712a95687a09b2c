import Foundation
import Schema

/// The FIFO positions handed out so far. Real v1 stores number their queue 1, 2, 3, … with a
/// few faults, which §6 rule 5 repairs: a repeated position, a gap, a queued session at 0.
struct FIFOCounter {
    var last: Int32 = 0

    mutating func next(_ rng: inout SeededGenerator) -> Int32 {
        switch rng.below(100) {
        case 0..<4: return max(last, 1)  // duplicate of the previous position
        case 4..<8: last += 2; return last  // a gap
        case 8: return 0  // queued, but without a position
        default: last += 1; return last
        }
    }
}

/// One generated work-stream document and what it counts for.
struct GeneratedWorkStream {
    var json: JSONValue
    var messages: Int
    var fifoQueued: Bool
    var priorityQueued: Bool
}

extension StoreGenerator {
    func makeWorkStream(_ index: Int, fifo: inout FIFOCounter) -> GeneratedWorkStream {
        var rng = SeededGenerator(seed: seed, stream: UInt64(index), salt: Salt.session)
        let id = workStreamID(index)
        let start = date(&rng, withinDays: 300)
        let locallyCreated = rng.chance(0.04)
        let messages = makeMessages(index: index, id: id, start: start, locallyCreated: locallyCreated, &rng)
        let lastModified = messages.last?.timestamp ?? start

        var fields = WorkStreamFieldsV1(
            WorkStreamKeys(
                id: id, backendName: backendName(id, &rng), workingDirectory: rng.pick(Self.directories),
                lastModified: lastModified, isLocallyCreated: locallyCreated,
                messageCount: Int32(messages.count + rng.below(41)),
                preview: preview(messages.last?.text ?? ""), unreadCount: Int32(rng.below(4))), messages: messages)
        let fifoQueued = rng.chance(0.10)
        if fifoQueued {
            fields.isInQueue = true
            fields.queuePosition = fifo.next(&rng)
            fields.queuedAt = rng.chance(0.03) ? nil : lastModified.addingTimeInterval(Double(rng.below(600_000)) / 1000)
        } else if rng.chance(0.02) {
            // Stale: a position left behind without membership (§6 rule 5: becomes 0).
            fields.queuePosition = Int32(rng.int(in: 1...max(1, Int(fifo.last))))
            fields.queuedAt = lastModified
        }
        let priorityQueued = rng.chance(0.06)
        if priorityQueued {
            fields.isInPriorityQueue = true
            fields.priority = rng.pick([1, 5, 10])
            fields.priorityOrder = rng.pick([1.0, 1.5, 2.0, 3.0, 4.0])
            fields.priorityQueuedAt = rng.chance(0.05) ? nil : lastModified.addingTimeInterval(Double(rng.below(900_000)) / 1000)
        }

        var unknown: JSONObject = [:]
        if rng.chance(0.15) { unknown["tts_speed"] = .number(JSONNumber(literal: "1.0")!) }
        if rng.chance(0.10) { unknown["draft_text"] = .string(MessageText.user(&rng)) }
        guard case .object(var object) = WorkStreamV1(fields: fields, unknown: unknown).json else {
            preconditionFailure("WorkStreamV1.json is an object")
        }
        if !priorityQueued && rng.chance(0.02) {
            object["priority_order"] = .number(JSONNumber(0))  // the v1 app wrote an integer here
        }
        if !fifoQueued && !priorityQueued && rng.chance(0.01) {
            // Only the required keys: every optional key takes its default when read (§3).
            object = object.filter { Self.requiredKeys.contains($0.key) }
            return GeneratedWorkStream(json: .object(object), messages: 0, fifoQueued: false, priorityQueued: false)
        }
        return GeneratedWorkStream(json: .object(object), messages: messages.count, fifoQueued: fifoQueued, priorityQueued: priorityQueued)
    }

    static let requiredKeys: Set<String> = ["schema_version", "id", "backend_name", "working_directory", "last_modified"]

    /// A display name, or the id in upper case (12%), or `""` (8%): the v1 inconsistency of §3.
    private func backendName(_ id: UUID, _ rng: inout SeededGenerator) -> String {
        switch rng.below(100) {
        case 0..<12: return id.uuidString.uppercased()
        case 12..<20: return ""
        default: return rng.pick(Self.titles)
        }
    }

    private func preview(_ text: String) -> String {
        text.count > 120 ? String(text.prefix(117)) + "..." : text
    }

    /// User and assistant turns alternately; about 1% of work streams have one message whose
    /// `session_id` names the next work stream (§6 rule 4).
    private func makeMessages(
        index: Int, id: UUID, start: Date, locallyCreated: Bool,
        _ rng: inout SeededGenerator
    ) -> [MessageV1] {
        let count = locallyCreated ? min(messagesPerStream, 1) : messagesPerStream
        let strayIndex = rng.chance(0.01) && workStreams > 1 ? rng.below(max(count, 1)) : -1
        var messages: [MessageV1] = []
        messages.reserveCapacity(count)
        var time = start
        for n in 0..<count {
            let isUser = n % 2 == 0
            time = time.addingTimeInterval(
                isUser
                    ? Double(rng.int(in: 30_000...172_800_000)) / 1000
                    : Double(rng.int(in: 2_000...90_000)) / 1000)
            var message = MessageV1(
                id: rng.uuid(), sessionID: id, role: isUser ? "user" : "assistant",
                text: isUser ? MessageText.user(&rng) : MessageText.assistant(&rng), timestamp: time,
                serverTimestamp: time.addingTimeInterval(Double(rng.int(in: 100...900)) / 1000))
            if rng.chance(0.01) { message.status = "error"; message.serverTimestamp = nil }
            if isUser && rng.chance(0.30) {
                message.unknown["audio_duration_ms"] = .number(JSONNumber(rng.int(in: 800...20_000)))
                message.unknown["confidence"] = .number(JSONNumber(literal: "0.\(rng.int(in: 60...99))")!)
            }
            if n == strayIndex { message.sessionID = workStreamID((index + 1) % workStreams) }
            messages.append(message)
        }
        if locallyCreated, var last = messages.popLast() {
            last.status = "sending"; last.serverTimestamp = nil
            messages.append(last)
        }
        return messages
    }

    static let titles = [
        "Fix login crash on iPad", "Add dark mode to settings screen", "Migrate networking to async/await",
        "Speed up the message list", "Offline queue for sends", "Widget: show unread count",
        "Refactor SessionStore", "Localise onboarding (fr, de)", "Crash in audio recorder",
        "Résumé PDF export", "CI: cache SwiftPM builds", "Push notification deep links",
    ]
    static let directories = [
        "/Users/maya/code/acme-ios", "/Users/maya/code/acme-server", "/Users/sam/dev/voice-client",
        "/Users/sam/dev/voice-client/Packages/Core", "/home/ana/src/backend", "/Users/léa/Projets/café-app",
    ]
}
