import ArgumentParser
import CheckoutApp
import CheckoutModel
import Foundation
import Sandbox

/// `checkout sandbox`'s store: where its state is kept (memory, or a PostgreSQL database several
/// instances share), chosen by --store, else CHECKOUT_SANDBOX_STORE, else the profile's
/// `sandbox_store`. A store URL is never printed with its password.
struct SandboxStoreFlags: ParsableArguments {
    static let environmentKey = "CHECKOUT_SANDBOX_STORE"
    /// Its flags that a provider's checkout option also spells: `checkout sandbox` keeps them.
    static let ownFlags: Set<String> = ["store"]

    @Option(name: .customLong("store"), help: ArgumentHelp(
        "Keep the sandbox's state in PostgreSQL, shared by every instance given the same database: postgres://USER@HOST:PORT/DB "
            + "(a password as USER:PASSWORD@, or in PGPASSWORD; it is never printed). Also \(Self.environmentKey), or the profile's "
            + "sandbox_store. In memory when none is given.",
        valueName: "url"))
    var url: String?

    @Option(name: .customLong("store-pool-size"), parsing: .unconditional, help: ArgumentHelp(
        "Connections to the --store database at most. From \(SandboxStoreChoice.poolSizes.lowerBound) to "
            + "\(SandboxStoreChoice.poolSizes.upperBound); \(SandboxStoreChoice.defaultPoolSize) when left out.",
        valueName: "N"))
    var poolSize = SandboxStoreChoice.defaultPoolSize

    @Flag(name: .customLong("reset"), help: "Empty the --store database before serving; it asks first unless --yes is given.")
    var reset = false

    @Flag(name: .customLong("yes"), help: "Answer yes to --reset's question (for scripts).")
    var yes = false

    @Option(name: .customLong("profile"), help: ArgumentHelp(
        "Take the store from this profile's sandbox_store in ~/.config/checkout/config.yaml (or CHECKOUT_PROFILE); nothing else of it is read.",
        valueName: "name"))
    var profile: String?

    /// Where the URL was given, for messages: the flag, the environment variable or the profile key.
    struct Given: Equatable {
        let url: String
        let source: String
    }

    /// The store URL given, and where; nil for the memory store. A profile named by --profile
    /// must load; one named only by CHECKOUT_PROFILE (set for checkouts, perhaps) that does not
    /// is passed over, as the sandbox always did (`profileWarning` says why).
    func given(environment: [String: String]) throws -> Given? {
        if let url { return Given(url: url, source: "--store") }
        if let url = environment[Self.environmentKey], !url.isEmpty { return Given(url: url, source: Self.environmentKey) }
        guard let name = ProfileSelection.requestedName(flag: profile, environment: environment) else { return nil }
        do {
            let (_, loaded) = try ProfileSelection.load(name: name, environment: environment)
            return loaded.sandboxStore.map { Given(url: $0, source: "profiles.\(name).sandbox_store") }
        } catch {
            if profile == nil { return nil }
            throw ValidationError(error.description)
        }
    }

    /// Why the profile CHECKOUT_PROFILE names was passed over, when it was.
    func profileWarning(environment: [String: String]) -> String? {
        guard url == nil, environment[Self.environmentKey]?.isEmpty ?? true, profile == nil,
            let name = ProfileSelection.requestedName(flag: nil, environment: environment)
        else { return nil }
        do { _ = try ProfileSelection.load(name: name, environment: environment) } catch {
            return "sandbox: CHECKOUT_PROFILE's store not read (\(error)); keeping the state in memory"
        }
        return nil
    }

    /// The store chosen: the URL checked (naming where it came from and the form it must take)
    /// and the pool size checked; `--reset` needs a database to empty.
    func choice(environment: [String: String]) throws -> SandboxStoreChoice {
        guard SandboxStoreChoice.poolSizes.contains(poolSize) else {
            throw ValidationError(
                "--store-pool-size must be a whole number from \(SandboxStoreChoice.poolSizes.lowerBound) to "
                    + "\(SandboxStoreChoice.poolSizes.upperBound), got \(poolSize)")
        }
        guard let given = try given(environment: environment) else {
            if reset {
                throw ValidationError(
                    "--reset empties a --store database; without one the sandbox keeps its state in memory, which starts empty every time")
            }
            return .memory
        }
        if let problem = SandboxStoreURL.problem(given.url) { throw ValidationError("\(given.source): \(problem)") }
        return .postgres(url: given.url, poolSize: poolSize)
    }

    /// `--reset`'s question, on stderr, answered on stdin; true only for "y" or "yes". No answer
    /// (stdin closed, as in a script) is a no.
    static func confirmReset(of store: SandboxStoreChoice) -> Bool {
        FileHandle.standardError.write(Data("Empty every record of the sandbox in \(store)? This cannot be undone. [y/N] ".utf8))
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.trimmedOfWhitespace.lowercased())
    }
}
