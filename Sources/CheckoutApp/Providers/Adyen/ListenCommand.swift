import ArgumentParser
import Foundation
import ProviderWire
import TerminalUI

/// `checkout listen`: receives real Adyen webhooks (from a tunnel pointed at it), verifies
/// their signatures and prints them.
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Receive Adyen webhooks, verify their HMAC signatures and print them.",
        discussion: """
            Point a tunnel (or Adyen's test webhook settings) at the printed URL. Each notification \
            prints one line: time, event code, psp reference, success, and whether its signature \
            checked out. Verified notifications are answered "[accepted]"; one whose signature \
            does not check out is answered 401, so Adyen retries it, and is never acted on. \
            Stop it with Ctrl-C.

            --adyen-hmac-key HEX (or ADYEN_HMAC_KEY): the HMAC key from Adyen's webhook \
            settings; without it, the sandbox's test key.

            --json prints JSON lines only: first {"listening": URL}, then one object per \
            notification (Schemas/listen.schema.json).
            """ + "\n" + ExitCodes.section([
                .init(ExitStatus.failed.rawValue, meaning: "it could not listen on --host and --port (e.g. the port is taken)"),
                ExitCodes.usage(),
                ExitCodes.signals("which is how it normally stops: it runs until then"),
            ])
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "Port to listen on; 0 picks a free one.")
    var port = 8090

    @Flag(help: "Print one JSON object per notification.")
    var json = false

    @Option(help: ActiveProfile.option, completion: .custom { _, _, _ in ActiveProfile.namesForCompletion() })
    var profile: String?

    func validate() throws {
        try ActiveProfile.validate(flag: profile)
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        if let key = resolvedKey, AdyenHMAC.keyBytes(hex: key) == nil {
            throw ValidationError("--adyen-hmac-key must be hexadecimal digits (an even number of them)")
        }
    }

    /// `--adyen-hmac-key` is Adyen's provider option (taken off the command line with the others), or ADYEN_HMAC_KEY.
    private var resolvedKey: String? {
        ActiveProfile.optionValues(flag: profile, options: ProviderRegistry.builtIn.options)["adyen-hmac-key"]
    }

    func run() async throws {
        let key = AdyenHMAC.keyBytes(hex: resolvedKey ?? AdyenHMAC.sandboxKey) ?? []
        let receiver = AdyenWebhookReceiver(hmacKey: key, sandboxURL: nil, http: nil, host: host, port: port)
        let json = json
        await receiver.onEvent { event in
            Console.out(json ? WebhookEventLine.json(event) : WebhookEventLine.text(event))
        }
        let url: String
        do { url = try await receiver.start() } catch {
            Console.err("error: could not listen on \(host):\(port): \(error). Choose another --port, or 0 for any free port.")
            throw ExitCode(.failed)
        }
        // The process exits after the signal; cancelling the server first could trap in NIO
        // if a webhook were being accepted just then (see AdyenWebhookReceiver.close).
        let signals = await SignalCleanup.install { signal in
            Console.err("listen: \(TerminalSignals.name(of: signal)); stopping")
        }
        // With --json every line of stdout is JSON, the address too.
        Console.out(json ? WebhookEventLine.listening(url) : url)
        Console.err("listen: receiving Adyen webhooks at \(url); Ctrl-C stops it")
        await receiver.wait()
        signals.cancel()
    }
}
