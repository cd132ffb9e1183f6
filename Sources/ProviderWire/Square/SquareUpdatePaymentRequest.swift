/// `PUT /v2/payments/{payment_id}` (UpdatePayment): the fields of an APPROVED payment this tool
/// changes (the tip added after authorization), against the version it read.
public struct SquareUpdatePaymentRequest: Codable, Hashable, Sendable {
    /// The payment's fields to change; the others stay as they are.
    public struct Change: Codable, Hashable, Sendable {
        public var tipMoney: SquareMoney?
        /// The version the change is made against: Square refuses it (VERSION_MISMATCH) when the
        /// payment changed since.
        public var versionToken: String?

        public init(tipMoney: SquareMoney? = nil, versionToken: String? = nil) {
            self.tipMoney = tipMoney
            self.versionToken = versionToken
        }

        enum CodingKeys: String, CodingKey {
            case tipMoney = "tip_money", versionToken = "version_token"
        }
    }

    public var idempotencyKey: String
    public var payment: Change

    public init(idempotencyKey: String, payment: Change) {
        self.idempotencyKey = idempotencyKey
        self.payment = payment
    }

    enum CodingKeys: String, CodingKey {
        case idempotencyKey = "idempotency_key", payment
    }
}
