import CheckoutApp
import PaymentFlow

extension ProviderDescriptor {
    /// A provider that exists only in the tests: proof that a provider is its own files plus
    /// one registry entry.
    static let testPay = ProviderDescriptor(
        id: "testpay",
        method: PaymentMethod(plan: ProviderPlan(id: "testpay"), label: "Test Pay", detail: "tests only", shortName: "Test Pay"),
        emulates: "a payment API whose customer approves or declines in the sandbox",
        endpoints: ["POST /testpay/v1/payments", "GET /testpay/v1/payments/{id}"],
        magicValues: [MagicValue(field: "amount", value: "any", effect: "pending until the simulated customer acts")],
        customerBehaviours: ["approve", "decline", "none"],
        options: [ProviderOption(flag: "testpay-url", valueName: "url", help: "Test Pay host.")],
        pointsAtRealProvider: { $0["testpay-url"] != nil },
        makeAdapter: { connection in
            TestPayAdapter(baseURL: connection.options["testpay-url"] ?? connection.sandboxURL ?? "", http: connection.http)
        },
        makeSandbox: { _ in TestPaySandbox() },
        commands: [ProviderCommand(name: "testpay-status", type: TestPayStatusCommand.self)],
        profileExample: ProfileExample(order: 9, text: """
              # Test Pay's own host.
              testpay-live:
                providers: [testpay]
                options:
                  testpay-url: https://testpay.example
            """),
        referenceLimit: ReferenceLimit(characters: 8, rule: "Test Pay allows 8"))
}

extension ProviderRegistry {
    /// The built-in providers plus the test provider: its one registry entry.
    static let withTestPay = ProviderRegistry.builtIn.adding(.testPay)
}
