import Foundation

/// One command-line option a provider adds (`--cashapp-url`), with the environment variable
/// that fills it when the flag is left out.
public struct ProviderOption: Hashable, Sendable {
    /// The long flag without dashes.
    public var flag: String
    public var environment: String?
    public var valueName: String
    public var help: String
    /// Redacted from logs, the HTTP pane and transcripts.
    public var secret: Bool
    /// A switch (`--store`): no value follows, and it reads as "true".
    public var isSwitch: Bool
    /// A shorter key scenario files may use under `options:` besides the flag (`flow` for `adyen-flow`).
    public var scenarioKey: String?

    public init(
        flag: String, environment: String? = nil, valueName: String, help: String, secret: Bool = false, isSwitch: Bool = false,
        scenarioKey: String? = nil
    ) {
        self.scenarioKey = scenarioKey
        self.flag = flag
        self.environment = environment
        self.valueName = valueName
        self.help = help
        self.secret = secret
        self.isSwitch = isSwitch
    }

    /// How help and `checkout providers` show it: `--store`, `--capture <auto|manual>`.
    public var usage: String { isSwitch ? "--\(flag)" : "--\(flag) <\(valueName)>" }

    /// A switch: `--store`.
    public static func switchOption(flag: String, help: String) -> ProviderOption {
        ProviderOption(flag: flag, valueName: "", help: help, isSwitch: true)
    }
}

/// The values given for providers' options, by flag.
public struct ProviderOptionValues: Hashable, Sendable {
    public private(set) var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public subscript(flag: String) -> String? {
        get { values[flag] }
        set { values[flag] = newValue }
    }

    /// Fills options left out from their environment variables (empty ones count as unset).
    public func withEnvironment(_ environment: [String: String], options: [ProviderOption]) -> ProviderOptionValues {
        var copy = self
        for option in options where copy[option.flag] == nil {
            guard let name = option.environment, let value = environment[name], !value.isEmpty else { continue }
            copy[option.flag] = value
        }
        return copy
    }

    /// `value` is an http(s) URL with a host, and a port (if given) from 1 to 65535.
    public static func isWebURL(_ value: String) -> Bool {
        guard let components = URLComponents(string: value), let scheme = components.scheme, ["http", "https"].contains(scheme),
            let host = components.host, !host.isEmpty
        else { return false }
        if let port = components.port, !(1...65535).contains(port) { return false }
        return true
    }
}

/// Splits providers' options out of a command line before the rest is parsed, so a provider
/// brings its options without edits to the command definitions.
public enum ProviderArguments {
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The providers' option values, and the arguments left for the command parser.
    public static func split(_ arguments: [String], options: [ProviderOption]) throws(Problem) -> (ProviderOptionValues, [String]) {
        let flags = Dictionary(options.map { ("--" + $0.flag, $0) }, uniquingKeysWith: { first, _ in first })
        var values = ProviderOptionValues()
        var rest: [String] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--" {
                rest += arguments[index...]
                break
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard let option = flags[name] else {
                rest.append(argument)
                index += 1
                continue
            }
            if option.isSwitch {
                guard !argument.contains("=") else { throw Problem(description: "'--\(option.flag)' takes no value") }
                values[option.flag] = "true"
                index += 1
            } else if argument.contains("=") {
                values[option.flag] = String(argument.dropFirst(name.count + 1))
                index += 1
            } else {
                guard index + 1 < arguments.endIndex, !arguments[index + 1].hasPrefix("--") else {
                    throw Problem(description: "Missing value for '--\(option.flag) <\(option.valueName)>'")
                }
                values[option.flag] = arguments[index + 1]
                index += 2
            }
        }
        return (values, rest)
    }

    /// The options as a help section for commands' discussions, no line wider than
    /// `HelpText.columns`.
    public static func help(_ registry: ProviderRegistry) -> String {
        var lines = ["", "PROVIDER OPTIONS (`checkout providers` says more):"]
        for descriptor in registry.descriptors where !descriptor.options.isEmpty {
            lines.append("  \(descriptor.method.label):")
            for option in descriptor.options {
                let environment = option.environment.map { "  (or \($0))" } ?? ""
                let usage = "    " + option.usage + environment
                if usage.unicodeScalars.count <= HelpText.columns || option.isSwitch {
                    lines.append(usage)
                } else {
                    // A long list of values goes under its flag, indented less than the help.
                    lines += ["    --\(option.flag)" + environment, "      <\(option.valueName)>"]
                }
                lines += HelpText.wrap(option.help, width: HelpText.columns - 8).map { "        " + $0 }
            }
        }
        return lines.joined(separator: "\n")
    }
}
