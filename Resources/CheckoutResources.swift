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
        // Beside the executable, where SwiftPM puts the bundle, without making a Bundle first
        // (Bundle.main and Bundle.module cost two milliseconds of the first frame).
        if let beside = besideExecutable(name + ".json"), let data = try? Data(contentsOf: beside) { return data }
        guard let url = Bundle.module.url(forResource: name, withExtension: "json") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "\(name).json is missing from the resource bundle"])
        }
        return try Data(contentsOf: url)
    }

    /// `file` in the resource bundle next to the running executable, if that is where it is.
    private static func besideExecutable(_ file: String) -> URL? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: executable).deletingLastPathComponent()
            .appendingPathComponent("TerminalCheckout_CheckoutResources.resources").appendingPathComponent(file)
    }

    /// The folder of sample scenarios (Resources/scenarios), when the bundle has it.
    public static var scenariosDirectory: URL? {
        Bundle.module.url(forResource: "scenarios", withExtension: nil)
    }
}
