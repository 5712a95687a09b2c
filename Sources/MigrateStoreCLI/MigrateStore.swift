/// The `migrate-store` command-line tool as a library: `Sources/migrate-store/main.swift` calls
/// ``MigrateStore/main(_:)`` and exits with its status; tests call the same code in-process.
public enum MigrateStore {
    /// Runs the tool on `arguments` (the command line without the program name), printing to the
    /// process's standard output and error, and returns the exit status. Never exits the process.
    public static func main(_ arguments: [String]) -> Int32 {
        return CommandLineTool(registry: CommandRegistry())
            .run(arguments, output: Output(streams: .process))
            .rawValue
    }
}
