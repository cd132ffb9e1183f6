import ArgumentParser

/// A subcommand a provider brings to `checkout` (Adyen's `listen`, Square's `offline`). Its name
/// is written here so the root finds it without building its help.
public struct ProviderCommand: Sendable {
    public var name: String
    public var type: any ParsableCommand.Type

    public init(name: String, type: any ParsableCommand.Type) {
        self.name = name
        self.type = type
    }
}

/// A provider's example profile in the file `checkout config init` writes.
public struct ProfileExample: Sendable {
    /// Where it goes among the providers' examples, lower first.
    public var order: Int
    /// Its lines as they sit under `profiles:` (indented two spaces), a comment line first.
    public var text: String

    public init(order: Int, text: String) {
        self.order = order
        self.text = text
    }
}

/// The longest reference id a provider's requests take, and how a scenario's longer one is refused.
public struct ReferenceLimit: Sendable {
    public var characters: Int
    /// The refusal's end, after "is N characters; ".
    public var rule: String

    public init(characters: Int, rule: String) {
        self.characters = characters
        self.rule = rule
    }

    /// For a provider that names no tighter limit: a bound on input, not a provider's rule.
    public static let input = ReferenceLimit(characters: InputLimits.referenceCharacters, rule: "at most \(InputLimits.referenceCharacters) are taken")
}
