import Foundation
import Testing

@testable import Schema
@testable import StoreJSON

/// Reusing a work stream's message bytes on the next read and write (`EncodedMessages`): the
/// document read and the bytes written must be exactly those of a full decode and encode.
@Suite struct EncodedMessagesTests {
    static let id = Fixtures.id
    /// No known messages, for a read of a v1 or v2 document.
    static let noneKnown: EncodedMessages<MessageV1>? = nil

    /// A v2 document in canonical form with `count` messages.
    static func canonical(messages count: Int, unreadCount: Int32 = 0) -> [UInt8] {
        WorkStreamV2(fields: fields(messages: count, unreadCount: unreadCount), providerSessionID: id.lowercased, provider: "claude").encoded
    }

    static func fields(messages count: Int, unreadCount: Int32 = 0) -> WorkStreamFieldsV1 {
        let messages = (0..<count).map { i in
            MessageV1(
                id: UUID(uuidString: String(format: "11111111-2222-4333-8444-%012d", i))!, sessionID: id,
                role: i % 2 == 0 ? "user" : "assistant", text: "message \(i) \u{e9}\"\n",
                timestamp: Fixtures.t0.addingTimeInterval(Double(i)), serverTimestamp: nil, status: "confirmed")
        }
        return WorkStreamFieldsV1(
            WorkStreamKeys(
                id: id, backendName: "Fix login", workingDirectory: "/Users/ana/app",
                lastModified: Fixtures.t0, unreadCount: unreadCount), messages: messages)
    }

    /// Decodes, then encodes unchanged: the messages to keep for the next read.
    static func remembered(_ bytes: [UInt8]) throws -> EncodedMessages<MessageV1>? {
        let read = try WorkStreamDocument.decode(bytes, reusing: Self.noneKnown)
        guard case .v2(let session) = read.document else { Issue.record("not v2"); return nil }
        return session.encoded(after: read).messages
    }

    // MARK: The parser's watch on one root member

