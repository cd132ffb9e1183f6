import CheckoutApp
import PaymentFlow
import ProviderClients
import Testing

/// The screen learns an adapter's optional capabilities (saved methods, a health check) from
/// the adapter's own answer, not by casting it: each answer is what a cast would find, so a
/// provider gets a capability by adopting its protocol and nothing more.
@Suite struct ProviderCapabilityTests {
    @Test func everyAdapterOffersExactlyTheCapabilitiesItAdopts() async {
        let connection = ProviderConnection(http: ProviderHTTPClient(), sandboxURL: "http://127.0.0.1:1", options: ProviderOptionValues())
        var savedMethods: [String] = []
        var healthChecks: [String] = []
        for descriptor in ProviderRegistry.builtIn.descriptors {
            let adapter = descriptor.makeAdapter(connection)
            #expect((adapter.savedMethodsAdapter != nil) == (adapter is any SavedPaymentMethodsAdapter), "\(descriptor.id)")
            #expect((adapter.healthCheck != nil) == (adapter is any ProviderHealthCheck), "\(descriptor.id)")
            if adapter.savedMethodsAdapter != nil { savedMethods.append(descriptor.id) }
            if adapter.healthCheck != nil { healthChecks.append(descriptor.id) }
            await adapter.close()
        }
        // Each capability has a provider that offers it, so the checks above compare something.
        #expect(!savedMethods.isEmpty && savedMethods.count < ProviderRegistry.builtIn.descriptors.count)
        #expect(!healthChecks.isEmpty && healthChecks.count < ProviderRegistry.builtIn.descriptors.count)
    }
}
