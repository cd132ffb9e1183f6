import PaymentFlow
import ProviderClients

/// The commands by their own names, so key handlers read `.authorize`, not `.session(.authorize)`.
extension AppCommand {
    public static func pay(_ order: PaymentOrder, provider: ProviderPlan) -> AppCommand { .session(.pay(order, provider: provider)) }
    public static func changeOrder(_ order: PaymentOrder) -> AppCommand { .session(.changeOrder(order)) }
    public static let authorize = AppCommand.session(.authorize)
    public static let reset = AppCommand.session(.reset)
    public static func actAsCustomer(_ decision: SandboxControlClient.CustomerDecision, attemptID: String) -> AppCommand {
        .session(.actAsCustomer(decision, attemptID: attemptID))
    }
    public static func giveUp(afterSeconds seconds: Int) -> AppCommand { .session(.giveUp(afterSeconds: seconds)) }
    public static func loadSavedMethods(provider: String, reason: String?) -> AppCommand { .session(.loadSavedMethods(provider: provider, reason: reason)) }
    public static func deleteSavedMethod(_ method: SavedPaymentMethod) -> AppCommand { .session(.deleteSavedMethod(method)) }
    public static func answerPrompt(_ answer: PromptAnswer, promptID: String) -> AppCommand { .session(.answerPrompt(answer, promptID: promptID)) }
    public static func wait(_ timer: DriverTimer, seconds: Double) -> AppCommand { .session(.wait(timer, seconds: seconds)) }
    public static func openLink(_ url: String) -> AppCommand { .screen(.openLink(url)) }
    public static func copyToClipboard(_ text: String) -> AppCommand { .screen(.copyToClipboard(text)) }
}
