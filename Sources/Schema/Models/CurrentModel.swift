/// The document types of the version this code creates and migrates to by default
/// (`DocumentVersion.current`): what an app names in its code. A new version moves these aliases;
/// the frozen types of each version keep their own names (`WorkStreamV3`, …).
///
/// A work stream at v4 is a `WorkStreamV3` (v4 added no work-stream key; its `schema_version` is 4).
public typealias WorkStream = WorkStreamV3
/// One message of a work stream at the current version (and of a `RenamedWorkStream`).
public typealias Message = MessageV3
/// A user's customisation of a work stream (`user-sessions/<id>.json`) at the current version.
public typealias Customisation = CustomisationV4
/// `settings.json` at the current version.
public typealias Settings = SettingsV4
/// `queue.json` at the current version.
public typealias Queue = QueueV2
/// A work stream of the breaking layout (`work-streams/`, spec §12), for a store its user took
/// there by name: the newest version this code reads and writes (`DocumentVersion.newest`).
public typealias RenamedWorkStream = WorkStreamV5
