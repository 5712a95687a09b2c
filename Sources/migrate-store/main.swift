import Foundation

// Each command group registers its implementations in its own `hooks` table; a command
// without one fails with exit status 70 ("not implemented yet").
let registry = CommandRegistry(hooks: CommandHooks.all, fallback: CommandRegistry.notImplemented)

let code = CommandLineTool(registry: registry)
    .run(Array(CommandLine.arguments.dropFirst()), output: Output(streams: .process))
exit(code.rawValue)
