import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Synchronization
import Testing

/// The Antom adapter against the sandbox over a real socket: an expiring unpaid session is
/// re-created for the same order (the old one closed, its component destroyed first), and a
/// paid one is decided by inquiryPayment agreeing with the verified notification.
@Suite struct AntomAdapterTests {
    private final class Events: Sendable {
        private let seen = Mutex<[AntomEvent]>([])
        func record(_ event: AntomEvent) { seen.withLock { $0.append(event) } }
        var names: [String] { seen.withLock { $0.map(\.name) } }
        var all: [AntomEvent] { seen.withLock { $0 } }
    }

    private func adapter(
        _ sandbox: AntomTestSandbox, events: Events, notifications: (any AntomNotificationSource)? = nil, settings: AntomPaymentSettings = AntomPaymentSettings()
    ) -> AntomAdapter {
        let http = ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never)
        let clock = sandbox.clock
        let now: @Sendable () -> Date = { clock?.now ?? Date() }
        return AntomAdapter(
            provider: "antom", client: AntomClient(configuration: .sandbox(baseURL: sandbox.baseURL), http: http, now: now), settings: settings,
            notifications: notifications, http: http, redirectURL: sandbox.baseURL + "/sandbox/antom/return", sandboxEnvironment: true,
            notificationWait: .seconds(5), now: now, report: events.record)
    }

    private func order(reference: String) throws -> PaymentOrder {
        let catalog = try Catalog.bundled(currency: "THB")
        return try PaymentOrder.forCart(catalog.defaultCart, merchantName: catalog.merchantName, reference: reference)
    }

    @Test func anExpiringUnpaidSessionIsRecreatedForTheSameOrderAndTheOldOneClosed() async throws {
        try await AntomTestSandbox.with(requestLifetime: 600) { sandbox in
            let events = Events()
            let adapter = adapter(sandbox, events: events)
            let ids = AttemptIdentifiers(number: 1, idempotencyKey: "key-\(UUID().uuidString.prefix(8))", reference: "unused")
            let order = try order(reference: "order-\(UUID().uuidString.prefix(8))")
            let first = try await adapter.create(PaymentAttempt(provider: "antom", amount: order.amount), order: order, ids: ids)
            #expect(first.id == ids.idempotencyKey)
            #expect(first.offers.count >= 4, "the Thai banks: \(first.offers)")
            #expect(events.names == ["SDK_START_OF_LOADING", "SDK_END_OF_LOADING"])

            // 595 s on, the session has 5 s left: less than the 10 s PayKit allows a link.
            sandbox.clock?.advance(by: 595)
            let polled = try await adapter.retrieve(first, refreshing: false)
            #expect(polled.status == .processing && polled.needsRenewal)

            let second = try await adapter.retrieve(polled, refreshing: true)
            #expect(second.id == ids.idempotencyKey + "-r1")
            #expect(second.reference == first.reference)
            #expect(second.authorizationURL != first.authorizationURL && !second.needsRenewal)
            #expect(events.names.suffix(3) == ["onDestroy", "SDK_START_OF_LOADING", "SDK_END_OF_LOADING"], "the old component goes first: \(events.names)")

            let old = try await sandbox.inquire(paymentRequestId: first.id)
            #expect(old["paymentStatus"] as? String == "CANCELLED")
            #expect(old["paymentResultCode"] as? String == "ORDER_IS_CLOSED")

            let paid = try await sandbox.control("POST", "/sandbox/customer-requests/\(second.id ?? "")/approve")
            #expect(paid.isSuccess, "\(String(decoding: paid.body, as: UTF8.self))")
            let approved = try await adapter.retrieve(second, refreshing: false)
            #expect(approved.status == .approved)
            #expect(approved.grants.first?.isEmpty == false)
            let charges = try await sandbox.ledger("charges").filter { $0["reference"] as? String == order.reference }
            #expect(charges.count == 1, "one order, one charge: \(charges)")

            await adapter.close()
            #expect(events.names.last == "onDestroy", "leaving the checkout destroys the component")
        }
    }

    @Test func aPaidSessionIsDecidedByInquiryAgreeingWithTheVerifiedNotification() async throws {
        try await AntomTestSandbox.with(clock: nil) { sandbox in
            let events = Events()
            let receiver = AntomNotificationReceiver(publicKey: AntomTestSandbox.sandboxPublicKey, report: events.record)
            let adapter = adapter(sandbox, events: events, notifications: receiver, settings: AntomPaymentSettings(mode: .singleBank("KBANK")))
            let ids = AttemptIdentifiers(number: 1, idempotencyKey: "key-\(UUID().uuidString.prefix(8))", reference: "ref-1")
            let order = try order(reference: "order-\(UUID().uuidString.prefix(8))")
            let attempt = try await adapter.create(PaymentAttempt(provider: "antom", amount: order.amount), order: order, ids: ids)
            #expect(attempt.authorizationURL?.contains("/banks/KBANK") == true, "one bank: straight to its page")
            _ = try await sandbox.control("POST", "/sandbox/customer-requests/\(attempt.id ?? "")/approve")
            let approved = try await adapter.retrieve(attempt, refreshing: false)
            #expect(approved.status == .approved)
            let result = try #require(events.all.first { $0.name == "PAYMENT_RESULT" })
            #expect(result.verified && result.fields["paymentRequestId"] == attempt.id)
            #expect(!events.names.contains("NO_NOTIFICATION"))
            await adapter.close()
        }
    }

    @Test func theScreensLanguageReachesTheBankPageAndThreeLocalesAreTheirOwn() async throws {
        try await AntomTestSandbox.with(clock: nil) { sandbox in
            for locale in AntomLocale.allCases {
                let events = Events()
                let adapter = adapter(sandbox, events: events)
                var order = try order(reference: "order-\(UUID().uuidString.prefix(8))")
                order.providerOptions = ["locale": locale.rawValue]
                let ids = AttemptIdentifiers(number: 1, idempotencyKey: "key-\(UUID().uuidString.prefix(8))", reference: "r")
                let attempt = try await adapter.create(PaymentAttempt(provider: "antom", amount: order.amount), order: order, ids: ids)
                let link = try #require(attempt.authorizationURL)
                #expect(link.hasSuffix("locale=\(locale.rawValue)"))
                let page = String(decoding: try await sandbox.control("GET", String(link.dropFirst(sandbox.baseURL.count))).body, as: UTF8.self)
                let word = switch locale {
                case .english: "Siam Commercial Bank"
                case .thai: "ธนาคารไทยพาณิชย์"
                case .indonesian: "Siam Commercial Bank"
                }
                #expect(page.contains(word), "\(locale): \(page.prefix(400))")
                await adapter.close()
            }
        }
    }
}
