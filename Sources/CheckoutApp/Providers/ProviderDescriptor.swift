import CheckoutModel
import PaymentFlow
import ProviderClients
import Sandbox

/// Everything the app knows of one provider, in one value: the registry holds one per
/// provider, and the payment pane, `--provider`, scenarios, `checkout providers`, the sandbox,
/// the demo and transcripts all read it. Nothing outside a provider's folders and the
/// registry switches on a provider id.
public struct ProviderDescriptor: Sendable {
    /// `cashapp`, `afterpay`, …: what `--provider`, scenarios and transcripts say.
    public var id: String
    /// How the payment pane and banner show it, and what the coordinator needs of it.
    public var method: PaymentMethod
    /// What it emulates, for `checkout providers`.
    public var emulates: String
    /// The provider calls the checkout makes, as `METHOD /path`.
    public var endpoints: [String]
    /// Sandbox amounts and ids that trigger a documented outcome. Built when asked: only
    /// `checkout providers` reads them, and building them at start-up (a generic `joined`, the
    /// banks' table) cost a launch half a millisecond of conformance lookups.
    public var magicValues: [MagicValue] { makeMagicValues() }
    private let makeMagicValues: @Sendable () -> [MagicValue]
    /// The simulated customer's behaviours it supports, as scenario files spell them.
    public var customerBehaviours: [String]
    /// Its command-line options (and their environment variables).
    public var options: [ProviderOption]
    /// Whether the options point it at the real provider rather than a sandbox.
    public var pointsAtRealProvider: @Sendable (ProviderOptionValues) -> Bool
    /// What its options change in the payment pane's method (Cash App Pay: creating on load, the pause after apiError).
    public var screenMethod: @Sendable (ProviderOptionValues, inout PaymentMethod) -> Void
    /// A problem with its options, worded for the user; nil when they are usable.
    public var optionProblem: @Sendable (ProviderOptionValues) -> String?
    /// A problem only when it is the provider checked out with (`checkout run --provider`, a
    /// scenario's): credentials other providers get from their processor (Cash App's client id,
    /// which Adyen's session setup and Afterpay's signing give) are demanded of this one alone.
    public var usageProblem: @Sendable (ProviderOptionValues) -> String?
    /// Whether the payment pane offers the method's toggle as its options set it (Adyen: only
    /// where the flow lets the shopper choose to store).
    public var showsToggle: @Sendable (ProviderOptionValues) -> Bool
    /// The secret values its calls carry (given or sandbox defaults), for the redactor.
    public var secrets: @Sendable (ProviderOptionValues, _ sandboxURL: String?) -> [String]
    /// Its wire calls as the coordinator's steps.
    public var makeAdapter: @Sendable (ProviderConnection) -> any PaymentProviderAdapter
    /// Its side of the embedded or shared sandbox, made with the assembly's settings; a side that
    /// depends on another's (Afterpay's on Cash App's requests) asks the assembly for it.
    public var makeSandbox: @Sendable (inout SandboxAssembly) async -> any SandboxProvider
    /// What its options change in a sandbox this process starts (Adyen: the webhook HMAC key).
    public var configureSandbox: @Sendable (ProviderOptionValues, inout SandboxSettings) -> Void
    /// The payment pane's second column as its options set it (Antom: the display mode); nil keeps the method's.
    public var detail: @Sendable (ProviderOptionValues) -> String?
    /// A harmless authenticated call for `checkout config check`; nil when it has no real provider.
    public var credentialProbe: CredentialProbe?

    // What it brings beyond a checkout.
    /// Its own subcommands of `checkout` (Adyen: `listen`), placed between `sandbox` and `providers`.
    public var commands: [ProviderCommand]
    /// Its example in the profile template `checkout config init` writes; nil when it has none.
    public var profileExample: ProfileExample?
    /// The longest reference id (a scenario's `reference_id`) its requests take.
    public var referenceLimit: ReferenceLimit
    /// Its named ways of running (Adyen's two flows, Cash App Pay's on-file payments), as the
    /// options each sets: the soak takes turns through them, `make bench` measures those marked
    /// so. Empty: its one way.
    public var variants: [ProviderVariant]

