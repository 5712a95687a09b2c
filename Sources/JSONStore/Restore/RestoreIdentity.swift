/// What `Restore.run` learned by comparing the backup's store identity with the target's.
public enum RestoreIdentityCheck: Sendable, Equatable {
    /// Nothing to compare with: the target is absent, empty, or has no `store.json`.
    case noStoreAtTarget
    /// The backup was taken from the store at the target (or from the store it was migrated from).
    case sameStore
    /// The backup was made before backups recorded their store's identity: restored without a check.
    case unrecorded
    /// The backup is of another store (or the target's `store.json` does not read), and
    /// `Restore.Options.otherStore` allowed the restore. `target` is nil when it does not read.
    case otherStore(backup: StoreIdentity, target: StoreIdentity?)
}

extension Restore {
    /// Compares the identity recorded in `backup.json` with the target's `store.json`; reads
    /// only, so that a refusal leaves every byte as it was.
    ///
    /// - Returns: What was found, and the refusal when the backup is of another store and
    ///   `allowOther` is false (a `StoreError` `.conflict`: exit status 65 in the tool). A target
    ///   that has files but no `store.json` is not a store, so there is nothing to compare (the
    ///   tool's `rollback` refuses such a path before it runs; `restore --force` moves it aside).
    static func checkIdentity(
        _ manifest: BackupManifest, backup: String, target: SiblingPath, state: TargetState,
        allowOther: Bool, system: SystemCalls
    ) throws(StoreError) -> (RestoreIdentityCheck, StoreError?) {
        guard state.needsAside else { return (.noStoreAtTarget, nil) }
        let path = joinPath(target.path, StoreLayout.manifest)
        let bytes: [UInt8]
        do { bytes = try FileReader.read(path, system: system) } catch  where error.code == .notFound { return (.noStoreAtTarget, nil) }
        guard let recorded = manifest.storeIdentity else { return (.unrecorded, nil) }
        let current = StoreIdentity(manifestBytes: bytes)
        if current == recorded { return (.sameStore, nil) }
        if allowOther { return (.otherStore(backup: recorded, target: current), nil) }
        let what =
            current.map { "'\(target.path)' was \($0.phrase), the store the backup was taken from was \(recorded.phrase)" }
            ?? "the store.json of '\(target.path)' does not read, so it can't be shown to be the store the backup was taken from (\(recorded.phrase))"
        return (
            .otherStore(backup: recorded, target: current),
            StoreError(
                .conflict,
                "Can't restore '\(backup)' into '\(target.path)': the backup is of another store: "
                    + "\(what). Nothing was written. Check the paths, or use --other-store to replace it with "
                    + "this backup anyway (its content is then kept as '\(target.name).replaced-<time>').",
                path: target.path)
        )
    }
}
