/// A named set of settings in the config file: which providers, where they are, and where
/// each credential comes from. Secrets themselves stay out of it unless the user insists.
public struct Profile: Hashable, Sendable {
    public var name: String
    public var description: String?
    /// The providers it offers, in the registry's order; nil for all of them.
    public var providers: [String]?
    /// A team's shared `checkout sandbox`, used for every provider.
    public var sandboxURL: String?
    /// Where `checkout sandbox` keeps its state (`sandbox_store`, a postgres:// URL); memory when nil.
    public var sandboxStore: String?
    /// Where the shared sandbox's control token comes from (`sandbox_control_token`, a credential
    /// source like the providers' secrets); sent on its /sandbox/ control routes.
    public var sandboxControlToken: CredentialSource?
    /// Plain option values by flag (`square-url`, `adyen-merchant-account`, …).
    public var options: [String: String]
    /// Where each credential comes from, by option flag.
    public var credentials: [String: CredentialSource]

    public init(
        name: String, description: String? = nil, providers: [String]? = nil, sandboxURL: String? = nil,
        options: [String: String] = [:], credentials: [String: CredentialSource] = [:]
    ) {
        self.name = name
        self.description = description
        self.providers = providers
        self.sandboxURL = sandboxURL
        self.options = options
        self.credentials = credentials
    }
}

/// Where a credential's value comes from.
public enum CredentialSource: Hashable, Sendable {
    /// An environment variable, by name.
    case environment(String)
    /// A file holding only the secret (a trailing newline is dropped).
    case file(String)
    /// A command whose standard output is the secret, e.g. `pass show adyen/api-key`.
    case command(String)
    /// The secret itself, written in the config file (which must then be mode 0600).
    case inline(String)

    /// How `config show` and messages name it, never with an inline secret's value.
    public var redactedDescription: String {
        switch self {
        case .environment(let name): "env \(name)"
        case .file(let path): "file \(path)"
        case .command(let command): "command `\(command)`"
        case .inline(let value): "inline [REDACTED, \(value.count) characters]"
        }
    }

    /// The key the config file spells it with.
    public var kind: String {
        switch self {
        case .environment: "env"
        case .file: "file"
        case .command: "command"
        case .inline: "value"
        }
    }
}

/// The config file as read: its profiles by name, in the file's order.
public struct ProfileConfiguration: Hashable, Sendable {
    public var path: String
    public var profiles: [Profile]

    public init(path: String, profiles: [Profile]) {
        self.path = path
        self.profiles = profiles
    }

    public var names: [String] { profiles.map(\.name) }

    public func profile(_ name: String) -> Profile? { profiles.first { $0.name == name } }
}
