import Foundation

/// The profile a command runs with: `--profile NAME`, else `CHECKOUT_PROFILE`, else none (the
/// embedded sandbox), resolved into option values, the providers on offer and the sandbox.
public struct ResolvedProfile: Sendable {
    public var profile: Profile
    /// The profile's options and credentials by flag, credentials resolved.
    public var values: ProviderOptionValues
    /// The registry with the profile's providers only.
    public var registry: ProviderRegistry
    public var sandboxURL: String?
    /// The shared sandbox's control token (`sandbox_control_token`), resolved and checked.
    public var sandboxControlToken: String?
}

/// Why a profile cannot be used, worded for the user.
public struct ProfileProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

public enum ProfileSelection {
    /// The name asked for: the flag, then the environment; nil for none.
    public static func requestedName(flag: String?, environment: [String: String]) -> String? {
        if let flag { return flag }
        guard let named = environment[ConfigLocation.environmentProfile], !named.isEmpty else { return nil }
        return named
    }

    /// Reads the config file and resolves the named profile's credentials.
    public static func resolve(
        name: String, environment: [String: String], registry: ProviderRegistry = .builtIn,
        resolver: CredentialResolver? = nil
    ) throws(ProfileProblem) -> ResolvedProfile {
        try resolve(load(name: name, environment: environment, registry: registry).profile, environment: environment, registry: registry, resolver: resolver)
    }

    /// The named profile as the config file writes it (nothing resolved), and the file's path.
    public static func load(
        name: String, environment: [String: String], registry: ProviderRegistry = .builtIn
    ) throws(ProfileProblem) -> (path: String, profile: Profile) {
        let path = ConfigLocation.file(environment: environment)
        let loaded: ProfileConfiguration?
        do { loaded = try ProfileParser.load(path: path, registry: registry) } catch { throw ProfileProblem("\(error)") }
        guard let configuration = loaded else {
            throw ProfileProblem("profile \"\(name)\": there is no config file at \(path); `checkout config init` writes an example")
        }
        guard let profile = configuration.profile(name) else {
            let known = configuration.names.isEmpty ? "it has none" : "it has \(configuration.names.joined(separator: ", "))"
            throw ProfileProblem("there is no profile \"\(name)\" in \(path); \(known)")
        }
        return (path, profile)
    }

    public static func resolve(
        _ profile: Profile, environment: [String: String], registry: ProviderRegistry = .builtIn, resolver: CredentialResolver? = nil
    ) throws(ProfileProblem) -> ResolvedProfile {
        var values = ProviderOptionValues(profile.options)
        for credential in (resolver ?? CredentialResolver(environment: environment)).resolveAll(profile.credentials) {
            do { values[credential.flag] = try credential.value.get() } catch {
                throw ProfileProblem("profile \"\(profile.name)\": \(error)")
            }
        }
        let offered = registry.restricted(to: profile.providers)
        var resolved = ResolvedProfile(profile: profile, values: values, registry: offered, sandboxURL: profile.sandboxURL)
        if let source = profile.sandboxControlToken {
            let field = "sandbox_control_token"
            do {
                let token = try (resolver ?? CredentialResolver(environment: environment)).value(of: field, from: source)
                resolved.sandboxControlToken = try SandboxControlTokenInput.checked(token, source: "\(field) (\(source.redactedDescription))")
            } catch let failure as CredentialResolver.Failure {
                throw ProfileProblem("profile \"\(profile.name)\": \(failure)")
            } catch {
                throw ProfileProblem("profile \"\(profile.name)\": \(error)")
            }
        }
        return resolved
    }
}

extension ProviderOptionValues {
    /// These values, with `other`'s where these have none (the command line over a profile).
    public func filling(from other: ProviderOptionValues) -> ProviderOptionValues {
        ProviderOptionValues(values.merging(other.values) { given, _ in given })
    }
}
