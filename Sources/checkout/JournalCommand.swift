import ArgumentParser
import CheckoutApp
import Dispatch
import Foundation
import ProviderClients
import ProviderWire
import Sandbox

/// `checkout journal`: lists (or with --follow tails) the requests a `checkout sandbox` served,
/// from its journal (`GET /sandbox/journal`), whichever instance of a shared sandbox is asked.
struct JournalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "journal",
        abstract: "List, or follow, the requests a running sandbox served.",
        discussion: """
            Reads the journal of the `checkout sandbox` at --sandbox-url (else the profile's \
            sandbox_url): one line per request, oldest first: its time, method, path (secret \
            query values redacted), status, milliseconds, provider (- for the sandbox's own \
            routes) and the checkout run that sent it (- for none). Instances sharing a --store \
            database share one journal. --follow keeps printing requests as they arrive (from now \
            on, or from --since), until Ctrl-C. --json prints each entry whole, one JSON object \
            per line: headers and bodies as the sandbox kept them (redacted as the HTTP pane \
            redacts, bodies cut at 16 KiB).
            """ + "\n" + ExitCodes.section([
                .init(0, meaning: "listed; or, with --follow, ended by Ctrl-C (or SIGTERM, SIGHUP)"),
                .init(ExitStatus.failed.rawValue, meaning: "the sandbox refused the request (the message says why) or answered something that is not a journal"),
                ExitCodes.usage(", or no sandbox to read (no --sandbox-url and no profile sandbox_url)"),
                .init(Self.sandboxUnavailable, meaning: "the sandbox cannot be reached, or went away while followed"),
            ])
    ).parsedUnderCheckout()

    /// EX_UNAVAILABLE: the sandbox is not there (as `checkout sandbox` says of its store).
    static let sandboxUnavailable: Int32 = 69

    @Option(help: ArgumentHelp("The running `checkout sandbox` to read.", valueName: "url"))
    var sandboxURL: String?

    @Option(name: .customLong("sandbox-token-file"), help: ArgumentHelp(
        "A file whose first line is the sandbox's control token (else the profile's sandbox_control_token, else "
            + "\(SandboxControlTokenInput.environmentKey)); needed when `checkout sandbox` was started with one.", valueName: "path"))
    var sandboxTokenFile: String?

    @Option(help: ActiveProfile.option, completion: .custom { _, _, _ in ActiveProfile.namesForCompletion() })
    var profile: String?

    @Flag(help: "Keep printing requests as they arrive, until Ctrl-C.")
    var follow = false

    @Flag(help: "One JSON object per entry, whole.")
    var json = false

    @Option(help: ArgumentHelp("Only this provider's requests (`checkout providers` lists them), or `none` for the sandbox's own routes.", valueName: "id"))
    var provider: String?

    @Option(help: ArgumentHelp("Only requests whose path starts with this (e.g. /v2/payments).", valueName: "prefix"))
    var path: String?

    @Option(help: ArgumentHelp("Only this status (404) or class (4xx).", valueName: "status"))
    var status: String?

    @Option(help: ArgumentHelp("Only requests naming this provider id (a request or payment id) in the path or a body.", valueName: "id"))
    var reference: String?

    @Option(help: ArgumentHelp("Start after this entry id, or at this ISO 8601 time (e.g. 2026-01-31T09:30:00Z).", valueName: "id-or-time"))
    var since: String?

    @Option(name: .customLong("interval"), parsing: .unconditional, help: ArgumentHelp(
        "With --follow, seconds between asks. From 0.1 to 60.", valueName: "seconds"))
    var interval: Double = 1

    static let intervals = 0.1...60.0

    func validate() throws {
        try ActiveProfile.validate(flag: profile)
        if let sandboxURL, !ProviderOptionValues.isWebURL(sandboxURL) {
            throw ValidationError("--sandbox-url must be an http(s) URL such as http://127.0.0.1:8080")
        }
        if let status, SandboxJournalQuery.statusFilter(status) == nil {
            throw ValidationError("--status must be \(SandboxJournalQuery.statusRule), got \"\(status.prefix(20))\"")
        }
        if let path, !path.hasPrefix("/") { throw ValidationError("--path must start with / (e.g. /v2/payments), got \"\(path.prefix(40))\"") }
        if let since, SandboxJournalQuery.Since(parsing: since) == nil {
            throw ValidationError("--since must be \(SandboxJournalQuery.sinceRule), got \"\(since.prefix(40))\"")
        }
        guard interval.isFinite, Self.intervals.contains(interval) else {
            throw ValidationError("--interval must be a number of seconds from 0.1 to 60, got \(interval.plainText)")
        }
        if resolvedURL == nil {
            throw ValidationError(
                "journal needs a sandbox to read: --sandbox-url URL (a running `checkout sandbox`), or a profile with sandbox_url (--profile or CHECKOUT_PROFILE)")
        }
    }

    /// --sandbox-url, else the profile's.
    private var resolvedURL: String? {
        sandboxURL ?? ((try? ActiveProfile.resolve(flag: profile, environment: ProcessInfo.processInfo.environment)) ?? nil)?.sandboxURL
    }

    /// --sandbox-token-file, else the profile's sandbox_control_token, else the environment; each checked.
    private func controlToken(environment: [String: String]) throws -> String? {
        let resolved = sandboxTokenFile == nil ? ((try? ActiveProfile.resolve(flag: profile, environment: environment)) ?? nil) : nil
        return try SandboxControlTokenInput.client(file: sandboxTokenFile, profile: resolved, environment: environment)
    }

    func run() async throws {
        guard let baseURL = resolvedURL?.withoutTrailingSlashes else { throw ExitCode(.usage) }
        let token: String?
        do { token = try controlToken(environment: ProcessInfo.processInfo.environment) } catch {
            Console.err("journal: \(error)")
            throw ExitCode(.usage)
        }
        // The token goes only to this sandbox's /sandbox/ routes, and is redacted wherever else it could show.
        let http = ProviderHTTPClient(
            log: ExchangeLog(limit: 4), redactor: Redactor(secrets: token.map { [$0] } ?? []), timeout: .seconds(10), retryPolicy: .never,
            sandboxRun: (baseURL: baseURL, runID: "journal"), sandboxControlToken: token)
        let client = SandboxJournalClient(baseURL: baseURL, http: http)
        let sendsToken = token != nil
        var query = SandboxJournalQuery(provider: provider, path: path, status: status, reference: reference)
        query.since = since.flatMap(SandboxJournalQuery.Since.init(parsing:))
        guard follow else {
            while true {
                let page = try await read(client, query, baseURL: baseURL, sendsToken: sendsToken)
                show(page.entries)
                guard page.more else { return }
                query.since = .id(page.next)
            }
        }
        let signals = await Self.endCleanlyOnSignals()
        defer { RegisteredSignalSources.cancel(signals) }
        if query.since == nil {
            // From now on: after the newest entry.
            var start = query
            start.since = .end
            query.since = .id(try await read(client, start, baseURL: baseURL, sendsToken: sendsToken).next)
        }
        while true {
            let page = try await read(client, query, baseURL: baseURL, sendsToken: sendsToken)
            show(page.entries)
            query.since = .id(page.next)
            if !page.more { try await Task.sleep(for: .milliseconds(Int(interval * 1_000))) }
        }
    }

    private func read(_ client: SandboxJournalClient, _ query: SandboxJournalQuery, baseURL: String, sendsToken: Bool) async throws
        -> SandboxJournalPage
    {
        do { return try await client.page(query) } catch {
            if error.isControlTokenRefusal {
                Console.err(
                    sendsToken
                        ? "journal: the sandbox at \(baseURL) did not accept the control token given: give the one `checkout sandbox` was started with"
                        : "journal: the sandbox at \(baseURL) needs a control token: pass --sandbox-token-file or set \(SandboxControlTokenInput.environmentKey)")
                throw ExitCode(.failed)
            }
            if case .transport(let failure) = error {
                Console.err("journal: the sandbox at \(baseURL) \(follow ? "went away" : "cannot be reached"): \(failure)")
                throw ExitCode(Self.sandboxUnavailable)
            }
            Console.err("journal: the sandbox at \(baseURL) refused: \(error)")
            throw ExitCode(.failed)
        }
    }

    private func show(_ entries: [SandboxJournalEntry]) {
        for entry in entries {
            if json {
                guard let data = try? WireJSON.encoder().encode(entry) else { continue }
                Console.out(String(decoding: data, as: UTF8.self))
            } else {
                Console.out(Self.line(entry))
            }
        }
    }

    /// One entry as a line: time, method, path, status, milliseconds, provider, run.
    static func line(_ entry: SandboxJournalEntry) -> String {
        let milliseconds = SandboxAccessLog.tenths(entry.durationMilliseconds)
        return "\(ISO8601Milliseconds.string(from: entry.time)) \(entry.method) \(entry.path) \(entry.status) \(milliseconds)ms "
            + "\(entry.provider ?? "-") \(entry.run ?? "-")"
    }

    /// Ctrl-C (and SIGTERM, SIGHUP) end a follow with status 0: that is how it is meant to end.
    private static func endCleanlyOnSignals() async -> [any DispatchSourceSignal] {
        await RegisteredSignalSources.install([SIGINT, SIGTERM, SIGHUP]) { _ in Foundation.exit(0) }
    }
}
