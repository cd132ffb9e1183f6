import ArgumentParser
import Foundation
import Synchronization

/// The providers' options (`--cashapp-url`, `--afterpay-secret-key`, …) are taken off the
/// command line before the commands parse the rest, so a provider brings its options through
/// the registry alone.
public enum ProviderCommandLine {
    private static let parsed = Mutex(ProviderOptionValues())

    /// What the providers' options said on this command line.
    public static var values: ProviderOptionValues { parsed.withLock { $0 } }

    /// The command line without the providers' options, which are kept for `SessionFlags`; a
    /// usage error when one of them is malformed. Flags in `leaving` are the command's own (a
    /// command whose flag shares a provider option's name): they stay for its parser.
    public static func split(_ arguments: [String], leaving: Set<String> = []) throws(ValidationError) -> [String] {
        do {
            let options = ProviderRegistry.builtIn.options.filter { !leaving.contains($0.flag) }
            let (values, rest) = try ProviderArguments.split(arguments, options: options)
            parsed.withLock { $0 = values }
            return rest
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The providers' options, for the help of commands that take them.
    public static let help = ProviderArguments.help(ProviderRegistry.builtIn)
}
