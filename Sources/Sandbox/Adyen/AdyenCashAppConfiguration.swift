/// The PayKit ids `/paymentMethods` hands out for Cash App Pay: ones this sandbox's Customer
/// Request API accepts (client ids start `CAS-CI_`, scopes `BRAND_`), so a client can create
/// the customer request with them; grants of other scopes are refused by `/payments`.
public enum AdyenCashAppConfiguration {
    public static let clientID = "CAS-CI_ADYEN_SANDBOX"
    public static let scopeID = "BRAND_adyensandbox"
    public static let name = "Cash App Pay"
}
