import ArgumentParser
import CheckoutApp
import Foundation
import Sandbox

/// `checkout sandbox`'s control token: who may steer it. With one, every /sandbox/ control route
/// (the simulated customer, faults, webhooks, the ledger, …) needs `Authorization: Bearer TOKEN`;
/// the customer's own pages and the providers' APIs stay as they are. From --control-token-file,
/// --control-token, or CHECKOUT_SANDBOX_CONTROL_TOKEN.
struct SandboxControlFlags: ParsableArguments {
    @Option(name: .customLong("control-token"), help: ArgumentHelp(
        "Require this token (Authorization: Bearer TOKEN) on every /sandbox/ control route: at least \(SandboxControlToken.minimumLength) "
            + "printable ASCII characters, no spaces (`openssl rand -hex 32`). Others on this machine can read it in `ps`: prefer "
            + "--control-token-file or \(SandboxControlTokenInput.environmentKey).",
        valueName: "token"))
    var token: String?

    @Option(name: .customLong("control-token-file"), help: ArgumentHelp(
        "Read the control token from the first line of this file (as --control-token; not shown in `ps`).", valueName: "path"),
        completion: .file())
    var file: String?

    /// The token given, checked; nil for none (every route open, as the embedded sandbox).
    func controlToken(environment: [String: String]) throws -> SandboxControlToken? {
        let given: String?
        do {
            switch (token, file) {
            case (.some, .some):
                throw ValidationError("give --control-token or --control-token-file, not both")
            case (let token?, nil):
                given = try SandboxControlTokenInput.checked(token, source: "--control-token")
            case (nil, let file?):
                given = try SandboxControlTokenInput.file(file, flag: "--control-token-file", environment: environment)
            case (nil, nil):
                given = try SandboxControlTokenInput.environment(environment)
            }
        } catch let problem as SandboxControlTokenInput.Problem {
            throw ValidationError(problem.description)
        }
        return given.flatMap(SandboxControlToken.init)
    }

    /// Whether `host` is reached from this machine only: the loopback addresses and localhost.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let lowered = bare.lowercased()
        if lowered == "localhost" || lowered.hasSuffix(".localhost") { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } == Array(repeating: 0, count: 15) + [1] }
        return false
    }

    /// What listening on `host` without a token risks, for stderr; nil on loopback.
    static func openWarning(host: String) -> String? {
        guard !isLoopback(host) else { return nil }
        return "sandbox: warning: listening on \(host) without a control token: anyone who can reach it can approve or decline payments, "
            + "inject faults, register webhook receivers, read the ledger and reset it. Start it with --control-token-file FILE "
            + "(or \(SandboxControlTokenInput.environmentKey)) and give clients --sandbox-token-file."
    }
}
