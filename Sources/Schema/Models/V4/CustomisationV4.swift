import Foundation
import StoreJSON

/// A user customisation of a work stream (`user-sessions/<id>.json`) in schema v4 (spec §11):
/// the v1 keys plus `draft`, the text typed in that work stream and not yet sent. Frozen.
///
/// It reads every version. Below v4, `draft` is not a key of the document's version: when one is
/// there (an older writer kept it as an unknown key), it stays among the unknown keys, so the
/// document is written back exactly as it was; the v3 → v4 step keeps it or, wrongly typed,
/// reports and replaces it.
public struct CustomisationV4: Sendable, Hashable {
    public static let version = 4

    public var schemaVersion: Int
    /// Same id as the work stream it customises.
    public var id: UUID
    /// The user-chosen display name. The default is nil.
    public var customName: String?
    /// The user hid this work stream. The default is `false`.
    public var isUserDeleted: Bool
    public var createdAt: Date
    /// The unsent text of the work stream (the app's `sessionDrafts[<id>]`); nil when there is
    /// none. The app drops empty drafts: use ``hasDraft`` to ask whether there is one.
    public var draft: String?
    public var unknown: JSONObject

    public init(
        id: UUID, createdAt: Date, customName: String? = nil, isUserDeleted: Bool = false, draft: String? = nil,
        unknown: JSONObject = [:], schemaVersion: Int = DocumentVersion.current
    ) {
        self.id = id; self.createdAt = createdAt; self.customName = customName
        self.isUserDeleted = isUserDeleted; self.draft = draft; self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    /// True when the work stream has unsent text (a draft that is not empty).
    public var hasDraft: Bool { !(draft ?? "").isEmpty }

    /// The keys v4 adds.
    public static let addedKeys = ["draft"]
    /// The keys v4 adds, with their defaults.
    static let defaultAddedKeys: [(key: String, value: JSONValue)] = [("draft", .null)]

    /// `draft` as this type reads it at v4: a string or null.
    static func readDraft(_ value: JSONValue) throws(SchemaError) -> String? {
        var r = try ObjectReader(.object(["draft": value]), path: "")
        return try r.optionalString("draft")
    }

    /// Decodes any version up to this code's newest (or newer, when accepted).
    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "")
        schemaVersion = try DocumentVersion.read(
            &r, supported: 1...DocumentVersion.newest, acceptingNewer: acceptingNewerVersions, kind: "user customisation")
        id = try r.uuid("id")
        customName = try r.optionalString("custom_name")
        isUserDeleted = try r.bool("is_user_deleted", default: false)
        createdAt = try r.date("created_at")
        draft = schemaVersion >= Self.version ? try r.optionalString("draft") : nil
        unknown = r.unknownKeys()
    }

    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false) throws(SchemaError) {
        try self.init(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions)
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("schema_version", schemaVersion)
        w.set("id", id)
        w.set("custom_name", customName)
        w.set("is_user_deleted", isUserDeleted)
        w.set("created_at", createdAt)
        if schemaVersion >= Self.version || draft != nil { w.set("draft", draft) }
        return w.value
    }

    public var encoded: [UInt8] { JSONWriter.document(json) }
}