    public init(
        id: String, method: PaymentMethod, emulates: String, endpoints: [String], magicValues: @autoclosure @escaping @Sendable () -> [MagicValue],
        customerBehaviours: [String] = ["approve", "decline", "none", "approve-after"], options: [ProviderOption] = [],
        pointsAtRealProvider: @escaping @Sendable (ProviderOptionValues) -> Bool = { _ in false },
        screenMethod: @escaping @Sendable (ProviderOptionValues, inout PaymentMethod) -> Void = { _, _ in },
        optionProblem: @escaping @Sendable (ProviderOptionValues) -> String? = { _ in nil },
        usageProblem: @escaping @Sendable (ProviderOptionValues) -> String? = { _ in nil },
        showsToggle: @escaping @Sendable (ProviderOptionValues) -> Bool = { _ in true },
        secrets: @escaping @Sendable (ProviderOptionValues, _ sandboxURL: String?) -> [String] = { _, _ in [] },
        makeAdapter: @escaping @Sendable (ProviderConnection) -> any PaymentProviderAdapter,
        makeSandbox: @escaping @Sendable (inout SandboxAssembly) async -> any SandboxProvider,
        configureSandbox: @escaping @Sendable (ProviderOptionValues, inout SandboxSettings) -> Void = { _, _ in },
        detail: @escaping @Sendable (ProviderOptionValues) -> String? = { _ in nil },
        credentialProbe: CredentialProbe? = nil,
        commands: [ProviderCommand] = [], profileExample: ProfileExample? = nil, referenceLimit: ReferenceLimit = .input,
        variants: [ProviderVariant] = []
    ) {
        self.variants = variants
        self.id = id
        self.method = method
        self.emulates = emulates
        self.endpoints = endpoints
        self.makeMagicValues = magicValues
        self.customerBehaviours = customerBehaviours
        self.options = options
        self.pointsAtRealProvider = pointsAtRealProvider
        self.screenMethod = screenMethod
        self.optionProblem = optionProblem
        self.usageProblem = usageProblem
        self.showsToggle = showsToggle
        self.secrets = secrets
        self.makeAdapter = makeAdapter
        self.makeSandbox = makeSandbox
        self.configureSandbox = configureSandbox
        self.detail = detail
        self.credentialProbe = credentialProbe
        self.commands = commands
        self.profileExample = profileExample
        self.referenceLimit = referenceLimit
    }

    /// What the coordinator needs of it.
    public var plan: ProviderPlan { method.plan }
}

/// A payment method the payment pane offers: how its provider reads on the screen and what
/// the coordinator needs of it. A plain value, so the screen's state stays comparable.
public struct PaymentMethod: Hashable, Sendable {
    public var id: String { plan.id }
    /// Its id, whether it has steps before its request, whether an approval is settled.
    public var plan: ProviderPlan
    /// The payment pane's line, e.g. "Cash App Pay (Afterpay)".
    public var label: String
    /// The payment pane's second column.
    public var detail: String
    /// A short name for sentences: "Afterpay is signing…".
    public var shortName: String
    /// Where the customer approves, for sentences: "Waiting for the customer to approve in Cash App…".
    public var customerApp: String
    /// An approval is validated and captured before the checkout is done.
    public var settles: Bool { plan.settles }
    /// The names of its steps outside the SDK states, in order (`token`, `signing`, …).
    public var steps: [String]
    /// The banner's sentence while a step runs, by step name.
    public var stepSentences: [String: String]
    /// The banner's sentence for a state, where it words it differently from the SDK's.
    public var stateSentences: [StateSentenceKey: String]
    /// The banner's sentence once settled, and the line under it (`{payment}` is the payment id).
    public var completedSentence: String
    public var completedLine: String
    /// Receipt facts the banner adds after the completed line, by detail key: `stored_payment_method_id` → "stored as".
    public var receiptLabels: [String: String]
    /// How the notice line names the page the customer acts on (`o`, `y`); nil: "the authorization link".
    public var linkNoun: String?
    /// A switch the payment pane offers beneath the method (Adyen: store Cash App Pay); nil
    /// when there is none, or when the command line already set it.
    public var toggle: PaymentToggle?
    /// The screen creates the request as soon as the checkout loads with this method chosen (and
    /// the cart can be paid), so the first p authorizes at once (PayKit's seed: "as soon as your
    /// checkout view controller loads").
    public var createsOnLoad: Bool
    /// After an apiError, every method the customer approves in the same app (`customerApp`) is
    /// "temporarily unavailable" for this many seconds; nil: an apiError hides nothing.
    public var apiErrorPause: Double?

    // What the driver and the screen ask of the provider beyond its states.
    /// Prompts a scripted customer answers at once, whatever its behaviour's delay (Square's
    /// tip screen: the delay is the card's).
    public var promptsAnsweredAtOnce: Set<String>
    /// How the prompt box ends a passed deadline: "waiting for Square…".
    public var waitingSentence: String { "waiting for \(shortName)…" }
    /// Names of verified notices after which its saved methods are listed anew, by prefix
    /// (Adyen: `recurring.token.`, a method stored or disabled).
    public var savedMethodsRefreshNotices: [String]

    /// Whether a verified notice named `name` changes its saved methods.
    public func refreshesSavedMethods(after name: String) -> Bool {
        savedMethodsRefreshNotices.contains { name.hasPrefix($0) }
    }

