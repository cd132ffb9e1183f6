import CheckoutModel
import CheckoutResources
import Foundation

extension Catalog {
    /// The catalog shipped in Resources for `currency` (catalog.json for USD).
    public static func bundled(currency: String = "USD") throws -> Catalog {
        try Catalog(json: try CheckoutResources.catalogData(currency: currency))
    }

    /// The currencies `--currency` takes.
    public static var bundledCurrencies: [String] { CheckoutResources.catalogCurrencies }
}
