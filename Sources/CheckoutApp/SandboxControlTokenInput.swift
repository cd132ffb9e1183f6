import CheckoutModel
import Foundation
import Sandbox

/// Where a shared sandbox's control token comes from (`checkout sandbox --control-token-file`,
/// `checkout --sandbox-token-file`, `CHECKOUT_SANDBOX_CONTROL_TOKEN`, a profile's
/// `sandbox_control_token`), checked where it enters: each message names where it came from and
/// the rule it breaks, never the token.
public enum SandboxControlTokenInput {
    /// The variable both sides read: the sandbox's token, and the one clients send.
    public static let environmentKey = "CHECKOUT_SANDBOX_CONTROL_TOKEN"

    /// Why a token cannot be used, worded for the user.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The token on the first line of the file at `path`, trimmed; `flag` names it in messages.
    public static func file(_ path: String, flag: String, environment: [String: String]) throws(Problem) -> String {
        let expanded = ConfigLocation.expandingTilde(path, environment: environment)
        let text: String
        do {
            text = try InputFile.text(InputFile.contents(of: expanded, kind: "a file holding the control token", limit: CredentialResolver.maximumBytes))
        } catch {
            throw Problem("\(flag) \(expanded) \(error.text)")
        }
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let token = line.trimmedOfWhitespaceAndNewlines
        guard !token.isEmpty else {
            throw Problem("\(flag) \(expanded) has no token on its first line; write one there, e.g. `openssl rand -hex 32 > \(expanded)`")
        }
        return try checked(token, source: "\(flag) \(expanded)")
    }

    /// `token` when it passes the rule (`SandboxControlToken.problem`), else why not.
    public static func checked(_ token: String, source: String) throws(Problem) -> String {
        if let problem = SandboxControlToken.problem(token) { throw Problem("the control token from \(source) \(problem)") }
        return token
    }

    /// A client's token: the file given on the command line (`flag`), else the profile's
    /// `sandbox_control_token`, else the environment (the command line over the profile over the
    /// environment, as for the providers' options); each checked.
    public static func client(
        file: String?, flag: String = "--sandbox-token-file", profile: ResolvedProfile?, environment: [String: String]
    ) throws(Problem) -> String? {
        if let file { return try Self.file(file, flag: flag, environment: environment) }
        if let token = profile?.sandboxControlToken { return token }
        return try Self.environment(environment)
    }

    /// The token in the environment, checked; nil when the variable is unset or empty.
    public static func environment(_ environment: [String: String]) throws(Problem) -> String? {
        guard let token = environment.nonEmpty(environmentKey) else { return nil }
        return try checked(token, source: environmentKey)
    }
}
