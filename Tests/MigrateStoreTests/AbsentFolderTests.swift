import Foundation
import Testing

/// An absent `user-sessions/` (or `sessions/`) is an empty one for every command: the built tool
/// prints for a sample without the folder exactly what it prints for the sample with the folder
/// emptied (the paths aside), and exits 0.
@Suite struct AbsentFolderTests {
    /// The sample twice: `absent/store` without `user-sessions/`, `empty/store` with it emptied.
    func pair(_ sample: String, _ dir: TemporaryDirectory) throws -> (absent: String, empty: String) {
        try FileManager.default.createDirectory(atPath: dir("absent"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir("empty"), withIntermediateDirectories: false)
        let absent = try dir.copySample(sample, as: "absent/store")
        let empty = try dir.copySample(sample, as: "empty/store")
        try FileManager.default.removeItem(atPath: absent + "/user-sessions")
        for name in try FileManager.default.contentsOfDirectory(atPath: empty + "/user-sessions") {
            try FileManager.default.removeItem(atPath: empty + "/user-sessions/" + name)
        }
        return (absent, empty)
    }

    @Test(arguments: ["v1-store", "v2-store"])
    func readingCommandsTreatAnAbsentUserSessionsFolderAsEmpty(sample: String) throws {
        let dir = TemporaryDirectory()
        let (absent, empty) = try pair(sample, dir)
        for command in [["status"], ["ls"], ["ls", "--json"], ["show", "ad9a22b8"], ["queue"], ["stats"], ["plan"]] {
            let withoutFolder = try BuiltTool.run([command[0], absent] + command.dropFirst())
            let withEmptyFolder = try BuiltTool.run([command[0], empty] + command.dropFirst())
            #expect(withoutFolder.code == 0, "\(command): \(withoutFolder)")
            #expect(withoutFolder.stderr == "", "\(command)")
            var output = withoutFolder.stdout.replacingOccurrences(of: absent, with: empty)
            var reference = withEmptyFolder.stdout
            if command == ["stats"] {
                // stats counts validate's notes among its anomalies: the absent folder is one (a
                // note, not a problem). Everything above that section is the same.
                #expect(output.contains("      1  missing_folder (note)\n"))
                output = String(output[..<output.range(of: "Anomalies:")!.lowerBound])
                reference = String(reference[..<reference.range(of: "Anomalies:")!.lowerBound])
            }
            #expect(output == reference, "\(command)")
        }
        #expect(!FileManager.default.fileExists(atPath: absent + "/user-sessions"), "a reading command created the folder")
    }

    @Test(arguments: ["v1-store", "v2-store"])
    func validateNotesAnAbsentFolderAndPasses(sample: String) throws {
        let dir = TemporaryDirectory()
        let (absent, _) = try pair(sample, dir)
        let run = try BuiltTool.run(["validate", absent])
        #expect(run.code == 0, "\(run)")
        #expect(
            run.stdout.contains(
                "Note: user-sessions: absent, so it is read as an empty folder. Fix: Nothing to do: the store "
                    + "creates it with its first document. If it held documents, restore it from a backup.\n"))
    }

    @Test(arguments: ["v1-store", "v2-store"])
    func migrateAndVerifyWorkWithoutUserSessions(sample: String) throws {
        let dir = TemporaryDirectory()
        let (absent, empty) = try pair(sample, dir)
        let migrated = try BuiltTool.run(["migrate", absent, "--no-backup"])
        let reference = try BuiltTool.run(["migrate", empty, "--no-backup"])
        #expect(migrated.code == 0, "\(migrated)")
        #expect(migrated.stdout.replacingOccurrences(of: absent, with: empty) == reference.stdout)
        let verified = try BuiltTool.run(["verify", absent])
        #expect(verified.code == 0, "\(verified)")
        let backup = try BuiltTool.run(["backup", absent, dir("backup")])
        #expect(backup.code == 0, "\(backup)")
        #expect(try BuiltTool.run(["verify-backup", dir("backup")]).code == 0)
    }

    @Test func everyCommandReadsAStoreWithoutEitherFolder() throws {
        let dir = TemporaryDirectory()
        let path = try dir.copySample("v1-store")
        try FileManager.default.removeItem(atPath: path + "/sessions")
        try FileManager.default.removeItem(atPath: path + "/user-sessions")
        for command in ["status", "ls", "queue", "stats", "validate", "plan"] {
            let run = try BuiltTool.run([command, path])
            #expect(run.code == 0, "\(command): \(run)")
        }
        #expect(try BuiltTool.run(["ls", path]).stdout == "0 work streams.\n")
        let migrated = try BuiltTool.run(["migrate", path, "--no-backup"])
        #expect(migrated.code == 0, "\(migrated)")
        #expect(try BuiltTool.run(["verify", path]).code == 0)
    }
}
