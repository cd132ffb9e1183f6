import CheckoutApp
import Testing

/// Help lines fit their width, keep every word in order, and count characters, not bytes.
@Suite struct HelpTextTests {
    @Test func wordsFillLinesUpToTheWidth() {
        #expect(HelpText.wrap("one two three four five", width: 9) == ["one two", "three", "four five"])
        #expect(HelpText.wrap("", width: 10).isEmpty)
        #expect(HelpText.wrap("  spaced   out  ", width: 40) == ["spaced out"])
    }

    @Test func aWordLongerThanTheWidthStandsAlone() {
        #expect(HelpText.wrap("a https://example.com/a/very/long/path b", width: 10) == ["a", "https://example.com/a/very/long/path", "b"])
    }

    @Test func charactersAreCountedNotBytes() {
        // "≤ 3× floor" is 10 characters, 14 bytes: it fits in 10.
        #expect(HelpText.wrap("≤ 3× floor ok", width: 10) == ["≤ 3× floor", "ok"])
    }
}

/// The providers' help (and so `checkout --help` and the man page) reads the same on every
/// machine: nothing in it is worked out from the machine it runs on.
@Suite struct ProviderHelpTests {
    @Test func noOptionsHelpNamesThisMachine() {
        let machineShopper = AdyenOptions.defaultShopperReference
        for option in ProviderRegistry.builtIn.options {
            #expect(!option.help.contains(machineShopper), "--\(option.flag): \(option.help)")
        }
    }

    /// ArgumentParser lays a discussion out at 80 columns and wraps a line of 80 again, leaving
    /// its last word alone on the next line, unindented (`asks` under --account-reference-id).
    @Test func everyLineFitsArgumentParsersColumns() {
        for line in ProviderCommandLine.help.split(separator: "\n") {
            #expect(line.unicodeScalars.count <= 79, "\(line.unicodeScalars.count) characters: \(line)")
        }
    }
}
