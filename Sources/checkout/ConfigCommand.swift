import ArgumentParser
import CheckoutApp
import Foundation

/// `checkout config`: the profiles in ~/.config/checkout/config.yaml.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Profiles for real accounts and shared sandboxes: init, list, show, check.",
        discussion: """
            Profiles live in $XDG_CONFIG_HOME/checkout/config.yaml (~/.config/checkout/config.yaml). \
            Each names its providers, their URLs and options, and where each credential comes from: \
            an environment variable, a file, or a command whose output is the secret (`pass show …`). \
            A secret written in the file itself is read only while the file is mode 0600. \
            `checkout --profile NAME` (or CHECKOUT_PROFILE=NAME) runs with one; without one, \
            checkout uses its embedded sandbox. Flags on the command line win over the profile.
            """ + "\n" + ExitCodes.section([.init(0, meaning: "help shown"), ExitCodes.usage()]),
        subcommands: [ConfigInitCommand.self, ConfigListCommand.self, ConfigShowCommand.self, ConfigCheckCommand.self]
    ).parsedUnderCheckout()
}

/// The config file's path and its profiles, or exit 64 saying what is wrong with it.
private func loadConfiguration() throws -> (path: String, configuration: ProfileConfiguration?) {
    let path = ConfigLocation.file(environment: ProcessInfo.processInfo.environment)
    do { return (path, try ProfileParser.load(path: path)) } catch {
        Console.err("error: \(error)")
        throw ExitCode(ExitStatus.usage.rawValue)
    }
}

/// The named profile, or exit 64 saying why not (no file, no such profile: it names the ones there are).
private func loadProfile(_ name: String) throws -> (path: String, profile: Profile) {
    do { return try ProfileSelection.load(name: name, environment: ProcessInfo.processInfo.environment) } catch {
        Console.err("error: \(error)")
        throw ExitCode(ExitStatus.usage.rawValue)
    }
}

private let profileArgument = ArgumentHelp("A profile's name (`checkout config list` lists them).", valueName: "profile")

struct ConfigInitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented example config file (never over an existing one).",
        discussion: ExitCodes.section([
            .init(0, meaning: "written (mode 0600, in a folder only you can enter)"),
            .init(1, meaning: "a config file is already there: it is left as it is"),
            .init(2, meaning: "it could not be written (the message says why)"),
            ExitCodes.usage(),
        ]))

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let directory = ConfigLocation.directory(environment: environment)
        let path = ConfigLocation.file(environment: environment)
        guard !FileManager.default.fileExists(atPath: path) else {
            Console.err("error: \(path) already exists; edit it, or move it away and run `checkout config init` again")
            throw ExitCode(1)
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // Created private before a byte is written; O_EXCL so a file made meanwhile is not clobbered.
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try handle.write(contentsOf: Data(ProfileTemplate.text.utf8))
        } catch {
            Console.err("error: cannot write \(path): \(error.localizedDescription)")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
        Console.out("Wrote \(path) (mode 0600): an example with four profiles. Edit it, then `checkout config check NAME`.")
    }
}

struct ConfigListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the profiles.",
        discussion: "--json prints one JSON document (Schemas/config-list.schema.json).\n"
            + ExitCodes.section([.init(0, meaning: "listed (none is not an error)"), ExitCodes.usage(", or a config file that cannot be used")]))

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let (path, configuration) = try loadConfiguration()
        Console.out(json ? ProfileListing.listJSON(configuration, path: path) : ProfileListing.listText(configuration, path: path))
    }
}

struct ConfigShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a profile, with its secrets' sources named and their values redacted.",
        discussion: "--json prints one JSON document (Schemas/config-show.schema.json).\n"
            + ExitCodes.section([.init(0, meaning: "shown"), ExitCodes.usage(", no such profile, or a config file that cannot be used")]))

    @Argument(help: profileArgument, completion: .custom { _, _, _ in ActiveProfile.namesForCompletion() })
    var profile: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let (path, profile) = try loadProfile(profile)
        Console.out(json ? ProfileListing.showJSON(profile, path: path) : ProfileListing.showText(profile, path: path))
    }
}

struct ConfigCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a profile's credentials resolve and that its real providers accept them.",
        discussion: """
            Resolves every credential (running credential commands), then for each provider the \
            profile points at a real host makes one harmless authenticated call (a read: it \
            creates and charges nothing) and shows the exchange, secrets redacted; a shared \
            sandbox is asked for its health. --json prints one JSON document \
            (Schemas/config-check.schema.json).
            """ + "\n"
            + ExitCodes.section([
                .init(0, meaning: "every credential resolved and every provider accepted them"),
                .init(1, meaning: "a credential did not resolve, or a provider refused or did not answer"),
                ExitCodes.usage(", no such profile, or a config file that cannot be used"),
            ]))

    @Argument(help: profileArgument, completion: .custom { _, _, _ in ActiveProfile.namesForCompletion() })
    var profile: String

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let (path, profile) = try loadProfile(profile)
        let report = await ProfileCheck.run(profile, path: path, environment: ProcessInfo.processInfo.environment)
        Console.out(json ? ProfileListing.checkJSON(report) : ProfileListing.checkText(report))
        throw ExitCode(report.passed ? 0 : 1)
    }
}
