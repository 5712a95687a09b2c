/// ls, show, queue, stats, validate.
enum InspectingHooks {
    static let hooks: [String: CommandHook] = [:]
}
