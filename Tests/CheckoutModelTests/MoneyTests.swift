import CheckoutModel
import Testing

@Suite struct MoneyFormattingTests {
    @Test(arguments: [
        (123_456, "$1,234.56"), (5, "$0.05"), (-500, "-$5.00"), (0, "$0.00"),
        (100_000_000, "$1,000,000.00"), (99, "$0.99"), (100, "$1.00"),
    ])
    func formatsDollars(minorUnits: Int, expected: String) {
        #expect(Money(minorUnits: minorUnits, currency: .usd).formatted == expected)
    }

    @Test func formatsCurrenciesWithoutMinorUnits() {
        #expect(Money(minorUnits: 1_200, currency: .jpy).formatted == "¥1,200")
    }

    /// ISO 4217 gives baht and rupiah two minor units; each is written as its country writes it.
    @Test func formatsBahtAndRupiahWithTheirOwnSymbolAndGrouping() throws {
        #expect(Money(minorUnits: 129_000, currency: .thb).formatted == "฿1,290.00")
        #expect(Money(minorUnits: 129_000_050, currency: .idr).formatted == "Rp1.290.000,50")
        #expect(Money(minorUnits: -5, currency: .idr).formatted == "-Rp0,05")
        #expect(Currency.withCode("thb") == .thb && Currency.withCode("IDR")?.minorUnitDigits == 2)
        #expect(try Money(decimal: "1290.00", currency: .thb).minorUnits == 129_000)
    }

    @Test(arguments: [(1999, "19.99"), (5, "0.05"), (-500, "-5.00"), (100_000, "1000.00")])
    func writesProviderDecimalStrings(minorUnits: Int, expected: String) {
        #expect(Money(minorUnits: minorUnits, currency: .usd).decimalString == expected)
    }
}

@Suite struct MoneyParsingTests {
    @Test(arguments: [("19.99", 1999), ("0.5", 50), ("1", 100), ("-5.00", -500), (" 7.25 ", 725), ("0.07", 7), (".5", 50)])
    func parsesExactly(text: String, minorUnits: Int) throws {
        #expect(try Money(decimal: text, currency: .usd).minorUnits == minorUnits)
    }

    @Test func neverLosesACentThatFloatingPointWould() throws {
        // 19.99 * 100 in Double is 1998.9999…, which the official SDK truncates to 1998.
        #expect(try Money(decimal: "19.99", currency: .usd).minorUnits == 1999)
        #expect(try Money(decimal: "4.35", currency: .usd).minorUnits == 435)
        #expect(try Money(decimal: "0.29", currency: .usd).minorUnits == 29)
    }

    @Test(arguments: ["19.999", "abc", "", "1.2.3", "1,000.00", "$5", "--1"])
    func rejectsWhatIsNotAnExactAmount(text: String) {
        #expect(throws: MoneyParseError.self) { try Money(decimal: text, currency: .usd) }
    }

    @Test func saysWhyTooManyDecimalsIsRejected() {
        do {
            _ = try Money(decimal: "1.5", currency: .jpy)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("JPY has 0 decimal places"))
        }
    }
}

@Suite struct MoneyArithmeticTests {
    @Test func addsSubtractsAndMultiplies() throws {
        let price = Money(minorUnits: 1650, currency: .usd)
        #expect(try (price * 2).minorUnits == 3300)
        #expect(try (price + price - Money(minorUnits: 300, currency: .usd)).minorUnits == 3000)
        #expect(try (-price).minorUnits == -1650)
        #expect(try [price, price, price].sum(in: .usd).minorUnits == 4950)
    }

    @Test(arguments: [(4200, 725, 305), (4200, 1000, 420), (1, 5000, 1), (3, 5000, 2), (-4200, 725, -305), (1999, 0, 0)])
    func portionsRoundHalfAwayFromZero(minorUnits: Int, basisPoints: Int, expected: Int) throws {
        #expect(try Money(minorUnits: minorUnits, currency: .usd).portion(basisPoints: basisPoints).minorUnits == expected)
    }

    /// Overflow is an error value, never a trap (which would kill a shared sandbox or a replay).
    @Test func overflowIsAnErrorNotATrap() {
        let most = Money(minorUnits: .max, currency: .usd)
        let least = Money(minorUnits: .min, currency: .usd)
        let cent = Money(minorUnits: 1, currency: .usd)
        #expect(throws: MoneyError.self) { try most + cent }
        #expect(throws: MoneyError.self) { try least - cent }
        #expect(throws: MoneyError.self) { try -least }
        #expect(throws: MoneyError.self) { try most * 2 }
        #expect(throws: MoneyError.self) { try most.portion(basisPoints: 10_000) }
        #expect(throws: MoneyError.self) { try [most, cent].sum(in: .usd) }
        #expect(least.formatted == "-$92,233,720,368,547,758.08")
    }

    @Test func mixingCurrenciesIsAnErrorNotATrap() {
        let dollars = Money(minorUnits: 100, currency: .usd)
        let yen = Money(minorUnits: 100, currency: .jpy)
        #expect(throws: MoneyError.currencyMismatch("USD", "JPY")) { try dollars + yen }
        #expect(dollars < yen || yen < dollars)
    }
}
