/// Sandbox magic values, documented in the README.
public enum SandboxMagic {
    /// Create (and update) answer 500 API_ERROR INTERNAL_SERVER_ERROR for this amount.
    public static let internalServerErrorAmount = 6670
    /// Amounts the customer cannot approve: the request is declined when the customer acts.
    public static let declineAmounts: [Int: String] = [
        7770: "COMPLIANCE", 7771: "INSUFFICIENT_FUNDS", 7772: "OTHER",
        7773: "RISK", 7774: "TOO_LARGE", 7775: "TOO_SMALL",
    ]
    /// This scope id is answered with BRAND_ERROR BRAND_NOT_FOUND.
    public static let missingBrandScope = "BRAND_sandbox:missing"
    /// Client ids the sandbox accepts start with one of these, as real sandbox ids do.
    public static let clientIDPrefixes = ["CAS-CI_", "CA-CI_"]
    /// The $cashtag of the simulated customer.
    public static let customerCashtag = "$SandboxShopper"
}
