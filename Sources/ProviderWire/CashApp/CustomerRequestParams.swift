/// What a new customer request asks for (the `request` object of `POST requests`).
public struct CreateCustomerRequestParams: Codable, Hashable, Sendable {
    public var actions: [PaymentAction]
    public var channel: CustomerRequest.Channel
    public var redirectURL: String
    public var referenceID: String?
    public var metadata: [String: String]?

    public init(
        actions: [PaymentAction], channel: CustomerRequest.Channel, redirectURL: String,
        referenceID: String? = nil, metadata: [String: String]? = nil
    ) {
        self.actions = actions
        self.channel = channel
        self.redirectURL = redirectURL
        self.referenceID = referenceID
        self.metadata = metadata
    }

    enum CodingKeys: String, CodingKey {
        case actions, channel, metadata
        case redirectURL = "redirect_url"
        case referenceID = "reference_id"
    }
}

/// The body of `POST requests`.
public struct CreateCustomerRequestBody: Codable, Hashable, Sendable {
    public var idempotencyKey: String
    public var request: CreateCustomerRequestParams

    public init(idempotencyKey: String, request: CreateCustomerRequestParams) {
        self.idempotencyKey = idempotencyKey
        self.request = request
    }

    enum CodingKeys: String, CodingKey {
        case request
        case idempotencyKey = "idempotency_key"
    }
}

/// What an update changes (`PATCH requests/{id}`). Like PayKit, a nil field is sent as null and clears it.
public struct UpdateCustomerRequestParams: Codable, Hashable, Sendable {
    public var actions: [PaymentAction]?
    public var referenceID: String?
    public var metadata: [String: String]?

    public init(actions: [PaymentAction]?, referenceID: String? = nil, metadata: [String: String]? = nil) {
        self.actions = actions
        self.referenceID = referenceID
        self.metadata = metadata
    }

    enum CodingKeys: String, CodingKey {
        case actions, metadata
        case referenceID = "reference_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(actions, forKey: .actions)
        try container.encode(referenceID, forKey: .referenceID)
        try container.encode(metadata, forKey: .metadata)
    }
}

/// The body of `PATCH requests/{id}`.
public struct UpdateCustomerRequestBody: Codable, Hashable, Sendable {
    public var request: UpdateCustomerRequestParams
    public init(request: UpdateCustomerRequestParams) { self.request = request }
}
