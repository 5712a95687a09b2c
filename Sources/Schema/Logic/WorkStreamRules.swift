import Foundation
import StoreJSON

/// The work-stream / provider-session rules of spec §4, usable on v1 and v2 documents alike.
public enum WorkStreamRules {
    /// The provider assumed when a document names none.
    public static let defaultProvider = "claude"
    /// Shown when neither the customisation nor `backend_name` gives a valid name. Never a UUID.
    public static let placeholderName = "Untitled work stream"

    /// `provider_session_id` if present (a string), else the work-stream id in lowercase.
    ///
    /// A v1 document may carry `provider_session_id` as a kept unknown key (written by v2 code,
    /// then rewritten by a v1 writer); it counts as present.
    public static func effectiveProviderSessionID(_ document: WorkStreamDocument) -> String {
        switch document {
        case .v2(let s): return s.providerSessionID
        case .v3(let s): return s.providerSessionID
        case .v5(let s): return s.providerSessionID
        case .v1(let s): return unknownString(s.unknown, "provider_session_id") ?? s.fields.id.lowercased
        }
    }

    /// `provider` if present, else `"claude"`.
    public static func effectiveProvider(_ document: WorkStreamDocument) -> String {
        switch document {
        case .v2(let s): return s.provider
        case .v3(let s): return s.provider
        case .v5(let s): return s.provider
        case .v1(let s): return unknownString(s.unknown, "provider") ?? defaultProvider
        }
    }

    private static func unknownString(_ object: JSONObject, _ key: String) -> String? {
        if case .string(let s)? = object[key] { return s }
        return nil
    }

    /// True when `name` is non-empty (ignoring surrounding white space) and does not parse as a UUID in any case.
    public static func isValidDisplayName(_ name: String) -> Bool {
        let trimmed = trimmedOfWhiteSpace(name)
        return !trimmed.isEmpty && UUIDText.parse(trimmed) == nil
    }

    /// `text` as `trimmingCharacters(in: .whitespacesAndNewlines)` gives it. Text that begins and
    /// ends with a visible ASCII character (U+0021–U+007E, none of which is white space or a
    /// newline) has nothing to trim and is returned without Foundation's scan, a measurable cost
    /// of `ls --json` on a large store (two to four calls per row).
    static func trimmedOfWhiteSpace(_ text: String) -> String {
        let scalars = text.unicodeScalars
        if let first = scalars.first, let last = scalars.last, (0x21...0x7E).contains(first.value), (0x21...0x7E).contains(last.value) {
            return text
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The customisation's `custom_name` when non-empty, else `backend_name` when valid, else the placeholder.
    public static func displayName(backendName: String, customisation: Customisation?) -> String {
        if let custom = customisation?.customName, !trimmedOfWhiteSpace(custom).isEmpty {
            return custom
        }
        return isValidDisplayName(backendName) ? backendName : placeholderName
    }

    /// Where the display name comes from, for tools that explain it.
    public enum DisplayNameSource: String, Sendable {
        case customName = "custom_name"
        case backendName = "backend_name"
        case placeholder
    }

    public static func displayNameSource(backendName: String, customisation: Customisation?) -> DisplayNameSource {
        if let custom = customisation?.customName, !trimmedOfWhiteSpace(custom).isEmpty {
            return .customName
        }
        return isValidDisplayName(backendName) ? .backendName : .placeholder
    }

    /// A new work stream as current (v3) code writes it (dual write): every v1 key with its default,
    /// `backend_name` = `""` (never a UUID), `provider_session_id` = the id in lowercase,
    /// `provider` = `"claude"`, the sync cursors at their defaults (§10).
    public static func newWorkStream(
        id: UUID = UUID(), workingDirectory: String, createdAt: Date,
        provider: String = defaultProvider, isLocallyCreated: Bool = true
    ) -> WorkStreamV3 {
        let fields = WorkStreamFieldsV3(
            WorkStreamKeys(
                id: id, backendName: "", workingDirectory: workingDirectory,
                lastModified: createdAt, isLocallyCreated: isLocallyCreated))
        return WorkStreamV3(fields: fields, providerSessionID: id.lowercased, provider: provider)
    }

    /// A new work stream as v4 code writes it (spec §11): `name` = `""`, `provider_session_id` =
    /// the id in lowercase, `provider` as given, the sync cursors at their defaults, no queue keys.
    public static func newRenamedWorkStream(
        id: UUID = UUID(), workingDirectory: String, createdAt: Date,
        provider: String = defaultProvider, isLocallyCreated: Bool = true
    ) -> WorkStreamV5 {
        WorkStreamV5(
            id: id, name: "", workingDirectory: workingDirectory, lastModified: createdAt,
            isLocallyCreated: isLocallyCreated, providerSessionID: id.lowercased, provider: provider)
    }
}
