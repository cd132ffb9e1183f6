import Foundation
import ProviderWire

/// Adyen payment sessions (`POST /sessions`) by id: what the session was made with, the latest
/// `sessionData` (every component answer replaces it), and the payments made in it. Bounded
/// like the payments: past the retention age or the capacity, the oldest are forgotten.
public final class AdyenSessionStore: Sendable {
    struct Session: StoredRecord, Codable, Equatable {
        let id: String
        let created: AdyenSessionResponse
        let expiresAt: Date
        let storeMode: AdyenStorePaymentMethodMode
        /// The sessionData the next component call must send.
        var sessionData: String
        /// The one before it, with the call that replaced it and that call's answer: the same
        /// call sent again (a retry after a lost answer) gets the same answer.
        var previousSessionData: String?
        var lastCall: Data?
        var lastAnswer: Data?
        /// The session's payments, oldest first.
        var payments: [String] = []

        var storeKey: String { id }

        var amount: AdyenAmount { created.amount }
        var shopperReference: String? { created.shopperReference }
        /// Whether the shopper's stored methods are offered and new ones may be stored.
        var storesMethods: Bool { shopperReference != nil && storeMode != .disabled }
    }

    private let sessions: ProviderStore<Session>

    init(storage: any SandboxStorage) {
        sessions = ProviderStore("adyen.sessions", in: storage)
    }

    public var count: Int { get async throws { try await sessions.count() } }

    func add(_ session: Session, now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) -> Session {
        switch try await sessions.create(at: StoreMoment(now: now, limits: limits), make: { _ in session }) {
        case .created(let kept), .replayed(let kept), .keyReused(let kept), .claimTaken(let kept): kept
        }
    }

    func session(_ id: String) async throws(SandboxStoreUnavailable) -> Session? { try await sessions.record(.key(id)) }

    enum Begin {
        /// Go ahead: the call's answer must carry `sessionData`.
        case fresh(Session, sessionData: String)
        /// The same call as the last one, with the sessionData it sent: its answer again.
        case replay(Data)
        case stale
        case unknown
    }

    /// A component call with `sessionData` starts: the latest one moves the session on to a new
    /// sessionData at once (so two calls cannot both use it); the previous one with the very
    /// same call replays that call's answer; anything else is stale.
    func begin(_ id: String, sessionData: String, call: Data) async throws(SandboxStoreUnavailable) -> Begin {
        let next = Self.newSessionData()
        let outcome = try await sessions.update(.key(id)) { session -> Begin in
            if session.sessionData == sessionData {
                session.previousSessionData = sessionData
                session.sessionData = next
                session.lastCall = call
                session.lastAnswer = nil
                return .fresh(session, sessionData: next)
            }
            if session.previousSessionData == sessionData, session.lastCall == call, let answer = session.lastAnswer { return .replay(answer) }
            return .stale
        }
        return outcome.value ?? .unknown
    }

    /// The call's answer, kept for a retry of the same call.
    func finish(_ id: String, sessionData: String, answer: Data, payment: String?) async throws(SandboxStoreUnavailable) {
        _ = try await sessions.update(.key(id)) { session in
            guard session.sessionData == sessionData else { return }
            session.lastAnswer = answer
            if let payment, !session.payments.contains(payment) { session.payments.append(payment) }
        }
    }

    /// The call was refused: the sessionData it sent stays the latest (a refusal carries none).
    func abort(_ id: String, sessionData: String) async throws(SandboxStoreUnavailable) {
        _ = try await sessions.update(.key(id)) { session in
            guard session.sessionData == sessionData, let previous = session.previousSessionData else { return }
            session.sessionData = previous
            session.previousSessionData = nil
            session.lastCall = nil
            session.lastAnswer = nil
        }
    }

    func evictDue(now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) {
        try await sessions.settle(at: StoreMoment(now: now, limits: limits))
    }

    /// Opaque, as Adyen's (which is encrypted): a prefix as Adyen's has, then 32 random bytes.
    static func newSessionData() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "Ab02b4c0!" + Data(bytes).base64EncodedString()
    }

    /// `CS` and 16 of [0-9A-F], as Adyen's session ids (`CS451F2AB1ED897A94`).
    static func newSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return "CS" + String((0..<16).map { _ in Array("0123456789ABCDEF").randomElement(using: &generator)! })
    }

    /// The `sessionResult` a payment answer carries: opaque; `GET /sessions/{id}` reads the
    /// session's status whatever it is given (Adyen's is encrypted; the sandbox does not decode it).
    static func newSessionResult() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<24).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return "X3XtfGC9!" + Data(bytes).base64EncodedString()
    }
}

extension AdyenSessionStore.Session {
    /// The status `GET /sessions/{id}` answers: from the latest payment as it stands now (a
    /// Received one is decided later by its webhook), else active until `expiresAt`.
    func status(latest payment: AdyenPaymentStore.Payment?, now: Date) -> AdyenSessionStatus {
        switch payment?.resultCode {
        case .authorised?: return .completed
        case .received?, .pending?, .redirectShopper?: return .paymentPending
        case .cancelled?: return .canceled
        case .refused?, .error?: return .refused
        case nil: return now >= expiresAt ? .expired : .active
        }
    }
}
