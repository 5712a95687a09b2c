import Foundation
import StoreJSON

extension MigrationChain {
    /// What ``migrateCanonicalWorkStream(_:storeVersion:to:acceptingNewerVersions:mirror:)`` gives: the
    /// document as read (its messages stand-ins, see below), its v3 bytes and the changes.
    package struct CanonicalMigration: Sendable {
        /// The document as read, with `messages` holding one stand-in per message (same count,
        /// the document's id as `session_id`): enough for its queue summary, not for its messages.
        package var document: WorkStreamDocument
        package var migrated: [UInt8]
        package var changes: [Change]
    }

    /// A v1 or v2 work stream taken to v3 or v4 (or a v1 one to v2) with its messages upgraded on their bytes
    /// (``CanonicalMessages``), when they are in the canonical form and belong to the work
    /// stream; nil otherwise, and for a document that does not read: the caller then takes the
    /// full path (`WorkStreamDocument(bytes:)`, ``migrateWorkStream(_:storeVersion:to:queue:)``,
    /// `encoded`), which reports what is wrong, or fixes and reports what needs fixing.
    ///
    /// When it applies, the result is the full path's, byte for byte and change for change:
    /// - the members other than `messages` are parsed and decoded by the same code;
    /// - each message is checked to decode (every key the reader requires, of its type and
    ///   valid) and to be written back by the writer exactly as it is;
    /// - the chain runs on the document with stand-in messages that have what its steps look at
    ///   (v1 → v2: `session_id` equal to the id, so nothing is fixed; v2 → v3: no `seq` or
    ///   `offset`, so each message counts as given its keys), so it reports the same changes;
    ///   v1 → v2 alone changes no message, and its messages are copied as they are;
    /// - the v3 bytes are written by the same encoder, with the upgraded messages copied in.
    ///
    /// Only the default layout (`sessions/`) and the targets written by the v2 or v3 type (v2, v3
    /// and v4, whose step changes no message) take this path; a v3 document (its messages already
    /// have `seq` and `offset`) takes the full path.
    ///
    /// With `mirror`, the document goes through `StoreMigration.migrateWorkStreamDocument` instead, which
    /// also applies and reports the resolved queue's mirror keys (the migration's second pass).
    package static func migrateCanonicalWorkStream(
        _ bytes: [UInt8], storeVersion: Int, to target: Int,
        acceptingNewerVersions: Bool, mirror: QueueIndex? = nil
    ) -> CanonicalMigration? {
        // The work-stream type the target is written by (v4's is v3's: `readingVersion(of:)`).
        let reading = WorkStreamDocument.readingVersion(of: target)
        guard reading == WorkStreamV2.version || reading == WorkStreamV3.version, let start = messagesValueStart(bytes) else { return nil }
        let upgraded = bytes.withUnsafeBufferPointer { buffer in
            reading == WorkStreamV3.version ? CanonicalMessages.upgradedToV3(buffer, from: start) : CanonicalMessages.checkedForV2(buffer, from: start)
        }
        guard let upgraded else { return nil }
        let known = Array(bytes[start..<upgraded.end])
        var document: WorkStreamDocument
        do {
            // The parser steps over the messages (their bytes are `known`) and parses the rest.
            let parsed = try JSONParser.parse(bytes, watching: "messages", known: known, placeholder: .array([]))
            guard parsed.tookKnown, parsed.member == start..<upgraded.end else { return nil }
            document = try WorkStreamDocument(json: parsed.value, acceptingNewerVersions: acceptingNewerVersions)
        } catch {
            return nil  // not lost: the full path parses the document again and reports this error
        }
        guard document.schemaVersion < target else { return nil }
        let id = document.fields.id
        if let sessionID = upgraded.sessionID {
            guard sessionID.elementsEqual(UUIDText.lowercase(id).utf8) else { return nil }
        }
        if upgraded.count > 0 {
            // A v1 or v2 document: the scan refuses the `seq` and `offset` of a v3 one's messages.
            let standIn = MessageV1(id: id, sessionID: id, role: "", text: "", timestamp: Date(timeIntervalSince1970: 0))
            guard MessageV1.replaceMessages(of: &document, with: Array(repeating: standIn, count: upgraded.count)) else { return nil }
        }
        let migrated: WorkStreamDocument, changes: [Change]
        do {
            if let mirror {
                (migrated, changes) = try StoreMigration.migrateWorkStreamDocument(document, storeVersion: storeVersion, target: target, index: mirror)
            } else {
                (migrated, changes) = try migrateWorkStream(document, storeVersion: storeVersion, to: target)
            }
        } catch {
            return nil  // as above: the full path reports it
        }
        let out: [UInt8]
        switch migrated {
        case .v3(let session) where reading == WorkStreamV3.version: out = session.encoded(copyingMessages: upgraded.bytes)
        case .v2(let session) where reading == WorkStreamV2.version: out = session.encoded(copyingMessages: upgraded.bytes)
        default: return nil
        }
        return CanonicalMigration(document: document, migrated: out, changes: changes)
    }

    /// Where the root's `messages` value starts (its `[`) in a document whose root members are
    /// written one per line at two spaces: after the first `\n  "messages": `. A raw newline
    /// can't be inside a string, so the match is a member line; the parse above then checks
    /// that it is the root's.
    static func messagesValueStart(_ bytes: [UInt8]) -> Int? {
        let marker: StaticString = "\n  \"messages\": ["
        let count = marker.utf8CodeUnitCount
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress, buffer.count >= count else { return nil }
            var i = 0
            while i <= buffer.count - count {
                guard let found = memchr(base + i, 0x0A, buffer.count - count + 1 - i) else { return nil }
                let at = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                if memcmp(base + at, marker.utf8Start, count) == 0 { return at + count - 1 }
                i = at + 1
            }
            return nil
        }
    }
}
