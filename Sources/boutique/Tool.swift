import CSQLite

/// Dispatches `boutique COMMAND …` to its command and turns failures into a message and an exit status.
enum Tool {
    static let commands: [any Command.Type] = [
        DemoCommand.self, SQLCommand.self, WatchCommand.self, ChangesCommand.self, MigrationsCommand.self,
        CheckCommand.self, ServeCommand.self, BackupCommand.self, NewHistoryCommand.self, TokenCommand.self, SyncCommand.self, ShareCommand.self,
        UnshareCommand.self, MembersCommand.self, OwnerCommand.self, AttachmentsCommand.self,
    ]

    static var usage: String {
        var text = """
            boutique — the BoutiqueDB command-line tool

            usage: boutique COMMAND [OPTIONS]

            commands:

            """
        for command in commands {
            text += "  " + command.name.padding(toLength: 12, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nRun `boutique COMMAND --help` for a command's options, `boutique --version` for the version."
        return text
    }

    /// The tool's version, which is the library's it was built with.
    static let version = "0.1.0"

    /// What `boutique --version` prints: the tool's version and the SQLite it runs on.
    static var versionText: String {
        "boutique \(version) (BoutiqueDB \(version), SQLite \(String(cString: sqlite3_libversion())))"
    }

    /// Runs the tool; returns the process exit status (0 success, 1 failure, 2 bad usage).
    @MainActor
    static func run(_ arguments: [String]) async -> Int32 {
        guard let name = arguments.first else {
            Output.error(usage)
            return 2
        }
        if name == "--version" || name == "-V" {
            Output.line(versionText)
            return 0
        }
        if name == "--help" || name == "-h" || name == "help" {
            Output.line(usage)
            return 0
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            Output.error("boutique: unknown command '\(name)'\n\n\(usage)")
            return 2
        }
        var parser = ArgumentParser(Array(arguments.dropFirst()))
        if parser.takeFlag("--help") || parser.takeFlag("-h") {
            Output.line(command.help)
            return 0
        }
        do {
            try await command.run(&parser)
            return 0
        } catch let error as UsageError {
            Output.error("boutique \(name): \(error.message)\n\n\(command.help)")
            return 2
        } catch {
            Output.error("boutique \(name): \(error)")
            return 1
        }
    }
}

/// One subcommand of the tool.
protocol Command: SendableMetatype {
    static var name: String { get }
    static var summary: String { get }
    static var help: String { get }
    @MainActor
    static func run(_ arguments: inout ArgumentParser) async throws
}
