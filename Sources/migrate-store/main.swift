import Foundation

// Each command group registers its implementations in its own `hooks` table; every spec has one
// (checked at start-up and by `everyCommandHasAnImplementation`).
let registry = CommandRegistry(hooks: CommandHooks.all, fallback: CommandRegistry.requireImplementation)

let code = CommandLineTool(registry: registry)
    .run(Array(CommandLine.arguments.dropFirst()), output: Output(streams: .process))
exit(code.rawValue)
