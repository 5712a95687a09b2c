import JSONStore

/// `migrate-store export <store> <file>`: the whole store as one JSON Lines file (see
/// `StoreExport`); `-` writes to standard output, and the summary then goes to standard error.
struct ExportCommand: Subcommand {
    static let file = ArgumentSpec(name: "file", help: "The file to create, or '-' for standard output.")

    static let spec = CommandSpec(
        name: "export", group: .backupAndRestore,
        abstract: "Write a whole store as one JSON file.",
        arguments: [.store, file])

    let store: String, file: String

    init(_ arguments: ParsedArguments) { (store, file) = (arguments.value(.store), arguments.value(Self.file)) }

    func run(_ out: Output) throws -> ExitCode {
        let toStandardOutput = file == "-"
        if toStandardOutput && out.isJSON {
            throw UsageError("--json can't be used with '-': standard output holds the export.", command: Self.spec.name)
        }
        // On a terminal, after a second: "Exporting: 12/40 files" (on standard error, also with '-').
        let progress = OperationProgress(out)
        let report = try StoreExport.write(
            store: store, to: toStandardOutput ? .standardOutput : .file(file),
            tool: ToolInfo.name, version: ToolInfo.version
        ) { progress.show($0) }
        progress.finish()
        let summary =
            "Exported \(counted(report.files, "file")) (\(report.bytes) bytes, schema version "
            + "\(report.storeSchemaVersion)) from '\(store)' to \(toStandardOutput ? "standard output" : "'\(file)'")."
        if toStandardOutput {
            if !out.isQuiet { out.streams.standardError(summary + "\n") }
        } else {
            out.print(summary)
        }
        out.emitJSON([
            "store": .string(store), "file": .string(file), "files": .int(report.files),
            "bytes": .int(Int(report.bytes)), "store_schema_version": .int(report.storeSchemaVersion),
            "sha256": .string(report.sha256),
        ])
        return .success
    }
}

/// `migrate-store import <file> <store>`: creates a store from an export (see `StoreImport`);
/// `-` reads standard input. The store must be new or an empty folder.
///
/// Exit status: 0 imported; 64 the file does not exist or is a folder, or the store path is a
/// file (`PathRole`); 69 the export is corrupt, truncated or hostile; 65 it is incompatible;
/// 73 the store folder is not empty; 75 locked; 74 I/O.
struct ImportCommand: Subcommand {
    static let file = ArgumentSpec(name: "file", help: "The exported file, or '-' for standard input.", role: .exportFile)
    static let target = ArgumentSpec(name: "store", help: "The store directory to create.", role: .target(verb: "import"))

    static let spec = CommandSpec(
        name: "import", group: .backupAndRestore,
        abstract: "Create a store from a file written by 'export'.",
        arguments: [file, target])

    let file: String, store: String

    init(_ arguments: ParsedArguments) { (file, store) = (arguments.value(Self.file), arguments.value(Self.target)) }

    func run(_ out: Output) throws -> ExitCode {
        // On a terminal, after a second: "Importing: 12 files" (the count is at the export's end), then "Verifying copy: 12/40 files".
        let progress = OperationProgress(out)
        let report = try StoreImport.read(
            from: file == "-" ? .standardInput : .file(file), into: store,
            tool: ToolInfo.name, version: ToolInfo.version
        ) { progress.show($0) }
        progress.finish()
        if let recovered = report.recovered { out.info(recovered.summary) }
        out.print(
            "Imported \(counted(report.files, "file")) (\(report.bytes) bytes, schema version \(report.storeSchemaVersion)) "
                + "from \(file == "-" ? "standard input" : "'\(file)'") into '\(store)'; every file was verified first.")
        out.emitJSON([
            "file": .string(file), "store": .string(store), "files": .int(report.files),
            "bytes": .int(Int(report.bytes)), "store_schema_version": .int(report.storeSchemaVersion),
            "recovered": report.recovered.map { .string($0.summary) } ?? .null,
        ])
        return .success
    }
}
