import CheckoutModel
import Foundation
import ProviderClients
import TerminalUI

/// `checkout screen --bench-load cart=1000,log=100000` (hidden; `make bench`'s P3 figure):
/// opens the screen with that many more cart lines and HTTP log entries, so keys are timed at
/// the sizes a long session or a big order reaches. The lines and exchanges are ordinary ones.
public struct BenchLoad: Sendable, Equatable {
    public static let cartLimit = 0...10_000
    public static let logLimit = 0...AppUpdate.logLimit

    public var cartLines = 0
    public var logEntries = 0

    public init(cartLines: Int = 0, logEntries: Int = 0) {
        self.cartLines = cartLines
        self.logEntries = logEntries
    }

    /// Reads `cart=N,log=M` (either may be left out).
    public init(parsing spec: String) throws(BenchLoadError) {
        for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let count = Int(pair[1]) else { throw BenchLoadError(spec: spec) }
            switch pair[0] {
            case "cart" where Self.cartLimit.contains(count): cartLines = count
            case "log" where Self.logLimit.contains(count): logEntries = count
            default: throw BenchLoadError(spec: spec)
            }
        }
    }

    /// Adds the lines (priced like the catalog's first product) and the exchanges to `state`.
    func apply(to state: inout AppState) {
        // The benchmarks measure the screen as it opens (notStarted): no request is made on load.
        for index in state.paymentMethods.indices { state.paymentMethods[index].createsOnLoad = false }
        if cartLines > 0, let model = state.catalogProducts.first {
            let lines = (1...cartLines).map { number in
                LineItem(
                    sku: "BENCH-\(number)", name: "Bench line \(number)", unitPrice: model.unitPrice, quantity: 1, weightGrams: model.weightGrams)
            }
            let cart = state.cart
            state.cart = Cart(
                currency: cart.currency, items: cart.items + lines, discounts: cart.discounts, shippingMethods: cart.shippingMethods,
                selectedShippingID: cart.selectedShipping?.id, tax: cart.tax)
        }
        let started = state.now
        for number in 0..<logEntries {
            LogKeys.append(
                HTTPExchange(
                    id: -1 - number, provider: "bench", attempt: 1, method: number % 2 == 0 ? "POST" : "GET",
                    url: "http://127.0.0.1/bench/requests/\(number)", requestHeaders: [], requestBody: nil,
                    status: 200, responseHeaders: [], responseBody: "{}", startedAt: started, durationMilliseconds: 1, failure: nil),
                to: &state)
        }
    }
}

public struct BenchLoadError: Error, CustomStringConvertible {
    let spec: String
    public var description: String {
        "--bench-load: \"\(TerminalText.escapingControls(String(spec.prefix(60))))\" is not cart=N,log=M with N from \(BenchLoad.cartLimit.lowerBound) to "
            + "\(BenchLoad.cartLimit.upperBound) and M from \(BenchLoad.logLimit.lowerBound) to \(BenchLoad.logLimit.upperBound)"
    }
}