    @Test func watchedParseGivesTheSameValueAndTheRangeOfTheRootMember() throws {
        let cases: [(String, String?)] = [
            (#"{"a": 1, "messages": [1, {"b": []}], "z": null}"#, #"[1, {"b": []}]"#),
            (#"{"messages":[]}"#, "[]"),
            (#"{"messages" :  "x"  , "n": {"messages": [2]}}"#, #""x""#),
            (#"{"messag\u0065s": [3]}"#, "[3]"),  // an escaped spelling of the key
            (#"{"n": {"messages": [2]}}"#, nil),  // only a nested member of that name
            (#"[{"messages": [2]}]"#, nil),  // the root is no object
            (#""messages""#, nil),
        ]
        for (text, expected) in cases {
            let bytes = Array(text.utf8)
            let watched = try JSONParser.parse(bytes, watching: "messages", known: nil, placeholder: .null)
            #expect(watched.value == (try JSONParser.parse(bytes)), "\(text)")
            #expect(watched.member.map { Fixtures.string(Array(bytes[$0])) } == expected, "\(text)")
            #expect(!watched.tookKnown)
        }
    }

    @Test func knownBytesAreSteppedOverOnlyWhereTheRootMembersValueStartsWithThem() throws {
        let known = Array(#"[1, {"b": []}]"#.utf8)
        let taken = Array(#"{"n": {"messages": [1, {"b": []}]}, "messages": [1, {"b": []}]}"#.utf8)
        let result = try JSONParser.parse(taken, watching: "messages", known: known, placeholder: .string("known"))
        #expect(result.tookKnown)
        #expect(result.value == .object(["n": .object(["messages": try JSONParser.parse(known)]), "messages": .string("known")]))
        #expect(Array(taken[result.member!]) == known)

        // One byte different, or only a prefix of the known bytes present: parsed as usual.
        for text in [
            #"{"messages": [1, {"b": [ ]}]}"#, #"{"messages": [1, {"b": [0]}]}"#, #"{"messages": [1, {"b": []"#,
            #"{"n": {"messages": [1, {"b": []}]}}"#,
        ] {
            let bytes = Array(text.utf8)
            let plain = Result { () throws(JSONSyntaxError) in try JSONParser.parse(bytes) }
            let watched = Result { () throws(JSONSyntaxError) in
                try JSONParser.parse(bytes, watching: "messages", known: known, placeholder: .string("known"))
            }
            switch (plain, watched) {
            case (.success(let a), .success(let b)): #expect(a == b.value && !b.tookKnown, "\(text)")
            case (.failure(let a), .failure(let b)): #expect(a == b, "\(text)")
            default: Issue.record("\(text): \(plain) vs \(watched)")
            }
        }
    }

    /// Bad input around known bytes gets exactly the error a plain parse gives.
    @Test func errorsAroundKnownBytesAreThoseOfAPlainParse() {
        let known = #"[1, 2]"#
        let texts = [
            #"{"messages": [1, 2] "z": 1}"#,  // missing comma after the known bytes
            #"{"messages": [1, 2]]}"#,  // a stray bracket after them
            #"{"messages": [1, 2], "messages": [1, 2]}"#,  // duplicate key, known value both times
            #"{"a": 1, "a": 2, "messages": [1, 2]}"#,  // duplicate before them
            #"{"messages": [1, 2]} x"#,  // trailing data
            #"{"messages": [1, 2], }"#,  // trailing comma
            #"{"messages": [1, 2], "t": "\ud800"}"#,  // lone surrogate after them
        ]
        for text in texts {
            let bytes = Array(text.utf8)
            var plain: JSONSyntaxError?, watched: JSONSyntaxError?
            do { _ = try JSONParser.parse(bytes) } catch { plain = error }
            do { _ = try JSONParser.parse(bytes, watching: "messages", known: Array(known.utf8), placeholder: .null) } catch { watched = error }
            #expect(plain != nil, "\(text) should be rejected")
            #expect(plain == watched, "\(text)")
        }
    }

    // MARK: Decoding and encoding with the messages kept

    @Test func messagesReadFromCanonicalBytesAreRememberedWithThoseBytes() throws {
        let bytes = Self.canonical(messages: 3)
        let read = try WorkStreamDocument.decode(bytes, reusing: Self.noneKnown)
        #expect(read.document == (try WorkStreamDocument(bytes: bytes)))
        guard case .v2(let session) = read.document else { Issue.record("not v2"); return }
        let (written, messages) = session.encoded(after: read)
        #expect(written == bytes)
        let kept = try #require(messages)
        #expect(kept.messages == session.fields.messages)
        #expect(Array(bytes[read.messagesRange!]) == kept.bytes)
        #expect(Fixtures.string(kept.bytes).hasPrefix("[\n    {\n      \"id\": \"11111111-2222-4333-8444-000000000000\""))
        #expect(Fixtures.string(kept.bytes).hasSuffix("\n    }\n  ]"))
    }

    @Test func aReadOfTheSameMessageBytesTakesThemAsKnownAndDecodesTheSameDocument() throws {
        let kept = try #require(try Self.remembered(Self.canonical(messages: 4)))
        let next = Self.canonical(messages: 4, unreadCount: 7)  // another top-level value, same messages
        let read = try WorkStreamDocument.decode(next, reusing: kept)
        #expect(read.reused != nil)
        #expect(read.document == (try WorkStreamDocument(bytes: next)))
        guard case .v2(var session) = read.document else { Issue.record("not v2"); return }
        #expect(EncodedMessages.sameStorage(session.fields.messages, kept.messages))

        session.fields.unreadCount = 8
        let (written, messages) = session.encoded(after: read)
        #expect(written == session.encoded)
        #expect(written == Self.canonical(messages: 4, unreadCount: 8))
        #expect(messages.map { EncodedMessages.sameStorage($0.messages, kept.messages) } == true)
    }

    @Test func messageBytesThatDifferAreParsedAndDecoded() throws {
        let kept = try #require(try Self.remembered(Self.canonical(messages: 4)))
        // Another writer changed one message's text, or left a message out.
        var changed = WorkStreamV2(fields: Self.fields(messages: 4), providerSessionID: Self.id.lowercased, provider: "claude")
        changed.fields.messages[2].text = "edited elsewhere"
        for bytes in [changed.encoded, Self.canonical(messages: 3)] {
            let read = try WorkStreamDocument.decode(bytes, reusing: kept)
            #expect(read.reused == nil)
            #expect(read.document == (try WorkStreamDocument(bytes: bytes)))
        }
    }

    /// Messages whose bytes are not what the writer writes for them (other formatting, a date
    /// without milliseconds, a date with more digits than milliseconds) are not remembered: the
    /// next read parses them.
    @Test func messagesFromNonCanonicalBytesAreNotRemembered() throws {
        let message = Fixtures.message()
        let sources = [
            Fixtures.minimalSession(#""messages": [\#(message)]"#, version: 2) + "\n",
            Fixtures.minimalSession(#""messages": [\#(message.replacingOccurrences(of: ".000Z", with: "Z"))]"#, version: 2),
            Fixtures.minimalSession(#""messages": [\#(message.replacingOccurrences(of: ".000Z", with: ".0004Z"))]"#, version: 2),
        ].map { $0.replacingOccurrences(of: #""schema_version": 2,"#, with: #""schema_version": 2, "provider": "claude", "provider_session_id": "p","#) }
        for text in sources {
            let bytes = Array(text.utf8)
            let read = try WorkStreamDocument.decode(bytes, reusing: Self.noneKnown)
            guard case .v2(let session) = read.document else { Issue.record("not v2: \(text)"); continue }
            let (written, messages) = session.encoded(after: read)
            #expect(written == session.encoded)
            #expect(messages == nil, "\(text)")
        }
    }

    /// Message bytes of the same length as the canonical ones, decoding to the same messages,
    /// but with two keys out of order: compared, found different, not remembered.
    @Test func messagesWithTheCanonicalLengthButOtherBytesAreNotRemembered() throws {
        var lines = Fixtures.string(Self.canonical(messages: 2)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let role = try #require(lines.firstIndex { $0.hasPrefix("      \"role\":") })
        let session = try #require(lines.firstIndex { $0.hasPrefix("      \"session_id\":") })
        lines.swapAt(role, session)
        let bytes = Array(lines.joined(separator: "\n").utf8)
        #expect(bytes.count == Self.canonical(messages: 2).count)
        let read = try WorkStreamDocument.decode(bytes, reusing: Self.noneKnown)
        #expect(read.document == (try WorkStreamDocument(bytes: Self.canonical(messages: 2))))
        guard case .v2(let decoded) = read.document else { Issue.record("not v2"); return }
        let (written, messages) = decoded.encoded(after: read)
        #expect(written == Self.canonical(messages: 2))
        #expect(messages == nil)
    }

    // MARK: Messages appended after known ones

    /// The decoded document of `bytes` taken with `kept`, as a v2 session.
    static func session(_ bytes: [UInt8], _ kept: EncodedMessages<MessageV1>?) throws -> (DecodedWorkStreamDocument<MessageV1>, WorkStreamV2) {
        let read = try WorkStreamDocument.decode(bytes, reusing: kept)
        guard case .v2(let session) = read.document else { throw SchemaError(code: .wrongType, keyPath: nil, detail: "not v2") }
        return (read, session)
    }

    @Test func messagesAppendedAfterKnownOnesAreWrittenAfterTheirBytesAndKept() throws {
        let kept = try #require(try Self.remembered(Self.canonical(messages: 3)))
        var (read, session) = try Self.session(Self.canonical(messages: 3), kept)
        #expect(read.reused != nil)
        let appended = Self.fields(messages: 5).messages[3...]
        session.fields.messages += appended
        let (written, messages) = session.encoded(after: read)
        #expect(written == session.encoded)
        let next = try #require(messages)
        #expect(next.messages == session.fields.messages && next.bytes.count > kept.bytes.count)
        #expect(next.bytes.starts(with: kept.bytes.dropLast(4)))
        let again = try WorkStreamDocument.decode(written, reusing: next)
        let full = try WorkStreamDocument(bytes: written)
        #expect(again.reused != nil && again.document == full)
    }

    /// A message whose date has more precision than the file keeps (milliseconds) decodes to
    /// another date: the bytes are right, but the messages are not kept.
    @Test func anAppendedMessageThatDoesNotReadBackTheSameIsWrittenButNotKept() throws {
        let kept = try #require(try Self.remembered(Self.canonical(messages: 2)))
        var (read, session) = try Self.session(Self.canonical(messages: 2), kept)
        var message = Self.fields(messages: 3).messages[2]
        message.timestamp = message.timestamp.addingTimeInterval(0.0004)
        session.fields.messages.append(message)
        let (written, messages) = session.encoded(after: read)
        #expect(written == session.encoded)
        #expect(messages == nil)
    }

    /// An earlier message changed (to a string `==` to the old one) and one appended: no
    /// known bytes are copied, the new scalars are written.
    @Test func aChangedEarlierMessagePlusAnAppendedOneIsEncodedInFull() throws {
        var fields = Self.fields(messages: 2)
        fields.messages[0].text = "caf\u{e9}"
        let bytes = WorkStreamV2(fields: fields, providerSessionID: Self.id.lowercased, provider: "claude").encoded
        let kept = try #require(try Self.remembered(bytes))
        var (read, session) = try Self.session(bytes, kept)
        session.fields.messages[0].text = "cafe\u{301}"
        session.fields.messages.append(Self.fields(messages: 3).messages[2])
        #expect(!kept.isPrefix(of: session.fields.messages))
        let (written, _) = session.encoded(after: read)
        #expect(written == session.encoded)
        #expect(Fixtures.string(written).contains("cafe\u{301}"))
    }

    /// A changed message is encoded, not copied, even when the change compares equal: Swift
    /// compares strings by canonical equivalence, but the file must hold the new scalars.
    @Test func messagesChangedAfterTheReadAreEncodedEvenWhenTheyCompareEqual() throws {
        var fields = Self.fields(messages: 2)
        fields.messages[1].text = "caf\u{e9}"  // precomposed
        let bytes = WorkStreamV2(fields: fields, providerSessionID: Self.id.lowercased, provider: "claude").encoded
        let kept = try #require(try Self.remembered(bytes))
        let read = try WorkStreamDocument.decode(bytes, reusing: kept)
        guard case .v2(var session) = read.document else { Issue.record("not v2"); return }
        session.fields.messages[1].text = "cafe\u{301}"  // decomposed: == to the old text
        #expect(session.fields.messages == kept.messages)
        let (written, messages) = session.encoded(after: read)
        #expect(written == session.encoded)
        #expect(Fixtures.string(written).contains("cafe\u{301}"))
        #expect(messages == nil)
    }

    /// A v1 document whose messages need their `session_id` fixed by the migration: the fixed
    /// messages are written, and not remembered as the bytes read.
    @Test func messagesTheMigrationChangesAreEncoded() throws {
        let text = Fixtures.minimalSession(#""messages": [\#(Fixtures.message(sessionID: Fixtures.otherID))]"#)
        let read = try WorkStreamDocument.decode(Array(text.utf8), reusing: Self.noneKnown)
        guard case .v1(let v1) = read.document else { Issue.record("not a v1 document"); return }
        let session = try WorkStreamMigration.migrate(v1).0
        let (written, messages) = session.encoded(after: read)
        #expect(written == session.encoded)
        #expect(session.fields.messages[0].sessionID == Fixtures.id)
        #expect(messages == nil)
    }

    // MARK: v3 messages

    /// The work stream of ``fields(messages:unreadCount:)`` at v3, message `i` with `seq` i + 1.
    static func v3(messages count: Int) -> WorkStreamV3 {
        let fields = Self.fields(messages: count)
        let messages = fields.messages.enumerated().map { i, m in
            MessageV3(
                id: m.id, sessionID: m.sessionID, role: m.role, text: m.text, timestamp: m.timestamp,
                serverTimestamp: m.serverTimestamp, status: m.status, seq: Int64(i + 1), offset: Int64(100 * i))
        }
        return WorkStreamV3(fields: WorkStreamFieldsV3(fields.keys, messages: messages), providerSessionID: id.lowercased, provider: "claude")
    }

    @Test func v3MessagesAreRememberedAndTakenAsKnownOnTheNextRead() throws {
        let bytes = Self.v3(messages: 3).encoded
        let read = try WorkStreamDocument.decode(bytes, reusing: EncodedMessages<MessageV3>?.none)
        guard case .v3(var session) = read.document else { Issue.record("not v3"); return }
        let (written, messages) = session.encoded(after: read)
        #expect(written == bytes)
        let kept = try #require(messages)
        #expect(Fixtures.string(kept.bytes).contains("\"seq\": 3"))
        let again = try WorkStreamDocument.decode(bytes, reusing: kept)
        #expect(again.reused != nil && again.document == read.document)
        session.fields.unreadCount = 4
        session.fields.messages.append(Self.v3(messages: 4).fields.messages[3])
        let (appended, next) = session.encoded(after: again)
        #expect(appended == session.encoded)
        #expect(next?.messages == session.fields.messages)
    }

    /// An older (v2) writer that rewrote a v3 document leaves its messages' bytes as they were
    /// (`seq` and `offset` are unknown keys to it, kept), but the document is v2 now: its
    /// messages are v2 messages, so the v3 messages known for those bytes are not taken.
    @Test func knownV3MessagesAreNotTakenForTheSameBytesInADocumentAnOlderWriterRewrote() throws {
        let bytes = Self.v3(messages: 2).encoded
        let first = try WorkStreamDocument.decode(bytes, reusing: EncodedMessages<MessageV3>?.none)
        guard case .v3(let session) = first.document else { Issue.record("not v3"); return }
        let kept = try #require(session.encoded(after: first).messages)
        var older = try WorkStreamV2(bytes: bytes, acceptingNewerVersions: true)
        older.schemaVersion = 2
        older.fields.unreadCount = 1
        let rewritten = older.encoded
        let read = try WorkStreamDocument.decode(rewritten, reusing: kept)
        #expect(Array(rewritten[try #require(read.messagesRange)]) == kept.bytes, "the same message bytes")
        #expect(read.reused == nil)
        #expect(read.document == (try WorkStreamDocument(bytes: rewritten)))
        guard case .v2(let v2) = read.document else { Issue.record("not v2"); return }
        #expect(v2.fields.messages.map { $0.unknown["seq"] } == [.number(JSONNumber(1)), .number(JSONNumber(2))])
    }

    /// Random models (fixed seed): the first read remembers the messages, a second read of the
    /// file written (with another change at the top level, or to the messages, or none) takes
    /// them as known or not, and the documents and bytes always equal a full decode and encode.
    @Test func randomDocumentsReadAndWrittenWithKeptMessagesEqualAFullDecodeAndEncode() throws {
        var random = RandomModels(seed: 20_261_121)
        var reusedCount = 0, keptCount = 0
        for round in 0..<300 {
            var fields = random.fields()
            fields.messageCount &= .max  // what the reader accepts: not negative
            fields.unreadCount &= .max
            var session = WorkStreamV2(
                fields: fields, providerSessionID: random.text(), provider: random.text(),
                unknown: random.unknownMembers())
            let first = session.encoded
            let kept = try Self.remembered(first)
            #expect(kept != nil, "round \(round): canonical bytes are remembered")

            switch random.below(3) {
            case 0: session.fields.preview = random.text()
            case 1: session.fields.messages.append(random.message())
            default: if !session.fields.messages.isEmpty { session.fields.messages[0].text = random.text() }
            }
            let second = session.encoded
            let read = try WorkStreamDocument.decode(second, reusing: kept)
            #expect(read.document == (try WorkStreamDocument(bytes: second)), "round \(round)")
            if read.reused != nil { reusedCount += 1 }
            guard case .v2(var again) = read.document else { Issue.record("round \(round): not v2"); continue }
            again.fields.unreadCount = random.int32() & .max
            if random.flip() { again.fields.messages.append(random.message()) }
            let (written, messages) = again.encoded(after: read)
            #expect(written == again.encoded, "round \(round)")
            if let messages {
                keptCount += 1
                #expect(Array(written[try #require(WorkStreamDocument.decode(written, reusing: Self.noneKnown).messagesRange)]) == messages.bytes)
                #expect(messages.messages == again.fields.messages)
                // What the next read takes as known is what a full decode gives.
                let next = try WorkStreamDocument.decode(written, reusing: messages)
                let full = try WorkStreamDocument(bytes: written)
                #expect(next.reused != nil && next.document == full, "round \(round)")
            }
        }
        #expect(reusedCount > 50, "the known bytes were taken in \(reusedCount) of 300 rounds")
        #expect(keptCount > 100, "messages were kept after \(keptCount) of 300 rounds")
    }
}
