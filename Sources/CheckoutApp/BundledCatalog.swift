import CheckoutModel
import CheckoutResources
import Foundation
import Synchronization

extension Catalog {
    /// The catalog shipped in Resources for `currency` (catalog.json for USD), decoded once per
    /// process (a thread that asks while another decodes it waits for that decode).
    public static func bundled(currency: String = "USD") throws -> Catalog {
        try BundledCatalogCache.shared.catalog(currency: currency.uppercased())
    }

    /// Decodes the bundled catalog now, on this thread, for a command that will ask for it on
    /// another (an error is kept for that ask to report).
    public static func readBundledAhead(currency: String = "USD") {
        _ = try? bundled(currency: currency)
    }

    /// The currencies `--currency` takes.
    public static var bundledCurrencies: [String] { CheckoutResources.catalogCurrencies }
}

/// Decoded catalogs by currency; a decode in flight is waited for rather than repeated.
final class BundledCatalogCache: Sendable {
    static let shared = BundledCatalogCache()

    private enum Entry {
        case decoding
        case done(Result<Catalog, any Error>)
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let decoded = NSCondition()

    func catalog(currency: String) throws -> Catalog {
        let claimed = entries.withLock { entries -> Bool in
            guard entries[currency] == nil else { return false }
            entries[currency] = .decoding
            return true
        }
        if claimed { finish(currency, with: Self.decode(currency)) }
        decoded.lock()
        defer { decoded.unlock() }
        while true {
            if case .done(let result)? = entries.withLock({ $0[currency] }) { return try result.get() }
            decoded.wait()
        }
    }

    private func finish(_ currency: String, with result: Result<Catalog, any Error>) {
        decoded.lock()
        entries.withLock { $0[currency] = .done(result) }
        decoded.broadcast()
        decoded.unlock()
    }

    private static func decode(_ currency: String) -> Result<Catalog, any Error> {
        Result { try Catalog(json: try CheckoutResources.catalogData(currency: currency)) }
    }
}
