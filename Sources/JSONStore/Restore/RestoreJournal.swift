import Foundation
import StoreJSON

/// `<parent>/.<target>.restore-journal`: written durably before a restore or import changes
/// anything at the target, removed when the swap is complete. It names the staging folder that
/// holds the complete new store and, if the old target is moved aside, the aside name, so that a
/// run killed between the renames can be finished by the next one (`StoreSwap.recover`).
///
/// ```json
/// {"aside":"store.replaced-20251120T090000Z","format":"work-stream-store-restore-journal",
///  "format_version":1,"staging":".store.restoring-0123456789abcdef","started_at":"...","target":"store"}
/// ```
///
/// Every name is a single path component in the target's parent, and is checked against the
/// patterns this code creates before anything is renamed, so a damaged or planted journal can
/// never make recovery rename an arbitrary folder.
struct RestoreJournal: Sendable, Equatable {
    static let format = "work-stream-store-restore-journal"

    /// The target folder's name.
    var target: String
    /// The staging folder's name: `.<target>.restoring-<16 hex>`.
    var staging: String
    /// Where the old target goes: `<target>.replaced-<timestamp>`; nil when there was no old
    /// target to keep (absent, or an empty folder that the rename replaces).
    var aside: String?
    var startedAt: String

    /// The journal's file name for `target` (defined with `InterruptedRestore`, in `StoreCore`:
    /// a read of the store checks for the journal).
    static func fileName(for target: SiblingPath) -> String { InterruptedRestore.journalFileName(for: target) }

    var encoded: [UInt8] {
        JSONWriter.document(
            .object([
                "format": .string(Self.format), "format_version": .number(JSONNumber(1)), "target": .string(target),
                "staging": .string(staging), "aside": aside.map(JSONValue.string) ?? .null, "started_at": .string(startedAt),
            ]))
    }

    /// Reads and checks a journal of `target`.
    ///
    /// - Throws: `StoreError` `.conflict` for a journal that does not parse or names folders this
    ///   code would not have created; recovery then stops and asks for a person.
    init(bytes: [UInt8], for target: SiblingPath, path: String) throws(StoreError) {
        func refuse(_ why: String) -> StoreError {
            StoreError(
                .conflict,
                "Can't finish the interrupted restore into '\(target.path)': its journal '\(path)' \(why). "
                    + "Nothing was changed; inspect the folders next to '\(target.path)' and remove the journal by hand.",
                path: path)
        }
        guard case .object(let object)? = try? JSONParser.parse(bytes),
            case .string(Self.format)? = object["format"],
            case .string(let name)? = object["target"], case .string(let staging)? = object["staging"],
            case .string(let started)? = object["started_at"]
        else { throw refuse("does not read") }
        guard name == target.name,
            staging.hasPrefix(StagingDirectory.prefix(for: target, purpose: "restoring")), !staging.contains("/")
        else {
            throw refuse("names folders this tool does not create")
        }
        var aside: String?
        if case .string(let value)? = object["aside"] {
            guard value.hasPrefix("\(target.name).replaced-"), !value.contains("/") else {
                throw refuse("names folders this tool does not create")
            }
            aside = value
        }
        self.init(target: name, staging: staging, aside: aside, startedAt: started)
    }

    /// The staging folder a restore journal of `target` still needs: never removed as stale,
    /// because recovery renames it into place. Empty when there is no journal; nil when a journal
    /// exists but cannot be read, and then no staging folder may be removed (fail safe).
    static func stagingInJournal(of target: SiblingPath, system: SystemCalls) -> Set<String>? {
        let path = target.sibling(RestoreJournal.fileName(for: target))
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, system: system) } catch  where error.code == .notFound { return [] } catch { return nil }
        guard let journal = try? RestoreJournal(bytes: bytes, for: target, path: path) else { return nil }
        return [journal.staging]
    }

    init(target: String, staging: String, aside: String?, startedAt: String) {
        self.target = target
        self.staging = staging
        self.aside = aside
        self.startedAt = startedAt
    }
}
