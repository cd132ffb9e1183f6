import CheckoutModel
import Foundation

/// One payment attempt as every provider reads the same: what the banner, `checkout run`,
/// transcripts and receipts show. Each provider's adapter fills it from its own wire types.
public struct PaymentAttempt: Hashable, Sendable, Codable {
    /// Where the attempt stands at the provider.
    public enum Status: String, Hashable, Sendable, Codable {
        case pending, processing, approved, declined
    }

    /// The registry id of the provider (`cashapp`, `afterpay`, …).
    public var provider: String
    /// The provider's id for the attempt (a customer request, payment or session); nil until created.
    public var id: String?
    public var status: Status
    public var amount: Money?
    /// The merchant's reference for the attempt.
    public var reference: String?
    /// Where the customer authorizes (the link the QR code encodes).
    public var authorizationURL: String?
    /// When the authorization link is replaced by a fresh one.
    public var linkRefreshesAt: Date?
    /// The customer's handle once known (a $cashtag).
    public var payer: String?
    public var customerID: String?
    /// Grant or token ids the merchant settles with.
    public var grants: [String]
    /// The grants' types where the provider says them (Cash App: `ONE_TIME`, `EXTENDED` for an
    /// on-file payment), in the order of `grants`; empty when it does not.
    public var grantTypes: [String] = []
    /// Why the provider declined it, in its own words (Square: `CVV_FAILURE`).
    public var declineReason: String?
    /// What the provider's page offers the customer to choose from (Antom: the banks).
    public var offers: [String]
    /// The provider's session ends undecided before the customer can act: the flow refreshes it
    /// (Antom re-creates an expiring payment session), as PayKit refreshes an expiring link.
    public var needsRenewal: Bool

    public init(
        provider: String, id: String? = nil, status: Status = .pending, amount: Money? = nil, reference: String? = nil,
        authorizationURL: String? = nil, linkRefreshesAt: Date? = nil, payer: String? = nil, customerID: String? = nil,
        grants: [String] = [], declineReason: String? = nil, offers: [String] = [], needsRenewal: Bool = false
    ) {
        self.provider = provider
        self.id = id
        self.status = status
        self.amount = amount
        self.reference = reference
        self.authorizationURL = authorizationURL
        self.linkRefreshesAt = linkRefreshesAt
        self.payer = payer
        self.customerID = customerID
        self.grants = grants
        self.declineReason = declineReason
        self.offers = offers
        self.needsRenewal = needsRenewal
    }

    /// The grants with their types (`GRG_… (EXTENDED)`) when one is more than a one-time
    /// payment's (an on-file grant); else the ids alone, as before on-file payments.
    public var grantsWithTypes: [String] {
        guard grantTypes.count == grants.count, grantTypes.contains(where: { $0 != "ONE_TIME" }) else { return grants }
        return zip(grants, grantTypes).map { "\($0) (\($1))" }
    }

    /// The grants' types when one is more than a one-time payment's; nil otherwise.
    public var onFileGrantTypes: [String]? {
        grantTypes.count == grants.count && grantTypes.contains(where: { $0 != "ONE_TIME" }) ? grantTypes : nil
    }

    /// PayKit refreshes a link that is replaced within 10 s before handing it out.
    public func linkExpired(now: Date) -> Bool {
        guard let linkRefreshesAt else { return false }
        return linkRefreshesAt <= now.addingTimeInterval(10)
    }

    enum CodingKeys: String, CodingKey {
        case provider, id, status, amount, currency, reference
        case authorizationURL = "authorization_url", linkRefreshesAt = "link_refreshes_at", payer
        case customerID = "customer_id", grants, grantTypes = "grant_types", declineReason = "decline_reason", offers, needsRenewal = "needs_renewal"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        provider = try container.decode(String.self, forKey: .provider)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        status = try container.decode(Status.self, forKey: .status)
        if let minorUnits = try container.decodeIfPresent(Int.self, forKey: .amount) {
            let code = try container.decode(String.self, forKey: .currency)
            guard let currency = Currency.withCode(code) else {
                throw DecodingError.dataCorruptedError(forKey: .currency, in: container, debugDescription: "unknown currency \(code)")
            }
            amount = Money(minorUnits: minorUnits, currency: currency)
        }
        reference = try container.decodeIfPresent(String.self, forKey: .reference)
        authorizationURL = try container.decodeIfPresent(String.self, forKey: .authorizationURL)
        linkRefreshesAt = try container.decodeIfPresent(Date.self, forKey: .linkRefreshesAt)
        payer = try container.decodeIfPresent(String.self, forKey: .payer)
        customerID = try container.decodeIfPresent(String.self, forKey: .customerID)
        grants = try container.decodeIfPresent([String].self, forKey: .grants) ?? []
        grantTypes = try container.decodeIfPresent([String].self, forKey: .grantTypes) ?? []
        declineReason = try container.decodeIfPresent(String.self, forKey: .declineReason)
        offers = try container.decodeIfPresent([String].self, forKey: .offers) ?? []
        needsRenewal = try container.decodeIfPresent(Bool.self, forKey: .needsRenewal) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(provider, forKey: .provider)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encodeIfPresent(amount?.minorUnits, forKey: .amount)
        try container.encodeIfPresent(amount?.currency.code, forKey: .currency)
        try container.encodeIfPresent(reference, forKey: .reference)
        try container.encodeIfPresent(authorizationURL, forKey: .authorizationURL)
        try container.encodeIfPresent(linkRefreshesAt, forKey: .linkRefreshesAt)
        try container.encodeIfPresent(payer, forKey: .payer)
        try container.encodeIfPresent(customerID, forKey: .customerID)
        if !grants.isEmpty { try container.encode(grants, forKey: .grants) }
        if !grantTypes.isEmpty { try container.encode(grantTypes, forKey: .grantTypes) }
        try container.encodeIfPresent(declineReason, forKey: .declineReason)
        if !offers.isEmpty { try container.encode(offers, forKey: .offers) }
        if needsRenewal { try container.encode(true, forKey: .needsRenewal) }
    }
}
