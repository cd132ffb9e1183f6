import CheckoutModel
import CheckoutResources
import Foundation

extension Catalog {
    /// The catalog shipped in Resources/catalog.json.
    public static func bundled() throws -> Catalog {
        try Catalog(json: try CheckoutResources.catalogData())
    }
}
