import Foundation
import MigrateStoreCLI

exit(MigrateStore.main(Array(CommandLine.arguments.dropFirst())))
