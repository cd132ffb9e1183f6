import Foundation

/// `{"request": …}` written by hand, byte for byte what `CashAppJSON.encoder()` writes (sorted
/// keys, slashes unescaped, dates to the millisecond): the sandbox answers every create and
/// retrieve with one, and Foundation's encoder was a quarter of its time under load (`make
/// bench`'s P4). Nil for what it does not write the same way — a string with a quote, a
/// backslash or a control character, or metadata of more than one key (whose order the encoder
/// decides) — so the caller falls back to the encoder.
public enum CustomerRequestJSONWriter {
    /// The bytes, for a caller that copies them once into its own buffer (the sandbox's answer).
    public static func envelope(_ request: CustomerRequest) -> [UInt8]? {
        var out = JSONBytes()
        guard out.envelope(request) else { return nil }
        return out.bytes
    }
}

/// The customer request's parts, as `CustomerRequest` and `CreateCustomerRequestParams` encode them.
extension JSONBytes {
    /// `{"name":"value"}` for metadata of at most one key (the encoder decides the order of more).
    private mutating func metadata(_ metadata: [String: String]) -> Bool {
        guard metadata.count <= 1 else { return false }
        open()
        for (name, value) in metadata {
            guard key(named: name), string(value) else { return false }
        }
        close()
        return true
    }

    /// What a create asked for (`CreateCustomerRequestParams`).
    package mutating func params(_ params: CreateCustomerRequestParams) -> Bool {
        open()
        key("actions")
        guard array(params.actions, { $0.action($1) }) else { return false }
        key("channel")
        guard string(params.channel.rawValue) else { return false }
        if let metadata = params.metadata {
            key("metadata")
            guard self.metadata(metadata) else { return false }
        }
        key("redirect_url")
        guard string(params.redirectURL) else { return false }
        if let reference = params.referenceID {
            key("reference_id")
            guard string(reference) else { return false }
        }
        close()
        return true
    }

    package mutating func envelope(_ request: CustomerRequest) -> Bool {
        open()
        key("request")
        guard self.request(request) else { return false }
        close()
        return true
    }

    package mutating func request(_ request: CustomerRequest) -> Bool {
        open()
        key("actions")
        guard array(request.actions, { $0.action($1) }) else { return false }
        if let triggers = request.authFlowTriggers {
            key("auth_flow_triggers")
            open()
            key("mobile_url")
            guard string(triggers.mobileURL) else { return false }
            key("qr_code_image_url")
            guard string(triggers.qrCodeImageURL) else { return false }
            key("qr_code_svg_url")
            guard string(triggers.qrCodeSVGURL) else { return false }
            key("refreshes_at")
            guard date(triggers.refreshesAt) else { return false }
            close()
        }
        key("channel")
        guard string(request.channel.rawValue) else { return false }
        key("created_at")
        guard date(request.createdAt) else { return false }
        if let customer = request.customerProfile {
            key("customer_profile")
            open()
            key("cashtag")
            guard string(customer.cashtag) else { return false }
            key("id")
            guard string(customer.id) else { return false }
            close()
        }
        key("expires_at")
        guard date(request.expiresAt) else { return false }
        if let grants = request.grants {
            key("grants")
            guard array(grants, { $0.grant($1) }) else { return false }
        }
        key("id")
        guard string(request.id) else { return false }
        if let metadata = request.metadata {
            key("metadata")
            guard self.metadata(metadata) else { return false }
        }
        if let origin = request.origin {
            key("origin")
            open()
            if let id = origin.id {
                key("id")
                guard string(id) else { return false }
            }
            key("type")
            guard string(origin.type) else { return false }
            close()
        }
        if let redirect = request.redirectURL {
            key("redirect_url")
            guard string(redirect) else { return false }
        }
        if let reference = request.referenceID {
            key("reference_id")
            guard string(reference) else { return false }
        }
        if let requester = request.requesterProfile {
            key("requester_profile")
            open()
            if let logo = requester.logoURL {
                key("logo_url")
                guard string(logo) else { return false }
            }
            key("name")
            guard string(requester.name) else { return false }
            close()
        }
        key("status")
        guard string(request.status.rawValue) else { return false }
        key("updated_at")
        guard date(request.updatedAt) else { return false }
        close()
        return true
    }

    mutating func action(_ action: PaymentAction) -> Bool {
        open()
        if let account = action.accountReferenceID {
            key("account_reference_id")
            guard string(account) else { return false }
        }
        if let amount = action.amount {
            key("amount")
            number(amount)
        }
        if let currency = action.currency {
            key("currency")
            guard string(currency) else { return false }
        }
        key("scope_id")
        guard string(action.scopeID) else { return false }
        key("type")
        guard string(action.type.rawValue) else { return false }
        close()
        return true
    }

    mutating func grant(_ grant: Grant) -> Bool {
        open()
        key("action")
        guard action(grant.action) else { return false }
        key("channel")
        guard string(grant.channel.rawValue) else { return false }
        key("created_at")
        guard date(grant.createdAt) else { return false }
        key("customer_id")
        guard string(grant.customerID) else { return false }
        if let expires = grant.expiresAt {
            key("expires_at")
            guard date(expires) else { return false }
        }
        key("id")
        guard string(grant.id) else { return false }
        if let requestID = grant.requestID {
            key("request_id")
            guard string(requestID) else { return false }
        }
        key("status")
        guard string(grant.status.rawValue) else { return false }
        key("type")
        guard string(grant.type.rawValue) else { return false }
        key("updated_at")
        guard date(grant.updatedAt) else { return false }
        close()
        return true
    }
}
