import CheckoutApp
import CheckoutModel
import Testing

/// The wallet flags read from text: what each accepts, and that each error names the flag and form.
@Suite struct WalletSpecsTests {
    /// The error `parse` throws for `text`, failing the test when it parses.
    private func failure<T>(_ text: String, _ parse: (String) throws(WalletSpecError) -> T) -> WalletSpecError? {
        do {
            let value = try parse(text)
            Issue.record("\"\(text)\" parsed as \(value)")
            return nil
        } catch {
            return error
        }
    }

    // MARK: --address

    @Test func anAddressIsFiveTrimmedPartsLabelledEntered() throws {
        let address = try ShippingAddress.parse(" 1 Main St , Portland,OR, 97201 ,us ")
        #expect(address == ShippingAddress(
            label: "Entered", name: "", street: "1 Main St", city: "Portland", state: "OR", zip: "97201", country: "US"))
        #expect(address.oneLine == "1 Main St, Portland OR 97201, US")
    }

    @Test(arguments: [
        ("1 Main St,Portland,OR", "has 3 comma-separated parts, not 5"),
        ("1 Main St,Portland,OR,97201,US,Earth", "has 6 comma-separated parts, not 5"),
        ("1 Main St, ,OR,97201,US", "city must not be empty"),
        ("1 Main St,Portland,OR,9720197201972,US", "ZIP must be at most 12 characters"),
        ("1 Main St,Portland,OR,97201,USA", "country must be two letters (ISO 3166 alpha-2, e.g. US)"),
        ("1 Main St,Portland,OR,97201,U1", "country must be two letters (ISO 3166 alpha-2, e.g. US)"),
    ])
    func aBadAddressSaysWhatIsWrongAndTheForm(text: String, problem: String) {
        let error = failure(text, ShippingAddress.parse)
        #expect(error?.flag == "--address")
        #expect(error?.problem == problem)
        #expect(error?.description == "--address: \(problem); expected 'street,city,state,zip,country' (e.g. '1 Main St,Portland,OR,97201,US')")
    }

    // MARK: --wallet-cards

    @Test func walletCardsAreNetworkLast4PairsInAnyCase() throws {
        let cards = try SavedCard.parseList("VISA:4242, mastercard:4444 ,Discover:1117,")
        #expect(cards == [
            SavedCard(network: .visa, last4: "4242"), SavedCard(network: .mastercard, last4: "4444"),
            SavedCard(network: .discover, last4: "1117"),
        ])
        #expect(cards.map(\.label) == ["Visa •••• 4242", "Mastercard •••• 4444", "Discover •••• 1117"])
    }

    @Test(arguments: [
        ("visa:42", "last4 in \"visa:42\" must be exactly 4 digits (e.g. 4242)"),
        ("visa:42a4", "last4 in \"visa:42a4\" must be exactly 4 digits (e.g. 4242)"),
        ("paypal:1234", "unknown card network \"paypal\" in \"paypal:1234\""),
        ("visa", "\"visa\" is not network:last4"),
        ("visa:4242:1", "\"visa:4242:1\" is not network:last4"),
        ("visa:4242,Visa:4242", "\"Visa:4242\" is listed twice"),
        (" , ", "no cards given"),
    ])
    func badWalletCardsSayWhatIsWrong(text: String, problem: String) {
        let error = failure(text, SavedCard.parseList)
        #expect(error?.flag == "--wallet-cards")
        #expect(error?.problem == problem)
        #expect(error?.description.hasSuffix("network one of amex, discover, jcb, mastercard, visa, unionpay") == true)
    }

    // MARK: --wallet-addresses

    @Test func walletAddressesAreLabelledAndSeparatedBySemicolons() throws {
        let addresses = try ShippingAddress.parseList("Home=1 Main St,Portland,OR,97201,US; Office = 350 Fifth Ave,New York,NY,10118,us;")
        #expect(addresses.map(\.label) == ["Home", "Office"])
        #expect(addresses.map(\.oneLine) == ["1 Main St, Portland OR 97201, US", "350 Fifth Ave, New York NY 10118, US"])
        #expect(addresses.allSatisfy { $0.name.isEmpty })
    }

    @Test(arguments: [
        ("1 Main St,Portland,OR,97201,US", "\"1 Main St,Portland,OR,97201,US\" has no Label="),
        ("=1 Main St,Portland,OR,97201,US", "the label of \"=1 Main St,Portland,OR,97201,US\" must not be empty"),
        ("Home=1 Main St,Portland,OR,97201,US;home=2 Oak St,Portland,OR,97201,US", "the label \"home\" is used twice"),
        ("Home=1 Main St,Portland,OR,97201,US;Office=350 Fifth Ave,NY", "Office: has 2 comma-separated parts, not 5"),
        ("Home=1 Main St,Portland,OR,97201,XXX", "Home: country must be two letters (ISO 3166 alpha-2, e.g. US)"),
        (";", "no addresses given"),
    ])
    func badWalletAddressesNameTheEntry(text: String, problem: String) {
        let error = failure(text, ShippingAddress.parseList)
        #expect(error?.flag == "--wallet-addresses")
        #expect(error?.problem == problem)
        #expect(error?.description.contains("'Label=street,city,state,zip,country' entries separated by ';'") == true)
    }

    // MARK: --networks

    @Test func networksAreKnownSpellingsInAnyCase() throws {
        #expect(try CardNetwork.parseList("amex, MasterCard,visa") == [.amex, .mastercard, .visa])
        #expect(CardNetwork.allCases.map(\.displayName) == ["Amex", "Discover", "JCB", "Mastercard", "Visa", "UnionPay"])
    }

    @Test(arguments: [
        ("amex,paypal", "unknown card network \"paypal\""),
        ("visa,VISA", "\"VISA\" is listed twice"),
        ("", "no card networks given"),
    ])
    func badNetworksListTheSpellings(text: String, problem: String) {
        let error = failure(text, CardNetwork.parseList)
        #expect(error?.problem == problem)
        #expect(error?.description == "--networks: \(problem); expected a comma-separated list of amex, discover, jcb, mastercard, visa, unionpay (e.g. amex,mastercard,visa)")
    }

    // MARK: --require

    @Test func requiredContactFieldsTakeBothPostalSpellings() throws {
        #expect(try ContactField.parseList("postal,email,phone") == [.postalAddress, .email, .phone])
        #expect(try ContactField.parseList("Postal-Address, NAME") == [.postalAddress, .name])
        #expect(try ContactField.parseList("") == [])
    }

    @Test(arguments: [
        ("postal,address", "unknown contact field \"address\""),
        ("postal,postal-address", "\"postal-address\" is listed twice"),
    ])
    func badContactFieldsListTheSpellings(text: String, problem: String) {
        let error = failure(text, ContactField.parseList)
        #expect(error?.description == "--require: \(problem); expected a comma-separated list of postal (or postal-address), email, phone, name")
    }

    // MARK: a form-entered address

    @Test func aFormAddressNamesTheFieldThatIsWrong() {
        let good = ShippingAddress(label: "Entered", name: "Jamie Rivera", street: "1 Main St", city: "Portland", state: "OR", zip: "97201", country: "us")
        #expect(good.validationProblem() == nil)
        #expect(good.country == "US")
        func with(name: String = "Jamie", street: String = "1 Main St", city: String = "Portland", state: String = "OR", zip: String = "97201", country: String = "US") -> String? {
            ShippingAddress(label: "", name: name, street: street, city: city, state: state, zip: zip, country: country).validationProblem()
        }
        #expect(with(name: " ") == "name must not be empty")
        #expect(with(street: "") == "street must not be empty")
        #expect(with(city: String(repeating: "x", count: 201)) == "city must be at most 200 characters")
        #expect(with(state: "") == "state must not be empty")
        #expect(with(zip: "") == "ZIP must not be empty")
        #expect(with(zip: "1234567890123") == "ZIP must be at most 12 characters")
        #expect(with(country: "U") == "country must be two letters (ISO 3166 alpha-2, e.g. US)")
        #expect(with(country: "") == "country must not be empty")
    }

    @Test func oneLineLeavesOutEmptyParts() {
        let toronto = ShippingAddress(label: "Toronto", name: "", street: "100 Queen St W", city: "Toronto", state: "ON", zip: "M5H 2N2", country: "ca")
        #expect(toronto.oneLine == "100 Queen St W, Toronto ON M5H 2N2, CA")
        let noState = ShippingAddress(label: "", name: "", street: "1 High St", city: "Oxford", state: "", zip: "OX1 4AA", country: "GB")
        #expect(noState.oneLine == "1 High St, Oxford OX1 4AA, GB")
    }
}
