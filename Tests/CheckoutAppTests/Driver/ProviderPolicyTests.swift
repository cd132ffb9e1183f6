@testable import CheckoutApp
import Foundation
import PaymentFlow
import Testing

/// What a provider's descriptor contributes to the screen and the driver, rather than code
/// outside its folder naming it.
@Suite struct ProviderPolicyTests {
    @Test func thePromptBoxSaysWhichProviderAPassedDeadlineWaitsFor() {
        let prompt = CustomerPrompt(id: "authorized", title: "Authorized", actions: [], deadline: Screens.start)
        let square = ProviderDescriptor.square.method
        #expect(PromptView.countdownLine(prompt, now: Screens.start.addingTimeInterval(1), waiting: square.waitingSentence)
            == "The delay has passed; waiting for Square…")
        #expect(PromptView.countdownLine(prompt, now: Screens.start.addingTimeInterval(-61), waiting: square.waitingSentence) == "Delay passes in 1:01")
    }

    @Test func onlyTheProviderThatSaysSoRefreshesSavedMethodsOnANotice() {
        let methods = ProviderRegistry.builtIn.paymentMethods
        let refreshing = methods.filter { $0.refreshesSavedMethods(after: "recurring.token.disabled") }.map(\.id)
        #expect(refreshing == ["adyen"])
        #expect(!ProviderDescriptor.adyen.method.refreshesSavedMethods(after: "AUTHORISATION"))
    }

    @Test func bannerSentencesAreKeyedByNeutralNames() {
        let attempt = Screens.request(provider: "square")
        #expect(ProviderDescriptor.square.method.sentence(for: .creatingRequest(attempt)) == "Card read; Square is taking the payment…")
        #expect(ProviderDescriptor.square.method.sentence(for: .declined(attempt)) == "Square declined the card.")
        // A locale's table keyed by state name keeps every sentence under the neutral key.
        let antom = ProviderDescriptor.antom.method
        #expect(antom.stateSentences.count == AntomLocale.english.stateSentences.count)
        #expect(antom.sentence(for: .creatingRequest(attempt)) == AntomLocale.english.stateSentences["creatingCustomerRequest"])
    }

    @Test func squaresTipIsAnsweredAtOnceItsReaderAfterTheBehavioursDelay() {
        #expect(ProviderDescriptor.square.method.promptsAnsweredAtOnce == ["tip"])
        #expect(ProviderRegistry.builtIn.paymentMethods.filter { !$0.promptsAnsweredAtOnce.isEmpty }.map(\.id) == ["square"])
    }
}
