import Foundation

extension StoreMigrator {
    /// The staged work streams of a migration, packed: the only per-work-stream list a migration
    /// keeps from staging to the commit, so its size is what grows with the store (the scale goal
    /// of `Benchmarks/`: peak RSS at 50,000 work streams ≤ 1.3 × at 1,000).
    ///
    /// Each work stream is an `Entry` of 32 bytes (a `StagedWorkStream` in an array takes 104: at
    /// 50,000 that is over half the migration's heap peak). What most work streams share is not
    /// stored in it:
    /// - queue keys at their defaults (spec §3; not queued, about 80 % of a store) are a flag; other
    ///   keys are in `otherKeys`, which the entry indexes;
    /// - the changes are kept only for the work streams whose changes were not added to the report's
    ///   totals when staged (the report keeps documents, or the mirror found them), in `changes`;
    /// - a `schema_version` that does not fit in 16 bits (a newer store that admits older code) is in `otherVersions`.
    ///
    /// Positions are indices into the list, in staging order (id order).
    struct StagedList: Sendable {
        /// One staged work stream.
        struct Entry: Sendable {
            var id: UUID
            /// The token of the temp file, `.tmp-<token>-<id>.json` in `sessions/`, when `hasTemporary`
            /// (0 when the list stages into the exchange folder: the file is `<id>.json` there).
            var token: UInt64 = 0
            /// The index of its queue keys in `otherKeys`, or `defaultKeys` (`QueueKeys.defaults`).
            var keys: Int32 = Entry.defaultKeys
            /// Its `schema_version` as read, or `Entry.largeVersion` when that is in `otherVersions`.
            var version: UInt16 = 0
            var flags: Flags = []

            static let defaultKeys: Int32 = -1
            static let largeVersion = UInt16.max

            struct Flags: OptionSet, Sendable {
                let rawValue: UInt8
                /// It has a temp file (`token`).
                static let hasTemporary = Flags(rawValue: 1 << 0)
                /// Its staged changes were added to the report's totals (`StagedWorkStream.counted`).
                static let counted = Flags(rawValue: 1 << 1)
            }
        }

        private(set) var entries: [Entry] = []
        /// True when the staged files are `<id>.json` in the folder to be exchanged with
        /// `sessions/` (`StoreMigrator.exchangeFolder`), not temp files beside the documents.
        let stagesInExchangeFolder: Bool
        /// The queue keys that are not `QueueKeys.defaults`, indexed by `Entry.keys`.
        private var otherKeys: [QueueKeys] = []
        /// Position → `schema_version`, for those `Entry.version` cannot hold.
        private var otherVersions: [Int: Int] = [:]
        /// Position → changes not yet reported (never an empty list).
        private var changes: [Int: [Change]] = [:]

        init(capacity: Int = 0, stagesInExchangeFolder: Bool = false) {
            self.stagesInExchangeFolder = stagesInExchangeFolder
            entries.reserveCapacity(capacity)  // no doubling slack in the list kept until the commit
        }

        var count: Int { entries.count }
        var isEmpty: Bool { entries.isEmpty }
        var indices: Range<Int> { entries.indices }

        mutating func append(_ session: StagedWorkStream) {
            let position = entries.count
            var entry = Entry(id: session.id)
            if let token = session.temporary {
                entry.token = token
                entry.flags.insert(.hasTemporary)
            }
            if session.counted { entry.flags.insert(.counted) }
            if session.keys != QueueKeys.defaults {
                precondition(otherKeys.count < Int(Int32.max), "StagedList: too many work streams")
                entry.keys = Int32(otherKeys.count)
                otherKeys.append(session.keys)
            }
            let version = session.summary.schemaVersion
            if version >= 0 && version < Int(Entry.largeVersion) {
                entry.version = UInt16(version)
            } else {
                entry.version = Entry.largeVersion
                otherVersions[position] = version
            }
            if !session.changes.isEmpty { changes[position] = session.changes }
            entries.append(entry)
        }

        /// Drops the spare capacity of the side table of queue keys, once every work stream is
        /// appended (it grows by doubling: up to half of it unused, ~0.4 MB at 50,000 work streams).
        mutating func finishAppending() {
            if otherKeys.capacity > otherKeys.count { otherKeys = otherKeys.withUnsafeBufferPointer { Array($0) } }
        }

        /// The work stream at `position`, unpacked.
        subscript(position: Int) -> StagedWorkStream {
            var session = StagedWorkStream(summary: summary(position), changes: changes(position))
            session.counted = isCounted(position)
            session.temporary = temporary(position)
            return session
        }

        func id(_ position: Int) -> UUID { entries[position].id }

        func keys(_ position: Int) -> QueueKeys {
            let index = entries[position].keys
            return index == Entry.defaultKeys ? QueueKeys.defaults : otherKeys[Int(index)]
        }

        func schemaVersion(_ position: Int) -> Int {
            let version = entries[position].version
            return version == Entry.largeVersion ? otherVersions[position]! : Int(version)
        }

        func summary(_ position: Int) -> WorkStreamQueueSummary {
            WorkStreamQueueSummary(id: id(position), schemaVersion: schemaVersion(position), keys: keys(position))
        }

        /// Every work stream's summary, in list order (a view: nothing is copied).
        var summaries: LazyMapCollection<Range<Int>, WorkStreamQueueSummary> {
            indices.lazy.map { summary($0) }
        }

        func temporary(_ position: Int) -> UInt64? {
            entries[position].flags.contains(.hasTemporary) ? entries[position].token : nil
        }

        mutating func setTemporary(_ token: UInt64, at position: Int) {
            entries[position].token = token
            entries[position].flags.insert(.hasTemporary)
        }

        func isCounted(_ position: Int) -> Bool { entries[position].flags.contains(.counted) }

        func changes(_ position: Int) -> [Change] { changes[position] ?? [] }

        mutating func setChanges(_ new: [Change], at position: Int) {
            changes[position] = new.isEmpty ? nil : new
        }

        /// True when some work stream has changes not yet reported.
        var hasUnreportedChanges: Bool { !changes.isEmpty }

        /// How many work streams have a temp file.
        var temporaryCount: Int { entries.count(where: { $0.flags.contains(.hasTemporary) }) }
    }
}
