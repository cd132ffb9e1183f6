import CheckoutModel
import CheckoutResources
import Foundation
import Synchronization

extension Catalog {
    /// The catalog shipped in Resources for `currency` (catalog.json for USD), decoded once per
    /// process (or taken from `prefetchBundled`).
    public static func bundled(currency: String = "USD") throws -> Catalog {
        try BundledCatalogCache.shared.catalog(currency: currency.uppercased())
    }

    /// Starts decoding the bundled catalog on another thread, so it is ready when the
    /// command line has been parsed (on two cores, a few milliseconds off the first frame).
    public static func prefetchBundled(currency: String = "USD") {
        BundledCatalogCache.shared.prefetch(currency: currency.uppercased())
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

    func prefetch(currency: String) {
        let claimed = entries.withLock { entries -> Bool in
            guard entries[currency] == nil else { return false }
            entries[currency] = .decoding
            return true
        }
        guard claimed else { return }
        // A dispatch worker starts sooner than a new Thread (a millisecond of the first frame).
        DispatchQueue.global(qos: .userInitiated).async { self.finish(currency, with: Self.decode(currency)) }
    }

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
