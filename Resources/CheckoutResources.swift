import Foundation

/// Files shipped with the binary: the default catalog, shipping methods and discounts, and
/// the sample scenarios.
public enum CheckoutResources {
    /// The currencies with a bundled catalog (`--currency`): the same shop, priced where it sells.
    public static let catalogCurrencies = ["USD", "THB", "IDR"]

    /// The catalog for `currency` as JSON bytes: catalog.json (USD), catalog-THB.json, catalog-IDR.json.
    public static func catalogData(currency: String = "USD") throws -> Data {
        let name = currency == "USD" ? "catalog" : "catalog-\(currency)"
        guard catalogCurrencies.contains(currency) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "there is no bundled catalog for \(currency)"])
        }
        guard let folder = ResourceFolder.located else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the resource folder is missing: \(ResourceFolder.searched)"])
        }
        return try Data(contentsOf: folder.appendingPathComponent(name + ".json"))
    }

    /// The folder of sample scenarios (Resources/scenarios), when the resources are found.
    public static var scenariosDirectory: URL? {
        ResourceFolder.located?.appendingPathComponent("scenarios")
    }
}