    /// The banner's sentence for `state` with this method.
    /// The method's words for `key` in the chosen value's language (`scan`: the QR panel's title, `offers`: what the customer chooses from).
    public func words(_ key: String, choice: String?) -> String? {
        toggle?.sentences[choice ?? toggle?.values.first ?? ""]?[key]
    }

    public func sentence(for state: CheckoutState, choice: String? = nil) -> String {
        if let choice, let worded = toggle?.sentences[choice]?[state.name] { return worded }
        return StateSentenceKey(state).flatMap { stateSentences[$0] } ?? state.sentence(app: customerApp, method: label)
    }

    public init(
        plan: ProviderPlan, label: String, detail: String, shortName: String, customerApp: String? = nil, steps: [String] = [], stepSentences: [String: String] = [:],
        stateSentences: [StateSentenceKey: String] = [:], completedSentence: String = "Paid.", completedLine: String = "payment {payment} settled",
        receiptLabels: [String: String] = [:], linkNoun: String? = nil, toggle: PaymentToggle? = nil,
        promptsAnsweredAtOnce: Set<String> = [], savedMethodsRefreshNotices: [String] = [], createsOnLoad: Bool = false, apiErrorPause: Double? = nil
    ) {
        self.createsOnLoad = createsOnLoad
        self.apiErrorPause = apiErrorPause
        self.promptsAnsweredAtOnce = promptsAnsweredAtOnce
        self.savedMethodsRefreshNotices = savedMethodsRefreshNotices
        self.plan = plan
        self.label = label
        self.detail = detail
        self.shortName = shortName
        self.customerApp = customerApp ?? shortName
        self.steps = steps
        self.stepSentences = stepSentences
        self.stateSentences = stateSentences
        self.completedSentence = completedSentence
        self.completedLine = completedLine
        self.receiptLabels = receiptLabels
        self.linkNoun = linkNoun
        self.toggle = toggle
    }

    /// The banner's line once settled: the completed line, then the labelled receipt facts.
    public func receiptLine(_ receipt: SettlementReceipt) -> String {
        let extras = receiptLabels.sorted { $0.key < $1.key }.compactMap { key, label in receipt.details[key].map { "\(label) \($0)" } }
        return ([completedLine.replacingOccurrences(of: "{payment}", with: receipt.paymentID)] + extras).joined(separator: " · ")
    }
}

/// A sandbox value with a documented effect, for `checkout providers` and the README.
public struct MagicValue: Hashable, Sendable, Codable {
    /// Where it goes: "amount", "client id", …
    public var field: String
    public var value: String
    public var effect: String

    public init(field: String, value: String, effect: String) {
        self.field = field
        self.value = value
        self.effect = effect
    }
}

/// What a provider's adapter is built from: the shared HTTP client, the sandbox when one is in
/// use, the option values, and how patiently to retry.
public struct ProviderConnection: Sendable {
    public var http: ProviderHTTPClient
    /// The embedded or shared sandbox's base URL; nil when every provider is real.
    public var sandboxURL: String?
    public var options: ProviderOptionValues
    /// Where the provider posts what it hears outside its calls (webhooks).
    public var notices: ProviderNotices
    /// Where it asks the person at the terminal (Square's reader and tip screen).
    public var desk: CustomerDesk
    /// The shop's catalog: its sample customer's saved addresses and cards fill the wallet sheet.
    public var catalog: Catalog?

    public init(
        http: ProviderHTTPClient, sandboxURL: String?, options: ProviderOptionValues, notices: ProviderNotices = ProviderNotices(),
        desk: CustomerDesk = CustomerDesk(), catalog: Catalog? = nil
    ) {
        self.catalog = catalog
        self.http = http
        self.sandboxURL = sandboxURL
        self.options = options
        self.notices = notices
        self.desk = desk
    }
}

/// A provider switch the payment pane shows beneath its method (`s` flips it): its option flag
/// and how it reads.
public struct PaymentToggle: Hashable, Sendable {
    public var flag: String
    public var label: String
    /// A choice rather than a switch: `s` steps through these values (Antom's locales).
    public var values: [String]
    /// The banner's sentences by chosen value, then by state name.
    public var sentences: [String: [String: String]]
    /// Drawn on the method's own row (in place of its detail) rather than on a row beneath it.
    public var inline: Bool

    public init(flag: String, label: String, values: [String] = [], sentences: [String: [String: String]] = [:], inline: Bool = false) {
        self.flag = flag
        self.label = label
        self.values = values
        self.sentences = sentences
        self.inline = inline
    }

    /// A choice between values rather than an on/off switch.
    public var isChoice: Bool { !values.isEmpty }

    /// The value after `current` (the first after the last, or when `current` is none of them).
    public func value(after current: String?) -> String? {
        guard let first = values.first else { return nil }
        guard let current, let index = values.firstIndex(of: current) else { return values.count > 1 && current == nil ? values[1] : first }
        return values[(index + 1) % values.count]
    }
}
