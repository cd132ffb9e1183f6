/// A payment method the customer saved with a provider (a stored Cash App Pay), as the
/// payment pane lists it beneath its provider.
public struct SavedPaymentMethod: Hashable, Sendable {
    /// The registry id of its provider.
    public var provider: String
    public var id: String
    /// How the pane shows it: `$SandboxShopper`.
    public var label: String
    /// The options a payment with it carries (`stored-payment-method: ID`).
    public var options: [String: String]

    public init(provider: String, id: String, label: String, options: [String: String]) {
        self.provider = provider
        self.id = id
        self.label = label
        self.options = options
    }
}

/// An adapter whose provider keeps saved methods: the screen lists them and deletes them.
public protocol SavedPaymentMethodsAdapter: PaymentProviderAdapter {
    func savedMethods() async throws(ProviderFailure) -> [SavedPaymentMethod]
    func deleteSavedMethod(id: String) async throws(ProviderFailure)
}

extension SavedPaymentMethodsAdapter {
    public var savedMethodsAdapter: (any SavedPaymentMethodsAdapter)? { self }
}
