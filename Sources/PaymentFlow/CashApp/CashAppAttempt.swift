import CheckoutModel
import ProviderWire

extension PaymentAttempt {
    /// A customer request as the provider-neutral attempt: its id, status, one-time amount,
    /// mobile link and when it rotates, the payer's $cashtag and the grants.
    public init(cashAppRequest request: CustomerRequest, provider: String) {
        let amount = request.oneTimeAmount.flatMap { minorUnits, code in
            Currency.withCode(code).map { Money(minorUnits: minorUnits, currency: $0) }
        }
        self.init(
            provider: provider, id: request.id, status: Self.status(request.status), amount: amount,
            reference: request.referenceID, authorizationURL: request.authFlowTriggers?.mobileURL,
            linkRefreshesAt: request.authFlowTriggers?.refreshesAt, payer: request.customerProfile?.cashtag,
            customerID: request.customerProfile?.id ?? request.grants?.first?.customerID,
            grants: Self.oneTimeFirst(request.grants ?? []).map(\.id))
        // Their types once one is more than a one-time payment's (an on-file payment's EXTENDED
        // grant): one-time payments read as they always have.
        let grants = Self.oneTimeFirst(request.grants ?? [])
        if grants.contains(where: { $0.type != .ONE_TIME }) { grantTypes = grants.map(\.type.rawValue) }
    }

    /// Settlement takes the one-time grant when there are several.
    private static func oneTimeFirst(_ grants: [Grant]) -> [Grant] {
        grants.filter { $0.type == .ONE_TIME } + grants.filter { $0.type != .ONE_TIME }
    }

    private static func status(_ status: CustomerRequest.Status) -> Status {
        switch status {
        case .PENDING: .pending
        case .PROCESSING: .processing
        case .APPROVED: .approved
        case .DECLINED: .declined
        }
    }
}
