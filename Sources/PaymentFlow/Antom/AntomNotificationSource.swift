import ProviderWire

/// Where Antom's `notifyPayment` calls arrive: a local receiver whose URL goes in
/// `paymentNotifyUrl`. It verifies each signature and keeps only verified notifications.
public protocol AntomNotificationSource: Sendable {
    /// Starts listening (once); returns the URL Antom should post to.
    func prepare() async throws(ProviderFailure) -> String
    /// The latest verified notification for `paymentRequestId`, waiting up to `timeout` for one.
    func notification(for paymentRequestId: String, timeout: Duration) async -> AntomNotifyPayment?
    func close() async
}
