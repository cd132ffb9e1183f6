import NIOHTTP1

/// One HTTP call of a provider's approved checkout: method, path, and the bytes each way.
struct FloorCall: Sendable {
    var method: HTTPMethod
    var path: String
    var requestBytes: Int
    var responseBytes: Int
}

/// The calls `checkout run --provider P --customer approve` makes on the embedded sandbox, as
/// its HAR transcript (`--record`) lists them, in order, with their body sizes.
enum FloorCalls {
    static let byProvider: [String: [FloorCall]] = [
        "cashapp": [
            .init(method: .POST, path: "/customer-request/v1/requests", requestBytes: 307, responseBytes: 931),
            .init(method: .GET, path: "/customer-request/v1/requests/GRR_1", requestBytes: 0, responseBytes: 931),
            .init(method: .POST, path: "/sandbox/customer-requests/GRR_1/approve", requestBytes: 0, responseBytes: 971),
            .init(method: .GET, path: "/customer-request/v1/requests/GRR_1", requestBytes: 0, responseBytes: 971),
        ],
        "afterpay": [
            .init(method: .POST, path: "/v2/checkouts", requestBytes: 785, responseBytes: 217),
            .init(method: .POST, path: "/v2/payments/sign-payment", requestBytes: 56, responseBytes: 558),
            .init(method: .POST, path: "/customer-request/v1/requests", requestBytes: 307, responseBytes: 931),
            .init(method: .GET, path: "/customer-request/v1/requests/GRR_1", requestBytes: 0, responseBytes: 931),
            .init(method: .POST, path: "/sandbox/customer-requests/GRR_1/approve", requestBytes: 0, responseBytes: 970),
            .init(method: .GET, path: "/customer-request/v1/requests/GRR_1", requestBytes: 0, responseBytes: 970),
            .init(method: .POST, path: "/v2/payments/validate-payment", requestBytes: 564, responseBytes: 121),
            .init(method: .POST, path: "/v2/payments/capture", requestBytes: 133, responseBytes: 450),
        ],
        "adyen": [
            .init(method: .POST, path: "/sandbox/webhooks", requestBytes: 33, responseBytes: 57),
            .init(method: .POST, path: "/v71/paymentMethods", requestBytes: 131, responseBytes: 170),
            .init(method: .POST, path: "/customer-request/v1/requests", requestBytes: 303, responseBytes: 927),
            .init(method: .GET, path: "/customer-request/v1/requests/GRR_1", requestBytes: 0, responseBytes: 927),
            .init(method: .POST, path: "/sandbox/customer-requests/GRR_1/approve", requestBytes: 0, responseBytes: 963),
            .init(method: .GET, path: "/customer-request/v1/requests/GRR_1", requestBytes: 0, responseBytes: 963),
            .init(method: .POST, path: "/v71/payments", requestBytes: 326, responseBytes: 191),
        ],
        "square": [
            .init(method: .POST, path: "/v2/payments", requestBytes: 225, responseBytes: 868),
        ],
        "antom": [
            .init(method: .POST, path: "/ams/sandbox/api/v1/payments/createPaymentSession", requestBytes: 561, responseBytes: 595),
            .init(method: .GET, path: "/sandbox/antom/cashier/SESSION_1", requestBytes: 0, responseBytes: 1802),
            .init(method: .POST, path: "/sandbox/customer-requests/SESSION_1/approve", requestBytes: 0, responseBytes: 132),
            .init(method: .POST, path: "/ams/sandbox/api/v1/payments/inquiryPayment", requestBytes: 59, responseBytes: 351),
        ],
        "wallet": [
            .init(method: .GET, path: "/rates", requestBytes: 0, responseBytes: 843),
            .init(method: .POST, path: "/wallet/tokens", requestBytes: 188, responseBytes: 916),
            .init(method: .POST, path: "/v71/payments", requestBytes: 1072, responseBytes: 268),
        ],
    ]
}
