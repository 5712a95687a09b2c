import Foundation
import StoreJSON

/// A user customisation of a work stream (`user-sessions/<id>.json`, spec §3). Frozen.
///
/// Its keys are unchanged in v2; only `schema_version` is 2 when v2 code writes it, so the same
/// type reads both versions. The work stream it customises may not exist (yet).
public struct CustomisationV1: Sendable, Hashable {
    public var schemaVersion: Int
    /// Same id as the work stream it customises.
    public var id: UUID
    /// The user-chosen display name. The default is nil.
    public var customName: String?
    /// The user hid this work stream. The default is `false`.
    public var isUserDeleted: Bool
    public var createdAt: Date
    public var unknown: JSONObject

    public init(
        id: UUID, createdAt: Date, customName: String? = nil, isUserDeleted: Bool = false,
        unknown: JSONObject = [:], schemaVersion: Int = DocumentVersion.current
    ) {
        self.id = id; self.createdAt = createdAt; self.customName = customName
        self.isUserDeleted = isUserDeleted; self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    /// Decodes schema_version 1 or 2 (or newer, when accepted).
    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "")
        schemaVersion = try DocumentVersion.read(&r, supported: 1...DocumentVersion.newest, acceptingNewer: acceptingNewerVersions, kind: "user customisation")
        id = try r.uuid("id")
        customName = try r.optionalString("custom_name")
        isUserDeleted = try r.bool("is_user_deleted", default: false)
        createdAt = try r.date("created_at")
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
        return w.value
    }

    public var encoded: [UInt8] { JSONWriter.document(json) }
}

/// User settings (`settings.json`, spec §3). Frozen; keys unchanged in v2.
/// A store may lack the file; then `SettingsV1.defaults` hold.
public struct SettingsV1: Sendable, Hashable {
    public var schemaVersion: Int
    /// The default is `false`.
    public var queueEnabled: Bool
    /// The default is `false`.
    public var priorityQueueEnabled: Bool
    public var unknown: JSONObject

    public init(
        queueEnabled: Bool = false, priorityQueueEnabled: Bool = false, unknown: JSONObject = [:],
        schemaVersion: Int = DocumentVersion.current
    ) {
        self.queueEnabled = queueEnabled; self.priorityQueueEnabled = priorityQueueEnabled
        self.unknown = unknown; self.schemaVersion = schemaVersion
    }

    /// What holds when the file is absent.
    public static let defaults = SettingsV1()

    package init(json: JSONValue, acceptingNewerVersions: Bool = false) throws(SchemaError) {
        var r = try ObjectReader(json, path: "")
        schemaVersion = try DocumentVersion.read(&r, supported: 1...DocumentVersion.newest, acceptingNewer: acceptingNewerVersions, kind: "settings")
        queueEnabled = try r.bool("queue_enabled", default: false)
        priorityQueueEnabled = try r.bool("priority_queue_enabled", default: false)
        unknown = r.unknownKeys()
    }

    public init(bytes: [UInt8], acceptingNewerVersions: Bool = false) throws(SchemaError) {
        try self.init(json: try DocumentVersion.parse(bytes), acceptingNewerVersions: acceptingNewerVersions)
    }

    package var json: JSONValue {
        var w = ObjectWriter(unknown: unknown)
        w.set("schema_version", schemaVersion)
        w.set("queue_enabled", queueEnabled)
        w.set("priority_queue_enabled", priorityQueueEnabled)
        return w.value
    }

    public var encoded: [UInt8] { JSONWriter.document(json) }
}
