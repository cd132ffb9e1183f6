import ProviderWire

/// Where verified Adyen notifications arrive (the local receiver registered with a sandbox,
/// or none): a `Received` payment is decided by its AUTHORISATION webhook.
public protocol AdyenWebhookSource: Sendable {
    /// Readies the receiver (starts it, registers it); a failure is worded for the user.
    func prepare() async throws(ProviderFailure)
    /// The first verified AUTHORISATION for `pspReference`, or nil when none came within `timeout`.
    func authorisation(for pspReference: String, timeout: Duration) async -> AdyenNotificationItem?
    /// Unregisters and stops the receiver.
    func close() async
}
