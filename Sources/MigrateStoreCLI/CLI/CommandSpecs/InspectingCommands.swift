extension CommandSpec {
    /// `ls <store> [--sort last-modified|name|queue] [--deleted] [--queued]`
    static let list = CommandSpec(
        name: "ls", group: .inspecting,
        abstract: "List the work streams in a store.",
        discussion: """
            One line per work stream: its id, display name, provider and provider session, message \
            count, last change, FIFO position, priority and flags (local, deleted, hidden). Work \
            streams the user deleted are hidden, as the app hides them, unless --deleted is given. \
            Documents that can't be read are listed as warnings after the table (exit status 65).
            """,
        arguments: [.store],
        options: [
            .choice("sort", valueName: "order", choices: ["last-modified", "name", "queue"],
                    help: "The order of the list: newest first, by display name, or by queue position.",
                    default: "last-modified"),
            .flag("deleted", help: "Include work streams the user deleted."),
            .flag("queued", help: "Show only work streams in the FIFO or priority queue."),
        ])

    /// `show <store> <id-or-prefix> [--messages N] [--full]`
    static let show = CommandSpec(
        name: "show", group: .inspecting,
        abstract: "Show one work stream and its latest messages.",
        discussion: """
            Prints the work stream's keys, its user customisation, its queue entries and its latest \
            messages. A unique prefix of the id (4 hexadecimal digits or more) is enough; an \
            ambiguous prefix lists the matches (exit status 64), an unknown id exits with 65.
            """,
        arguments: [
            .store,
            ArgumentSpec(name: "id-or-prefix", help: "A work stream id, or a unique prefix of one."),
        ],
        options: [
            .integer("messages", valueName: "n", help: "How many of the latest messages to show.",
                     minimum: 0, default: 5),
            .flag("full", help: "Show whole message texts instead of their first 200 characters."),
        ])

    /// `queue <store> [--locked ID,...]`
    static let queue = CommandSpec(
        name: "queue", group: .inspecting,
        abstract: "Show the queues as the app displays them.",
        discussion: """
            Shows both queues in order. Entries the app hides are marked: work streams the user \
            deleted, work streams that no longer exist, and those whose provider session is locked. \
            Hidden entries keep their place.
            """,
        arguments: [.store],
        options: [
            .list("locked", valueName: "id,...",
                  help: "Provider session ids to treat as locked (the agent is still working). "
                      + "Comma-separated; may be repeated."),
        ])

    /// `stats <store>`
    static let stats = CommandSpec(
        name: "stats", group: .inspecting,
        abstract: "Count the documents, messages and bytes in a store.",
        discussion: """
            Counts, bytes and schema versions per kind of document, the largest documents, \
            messages, queue sizes, and the anomalies 'validate' reports, counted by code.
            """,
        arguments: [.store])

    /// `validate <store>`
    static let validate = CommandSpec(
        name: "validate", group: .inspecting,
        abstract: "Check every document and report every problem.",
        discussion: """
            Reads every document and reports every problem, not only the first, one per line: \
            '<file>: <key path>: <what is wrong>. Fix: <suggestion>'. Notes (an orphan \
            customisation, what migration will fix) follow and are not problems. Changes nothing. \
            Exits with status 0 when there is no problem, 65 when there is any.
            """,
        arguments: [.store])
}
