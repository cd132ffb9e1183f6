import ArgumentParser
import Foundation
import Synchronization

/// The profile this process runs with, resolved once: a credential command (a password
/// manager asking for a passphrase) runs once, however often the options are read.
public enum ActiveProfile {
    private static let resolved = Mutex<[String: Result<ResolvedProfile, ProfileProblem>]>([:])

    /// The profile `--profile` or CHECKOUT_PROFILE names; nil when neither does.
    public static func resolve(flag: String?, environment: [String: String]) throws(ProfileProblem) -> ResolvedProfile? {
        guard let name = ProfileSelection.requestedName(flag: flag, environment: environment) else { return nil }
        let result = resolved.withLock { cache in
            if let known = cache[name] { return known }
            let result = Result { () throws(ProfileProblem) -> ResolvedProfile in try ProfileSelection.resolve(name: name, environment: environment) }
            cache[name] = result
            return result
        }
        return try result.get()
    }

    /// The providers' option values: the command line's, then the profile's, then the options'
    /// environment variables; for commands outside a checkout session (listen, offline).
    public static func optionValues(flag: String?, options: [ProviderOption]) -> ProviderOptionValues {
        let environment = ProcessInfo.processInfo.environment
        let profile = (try? resolve(flag: flag, environment: environment)) ?? nil
        return ProviderCommandLine.values.filling(from: profile?.values ?? ProviderOptionValues()).withEnvironment(environment, options: options)
    }

    /// validate()'s check: the named profile resolves, or a usage error saying why.
    public static func validate(flag: String?) throws {
        do { _ = try resolve(flag: flag, environment: ProcessInfo.processInfo.environment) } catch { throw ValidationError(error.description) }
    }

    /// The config file's profile names, for shell completion (none when it cannot be read).
    public static func namesForCompletion() -> [String] {
        let path = ConfigLocation.file(environment: ProcessInfo.processInfo.environment)
        return ((try? ProfileParser.load(path: path)) ?? nil)?.names ?? []
    }

    public static let option = ArgumentHelp(
        "Run with this profile from ~/.config/checkout/config.yaml (or CHECKOUT_PROFILE); see `checkout config`.", valueName: "name")
}
