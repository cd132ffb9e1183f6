import Foundation
import ProviderClients
import ProviderWire

/// Hands the payments taken offline to Square once it answers again, oldest first, each with
/// the create body it was queued with (the same idempotency key, so an upload retried after a
/// crash or a lost answer never charges twice) plus `offline_payment_details`.
///
/// What Square answers decides each entry: a payment → uploaded; a refusal (a 4xx with Square's
/// errors, PAYMENT_METHOD_ERROR above all) → declined, kept and shown; no answer, Square's own
/// 5xx, a rate limit or a rejected access token → left queued, and the pass stops there (the
/// rest would meet the same Square).
public struct SquareOfflineUploader: Sendable {
    /// What one pass did with one queued payment.
    public struct UploadResult: Sendable, Hashable {
        public enum Outcome: Sendable, Hashable {
            /// Square took it (the store now says so).
            case uploaded(paymentID: String, status: String)
            /// Square refused it (the store now says so): the first error's code and detail.
            case declined(code: String, detail: String)
            /// Still queued: Square did not take or refuse it (unreachable, 5xx, rate-limited, …),
            /// and the pass stopped here.
            case unreachable(reason: String)
            /// Still queued: not tried, because an earlier upload of this pass found Square unreachable.
            case skipped
            /// Square answered (`uploaded` or `declined`, as `answer` says) but the store could not
            /// record it; the entry is still queued, and its next upload (same key) gets the same answer.
            case notRecorded(answer: String, reason: String)
            /// The queue itself could not be read (`localID` is empty): nothing was uploaded.
            case queueUnreadable(reason: String)
        }

        public var localID: String
        public var outcome: Outcome

        public init(localID: String, outcome: Outcome) {
            self.localID = localID
            self.outcome = outcome
        }

        /// Whether the payment is still waiting for Square after this pass.
        public var isStillQueued: Bool {
            switch outcome {
            case .uploaded, .declined: false
            case .unreachable, .skipped, .notRecorded, .queueUnreadable: true
            }
        }
    }

    public let store: any SquareOfflineStore
    public let client: SquareClient

    public init(store: any SquareOfflineStore, client: SquareClient) {
        self.store = store
        self.client = client
    }

    /// One pass over the queue, oldest first; one result per queued payment (none when the queue
    /// is empty, one `queueUnreadable` when it cannot be read).
    public func uploadQueued() async -> [UploadResult] {
        let queued: [SquareOfflinePayment]
        do {
            queued = try await store.all().filter { $0.state == .queued }
        } catch {
            return [UploadResult(localID: "", outcome: .queueUnreadable(reason: Self.text(error)))]
        }
        var results: [UploadResult] = []
        var stopped = false
        for payment in queued {
            guard !stopped, !Task.isCancelled else {
                results.append(UploadResult(localID: payment.localID, outcome: .skipped))
                continue
            }
            let outcome = await upload(payment)
            if case .unreachable = outcome { stopped = true }
            results.append(UploadResult(localID: payment.localID, outcome: outcome))
        }
        return results
    }

    /// The body sent for `payment`: the queued request with when the reader took it.
    public static func uploadRequest(for payment: SquareOfflinePayment) -> SquareCreatePaymentRequest {
        var request = payment.request
        request.offlinePaymentDetails = SquareOfflinePaymentDetails(clientCreatedAt: ISO8601Milliseconds.string(from: payment.createdAt))
        return request
    }

    /// What Square's answer to an upload means for the queued payment.
    public enum Verdict: Sendable, Hashable {
        case uploaded(paymentID: String, status: String)
        case declined(code: String, detail: String)
        case unreachable(reason: String)
    }

    /// A decline is Square judging this payment: a 4xx with its errors. Rate limits (429) and
    /// a rejected access token (AUTHENTICATION_ERROR) judge the seller's setup, not the card,
    /// so they leave it queued, as do no answer, a 5xx and an answer that is not Square's JSON.
    public static func verdict(_ failure: SquareFailure) -> Verdict {
        switch failure {
        case .api(let status, let body):
            if (400..<500).contains(status), status != 429, let first = body.errors.first,
                !body.errors.contains(where: { $0.category == "AUTHENTICATION_ERROR" })
            {
                return .declined(code: first.code, detail: first.detail ?? "")
            }
            return .unreachable(reason: failure.description)
        case .transport, .emptyBody, .undecodable:
            return .unreachable(reason: failure.description)
        }
    }

    private func upload(_ payment: SquareOfflinePayment) async -> UploadResult.Outcome {
        let verdict: Verdict
        do throws(SquareFailure) {
            let uploaded = try await client.createPayment(Self.uploadRequest(for: payment))
            verdict = .uploaded(paymentID: uploaded.id, status: uploaded.status)
        } catch {
            verdict = Self.verdict(error)
        }
        switch verdict {
        case .uploaded(let paymentID, let status):
            do {
                try await store.markUploaded(localID: payment.localID, paymentID: paymentID, status: status)
            } catch {
                return .notRecorded(answer: "uploaded as \(paymentID) (\(status))", reason: Self.text(error))
            }
            return .uploaded(paymentID: paymentID, status: status)
        case .declined(let code, let detail):
            do {
                try await store.markDeclined(localID: payment.localID, code: code, detail: detail)
            } catch {
                return .notRecorded(answer: "declined (\(code))", reason: Self.text(error))
            }
            return .declined(code: code, detail: detail)
        case .unreachable(let reason):
            return .unreachable(reason: reason)
        }
    }

    private static func text(_ error: any Error) -> String {
        String(describing: error)
    }
}
