import Foundation

/// Files shipped with the binary: the default catalog, shipping methods and discounts, and
/// the sample scenarios.
public enum CheckoutResources {
    /// The default catalog as JSON bytes.
    public static func catalogData() throws -> Data {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "catalog.json is missing from the resource bundle"])
        }
        return try Data(contentsOf: url)
    }

    /// The folder of sample scenarios (Resources/scenarios), when the bundle has it.
    public static var scenariosDirectory: URL? {
        Bundle.module.url(forResource: "scenarios", withExtension: nil)
    }
}
