extension MigrationReport: CustomStringConvertible {
    /// `15 files change: 16 added_key, 1 manifest_upgraded, …` (totals by code, sorted by code),
    /// `0 files change` for a no-op: the totals `migrate` prints, instead of every document's changes.
    public var description: String {
        let totals = totals.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return "\(filesChanged) file\(filesChanged == 1 ? "" : "s") change" + (totals.isEmpty ? "" : ": \(totals)")
    }
}
