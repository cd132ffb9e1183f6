import Foundation

/// A Cash App Pay customer request as the Customer Request API returns it (wrapped in `{"request": …}`).
public struct CustomerRequest: Codable, Hashable, Sendable {
    public enum Status: String, Codable, Hashable, Sendable {
        case PENDING, PROCESSING, APPROVED, DECLINED
    }

    public enum Channel: String, Codable, Hashable, Sendable {
        case IN_APP, ONLINE, IN_PERSON
    }

    public struct AuthFlowTriggers: Codable, Hashable, Sendable {
        public var qrCodeImageURL: String
        public var qrCodeSVGURL: String
        public var mobileURL: String
        public var refreshesAt: Date

        public init(qrCodeImageURL: String, qrCodeSVGURL: String, mobileURL: String, refreshesAt: Date) {
            self.qrCodeImageURL = qrCodeImageURL
            self.qrCodeSVGURL = qrCodeSVGURL
            self.mobileURL = mobileURL
            self.refreshesAt = refreshesAt
        }

        /// PayKit treats triggers as expired once they refresh within the next 10 seconds.
        public func isExpired(now: Date) -> Bool {
            refreshesAt <= now.addingTimeInterval(10)
        }

        enum CodingKeys: String, CodingKey {
            case qrCodeImageURL = "qr_code_image_url"
            case qrCodeSVGURL = "qr_code_svg_url"
            case mobileURL = "mobile_url"
            case refreshesAt = "refreshes_at"
        }
    }

    public struct Origin: Codable, Hashable, Sendable {
        public var type: String
        public var id: String?
        public init(type: String, id: String? = nil) { self.type = type; self.id = id }
    }

    public struct RequesterProfile: Codable, Hashable, Sendable {
        public var name: String
        public var logoURL: String?
        public init(name: String, logoURL: String?) { self.name = name; self.logoURL = logoURL }
        enum CodingKeys: String, CodingKey { case name, logoURL = "logo_url" }
    }

    public struct CustomerProfile: Codable, Hashable, Sendable {
        public var id: String
        public var cashtag: String
        public init(id: String, cashtag: String) { self.id = id; self.cashtag = cashtag }
    }

    public var id: String
    public var status: Status
    public var actions: [PaymentAction]
    public var authFlowTriggers: AuthFlowTriggers?
    public var redirectURL: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var expiresAt: Date
    public var origin: Origin?
    public var channel: Channel
    public var referenceID: String?
    public var requesterProfile: RequesterProfile?
    public var customerProfile: CustomerProfile?
    public var metadata: [String: String]?
    public var grants: [Grant]?

    public init(
        id: String, status: Status, actions: [PaymentAction], authFlowTriggers: AuthFlowTriggers?,
        redirectURL: String?, createdAt: Date, updatedAt: Date, expiresAt: Date, origin: Origin?,
        channel: Channel, referenceID: String?, requesterProfile: RequesterProfile?,
        customerProfile: CustomerProfile?, metadata: [String: String]?, grants: [Grant]?
    ) {
        self.id = id
        self.status = status
        self.actions = actions
        self.authFlowTriggers = authFlowTriggers
        self.redirectURL = redirectURL
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
        self.origin = origin
        self.channel = channel
        self.referenceID = referenceID
        self.requesterProfile = requesterProfile
        self.customerProfile = customerProfile
        self.metadata = metadata
        self.grants = grants
    }

    /// The one-time amount the customer is asked to approve, when there is one.
    public var oneTimeAmount: (minorUnits: Int, currency: String)? {
        for action in actions where action.type == .ONE_TIME_PAYMENT {
            if let amount = action.amount, let currency = action.currency { return (amount, currency) }
        }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case id, status, actions, origin, channel, metadata, grants
        case authFlowTriggers = "auth_flow_triggers"
        case redirectURL = "redirect_url"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case expiresAt = "expires_at"
        case referenceID = "reference_id"
        case requesterProfile = "requester_profile"
        case customerProfile = "customer_profile"
    }
}

/// One action of a customer request: a one-time payment, or an on-file payment/payout.
public struct PaymentAction: Codable, Hashable, Sendable {
    public enum ActionType: String, Codable, Hashable, Sendable {
        case ONE_TIME_PAYMENT, ON_FILE_PAYMENT, ON_FILE_PAYOUT
    }

    public var type: ActionType
    public var scopeID: String
    public var amount: Int?
    public var currency: String?
    public var accountReferenceID: String?

    public init(type: ActionType, scopeID: String, amount: Int? = nil, currency: String? = nil, accountReferenceID: String? = nil) {
        self.type = type
        self.scopeID = scopeID
        self.amount = amount
        self.currency = currency
        self.accountReferenceID = accountReferenceID
    }

    public static func oneTimePayment(scopeID: String, amount: Int, currency: String) -> PaymentAction {
        PaymentAction(type: .ONE_TIME_PAYMENT, scopeID: scopeID, amount: amount, currency: currency)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(ActionType.self, forKey: .type)
        scopeID = try container.decode(String.self, forKey: .scopeID)
        // Linux's decoder throws a fraction (45.5) as a private error that names no field;
        // say it at the amount, as a wrong type is.
        do { amount = try container.decodeIfPresent(Int.self, forKey: .amount) } catch let error as DecodingError { throw error } catch {
            throw DecodingError.dataCorruptedError(forKey: .amount, in: container, debugDescription: "amount is a whole number of minor units")
        }
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        accountReferenceID = try container.decodeIfPresent(String.self, forKey: .accountReferenceID)
    }

    enum CodingKeys: String, CodingKey {
        case type, amount, currency
        case scopeID = "scope_id"
        case accountReferenceID = "account_reference_id"
    }
}

/// What an approved customer request grants the merchant.
public struct Grant: Codable, Hashable, Sendable {
    public enum Status: String, Codable, Hashable, Sendable { case ACTIVE, EXPIRED, CONSUMED, REVOKED }
    public enum GrantType: String, Codable, Hashable, Sendable { case ONE_TIME, EXTENDED }

    public var id: String
    public var customerID: String
    /// The customer request that granted it (always sent by the API; optional for older recordings).
    public var requestID: String?
    public var action: PaymentAction
    public var status: Status
    public var type: GrantType
    public var channel: CustomerRequest.Channel
    public var createdAt: Date
    public var updatedAt: Date
    public var expiresAt: Date?

    public init(
        id: String, customerID: String, action: PaymentAction, status: Status, type: GrantType,
        channel: CustomerRequest.Channel, createdAt: Date, updatedAt: Date, expiresAt: Date?, requestID: String? = nil
    ) {
        self.id = id
        self.customerID = customerID
        self.requestID = requestID
        self.action = action
        self.status = status
        self.type = type
        self.channel = channel
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case id, action, status, type, channel
        case customerID = "customer_id"
        case requestID = "request_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case expiresAt = "expires_at"
    }
}

/// The success envelope of every Customer Request API response.
public struct CustomerRequestEnvelope: Codable, Hashable, Sendable {
    public var request: CustomerRequest
    public init(request: CustomerRequest) { self.request = request }
}
