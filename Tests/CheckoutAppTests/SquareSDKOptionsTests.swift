@testable import CheckoutApp
import CheckoutModel
import PaymentFlow
import Testing

/// Square's SDK parameters as options: `--delay` in seconds or ISO 8601, the processing modes
/// and their alias, the prompt mode and the reader's steps, and what the reader then offers.
@Suite struct SquareSDKOptionsTests {
    @Test(arguments: [("600", "PT10M"), ("60", "PT1M"), ("3661", "PT1H1M1S"), ("PT10M", "PT10M"), ("P1D", "P1D")])
    func aDelayIsSentAsISO8601(given: String, sent: String) {
        #expect(SquareOptions.delayProblem(given) == nil)
        #expect(SquareOptions.delayDuration(given) == sent)
    }

    @Test func aDelayOfZeroSendsNoneSoSquareAppliesItsDefault() {
        #expect(SquareOptions.delayProblem("0") == nil)
        #expect(SquareOptions.delayDuration("0") == nil)
        let settings = SquareOptions.settings(ProviderOptionValues(["delay": "0"]))
        #expect(!settings.autocomplete && settings.delayDuration == nil)
    }

    @Test(arguments: ["59", "1", "PT59S", "ten", "-60", "1234567890"])
    func aBadDelaySaysWhatIsAllowed(value: String) {
        let problem = SquareOptions.delayProblem(value)
        #expect(problem?.hasPrefix("--delay must") == true, "\(problem ?? "nil")")
    }

    @Test(arguments: [
        ([:], SquarePaymentSettings.ProcessingMode.online), (["offline-capable": "true"], .offlineCapable),
        (["processing-mode": "auto-detect"], .offlineCapable), (["processing-mode": "offline-only"], .offlineOnly),
        (["processing-mode": "online-only"], .online), (["processing-mode": "auto-detect", "offline-capable": "true"], .offlineCapable),
    ])
    func processingModesAsTheSDKNamesThem(values: [String: String], mode: SquarePaymentSettings.ProcessingMode) {
        let options = ProviderOptionValues(values)
        #expect(SquareOptions.problem(options) == nil)
        #expect(SquareOptions.settings(options).processingMode == mode)
    }

    @Test func thePromptModeAndTheReaderStepsReachTheSettings() {
        let settings = SquareOptions.settings(ProviderOptionValues(["prompt": "custom", "reader-steps": "disconnect, connect,low-battery"]))
        #expect(settings.promptMode == .custom)
        #expect(settings.readerSteps == [.disconnect, .connect, .lowBattery])
        #expect(SquareOptions.settings(ProviderOptionValues()).promptMode == .default)
    }

    @Test func theReaderOffersWhatItTakesNow() {
        var reader = SquareReader()
        #expect(reader.available(keyedEntryAllowed: true) == [.tap, .dip, .swipe, .keyed])
        reader.apply(.lowBattery)
        #expect(reader.cardInputMethods == [.tap])
        reader.apply(.disconnect)
        #expect(reader.available(keyedEntryAllowed: false).isEmpty)
        reader.apply(.connect)
        reader.apply(.charged)
        #expect(reader.cardInputMethods == [.tap, .dip, .swipe])
    }

    /// The merchant-drawn prompt offers only the keys the reader takes, and a scripted customer
    /// with no way to present a card cancels.
    @Test func thePromptFollowsTheReader() {
        let total = Money(minorUnits: 4505, currency: .usd)
        let low = SquareAdapter.customPrompt(total: total, reader: SquareReader(batteryLow: true), keyedEntryAllowed: false)
        #expect(low.actions.map(\.key) == ["t", "x", "r", "b"])
        #expect(low.scripted["approve"]?.action == "tap")
        let gone = SquareAdapter.customPrompt(total: total, reader: SquareReader(connected: false), keyedEntryAllowed: false)
        #expect(gone.actions.map(\.key) == ["x", "r"])
        #expect(gone.scripted["approve"]?.action == "cancel")
    }
}
