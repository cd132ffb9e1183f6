@testable import CheckoutModel
import CheckoutResources
import Foundation
import Testing
import TestSupport

/// The catalog's fast reader: it reads every bundled catalog, and whatever it reads, JSONDecoder
/// reads the same (anything else goes to JSONDecoder, errors and all).
@Suite struct CatalogFastReaderTests {
    /// The catalog through the fast path (when it reads) and through JSONDecoder alone.
    private static func bothWays(_ data: Data) -> (fast: Result<Catalog, CatalogError>, decoded: Result<Catalog, CatalogError>) {
        (Result { () throws(CatalogError) in try Catalog(json: data) }, Result { () throws(CatalogError) in try Catalog(decoding: data) })
    }

    @Test(arguments: CheckoutResources.catalogCurrencies)
    func everyBundledCatalogIsReadFastAndAlike(currency: String) throws {
        let data = try CheckoutResources.catalogData(currency: currency)
        #expect(CatalogFastReader.read(data) != nil, "the bundled \(currency) catalog went to JSONDecoder")
        let (fast, decoded) = Self.bothWays(data)
        #expect(try fast.get() == decoded.get())
    }

    private static let small = #"""
        {"merchant": {"name": "M", "currency": "USD"},
         "items": [{"sku": "A", "name": "Añ", "unit_price": "1.00", "weight_grams": 5}, {"sku": "B", "name": "B", "unit_price": "2.50"}],
         "shipping_methods": [{"id": "s", "label": "S", "detail": "d", "amount": "0.00"}],
         "discounts": [{"id": "D", "label": "L", "amount_off": "1.00"}, {"id": "P", "label": "P", "percent_off_basis_points": 500}],
         "tax": {"label": "T", "rate_basis_points": 725},
         "default_cart": {"items": [{"sku": "A", "quantity": 2}], "discounts": ["D"], "shipping": "s"},
         "sample_customer": {"name": "J", "email": "j@e.com", "phone": "1",
           "addresses": [{"label": "H", "street": "1 A St", "city": "C", "state": "OR", "zip": "97209", "country": "US"}],
           "wallet_cards": [{"network": "visa", "last4": "4242", "label": "V"}]}}
        """#

    /// A null where a value may be left out reads as left out, as with JSONDecoder.
    @Test(arguments: [
        small.replacingOccurrences(of: #""weight_grams": 5"#, with: #""weight_grams": null"#),
        small.replacingOccurrences(of: #"{"label": "T", "rate_basis_points": 725}"#, with: "null"),
        small.replacingOccurrences(of: #""shipping": "s""#, with: #""shipping": null"#),
    ])
    func nullsWhereOptionalReadFastAndAlike(text: String) throws {
        let data = Data(text.utf8)
        #expect(CatalogFastReader.read(data) != nil)
        let (fast, decoded) = Self.bothWays(data)
        #expect(try fast.get() == decoded.get())
    }

    /// Shapes the fast reader leaves to JSONDecoder: the result (catalog or error) is the same.
    @Test(arguments: [
        // Unknown keys (JSONDecoder ignores them), escapes.
        small.replacingOccurrences(of: #""tax""#, with: #""note": "x", "tax""#),
        small.replacingOccurrences(of: #""Añ""#, with: #""A\u00f1 \"big\"""#),
        // Errors: a negative quantity, a fraction, a missing field, an unknown currency, a repeated key.
        small.replacingOccurrences(of: #""quantity": 2"#, with: #""quantity": -2"#),
        small.replacingOccurrences(of: #""weight_grams": 5"#, with: #""weight_grams": 5.5"#),
        small.replacingOccurrences(of: #""detail": "d", "#, with: ""),
        small.replacingOccurrences(of: #""USD""#, with: #""XYZ""#),
        small.replacingOccurrences(of: #""sku": "B", "#, with: #""sku": "B", "sku": "C", "#),
        "", "{}", "[]",
    ])
    func anythingElseEndsAsJSONDecoderSays(text: String) {
        let data = Data(text.utf8)
        #expect(CatalogFastReader.read(data) == nil)
        let (fast, decoded) = Self.bothWays(data)
        #expect(fast == decoded)
    }

    /// Every one-byte change and cut of a small catalog: whatever the fast reader still reads,
    /// JSONDecoder reads the same.
    @Test func noChangeOfOneByteMakesTheTwoDisagree() {
        let plain = Array(Self.small.utf8)
        #expect(CatalogFastReader.read(Data(plain)) != nil)
        let replacements = Array(#" "{}[],:0-.\n"#.utf8) + [0x00, 0xc3]
        var readFast = 0
        for variant in oneByteChanges(of: plain, replacements: replacements) where CatalogFastReader.read(Data(variant)) != nil {
            readFast += 1
            let (fast, decoded) = Self.bothWays(Data(variant))
            #expect(fast == decoded, "\(String(decoding: variant, as: UTF8.self))")
        }
        #expect(readFast > 100, "most changes inside strings stay plain")
    }
}
