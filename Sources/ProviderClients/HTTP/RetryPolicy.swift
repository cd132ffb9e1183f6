/// How often and how patiently a failed attempt is tried again: delay × (2^n − 1) before
/// retry n, as PayKit does, so with 2 s: 2, 6, 14, 30 s.
public struct RetryPolicy: Sendable, Hashable {
    public var maxAttempts: Int
    public var baseDelay: Duration

    public init(maxAttempts: Int, baseDelay: Duration) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
    }

    /// PayKit's retrieval policy: 5 attempts, 2 s base delay.
    public static let standard = RetryPolicy(maxAttempts: 5, baseDelay: .seconds(2))
    public static let never = RetryPolicy(maxAttempts: 1, baseDelay: .zero)

    /// The pause before retry `retry` (1 for the first retry).
    public func delay(beforeRetry retry: Int) -> Duration {
        baseDelay * ((1 << min(retry, 20)) - 1)
    }

    /// A policy with the same delays and a different number of attempts.
    public func withMaxAttempts(_ attempts: Int) -> RetryPolicy {
        RetryPolicy(maxAttempts: attempts, baseDelay: baseDelay)
    }
}

/// Pauses for a duration; tests pass one that does not really wait.
public typealias Sleeper = @Sendable (Duration) async throws -> Void

public let realSleeper: Sleeper = { try await Task.sleep(for: $0) }
