import ArgumentParser
import Foundation
import ProviderClients

/// `checkout offline`: lists the Square payments taken offline on this machine, and with
/// --upload hands the queued ones to Square.
struct OfflineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offline",
        abstract: "List Square payments taken offline on this machine; --upload sends the queued ones.",
        discussion: """
            `checkout run --provider square --offline-capable` (or the screen) takes a payment \
            offline when Square cannot be reached: it is stored on this machine (SQLite under \
            $TERMINALCHECKOUT_DATA_DIR, else $XDG_DATA_HOME/terminalcheckout, else \
            ~/.local/share/terminalcheckout), so a crash or a quit loses nothing. --upload sends \
            each queued payment with its original idempotency key (never charged twice) to the \
            Square that --sandbox-url or --square-url names; declined uploads are kept and shown. \
            --json prints one object per payment (Schemas/offline.schema.json).

            """ + ProviderCommandLine.help + "\n" + ExitCodes.section([
                .init(0, meaning: "nothing is left queued (uploaded and declined payments may be listed)"),
                .init(stillQueued, meaning: "some payments are still queued: not uploaded yet, or their upload failed"),
                .init(ExitStatus.failed.rawValue, meaning: "the offline queue cannot be read"),
                ExitCodes.usage(),
            ])
    )

    /// The status while payments wait to be uploaded, so a script can retry `--upload`.
    static let stillQueued: Int32 = 1

    @Flag(help: "Upload the queued payments, then list the queue.")
    var upload = false

    @Flag(help: "One JSON object per payment.")
    var json = false

    @Option(help: ArgumentHelp("A shared sandbox (`checkout sandbox`) to upload to.", valueName: "url"))
    var sandboxURL: String?

    @Option(help: ActiveProfile.option, completion: .custom { _, _, _ in ActiveProfile.namesForCompletion() })
    var profile: String?

    /// --sandbox-url, else the profile's.
    private var uploadSandboxURL: String? {
        sandboxURL ?? ((try? ActiveProfile.resolve(flag: profile, environment: ProcessInfo.processInfo.environment)) ?? nil)?.sandboxURL
    }

    func validate() throws {
        try ActiveProfile.validate(flag: profile)
        if let sandboxURL, !ProviderOptionValues.isWebURL(sandboxURL) {
            throw ValidationError("--sandbox-url must be an http(s) URL such as http://127.0.0.1:8080")
        }
        if upload, uploadSandboxURL == nil, resolvedValues["square-url"] == nil {
            throw ValidationError("--upload needs a Square to upload to: --sandbox-url URL (a `checkout sandbox`) or --square-url URL with --square-access-token")
        }
        if let problem = ProviderDescriptor.square.optionProblem(resolvedValues) { throw ValidationError(problem) }
    }

    private var resolvedValues: ProviderOptionValues {
        ActiveProfile.optionValues(flag: profile, options: ProviderDescriptor.square.options)
    }

    func run() async throws {
        let store = SquareOfflineReport.defaultStore()
        if upload {
            let results = await SquareOfflineReport.upload(store: store, values: resolvedValues, sandboxURL: uploadSandboxURL?.withoutTrailingSlashes)
            if !json { for result in results { Console.err("upload: " + SquareOfflineReport.line(result)) } }
            if results.isEmpty, !json { Console.err("upload: nothing is queued") }
        }
        let listing: (lines: [String], queued: Int)
        do { listing = try await SquareOfflineReport.listing(store, json: json) } catch {
            Console.err("error: \(error)")
            throw ExitCode(.failed)
        }
        for line in listing.lines { Console.out(line) }
        if listing.lines.isEmpty, !json { Console.err("offline: no payments taken offline (\(store.path))") }
        if listing.queued > 0 { throw ExitCode(Self.stillQueued) }
    }
}
