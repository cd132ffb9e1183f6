import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import TerminalUI

/// `checkout offline`: the Square payments taken offline on this machine, and their upload.
public enum SquareOfflineReport {
    /// One line per payment (or one JSON object per line): local id, when, card, total, state.
    public static func lines(_ payments: [SquareOfflinePayment], json: Bool) -> [String] {
        payments.map { payment in
            let total = (payment.request.amountMoney?.amount ?? 0) + (payment.request.tipMoney?.amount ?? 0)
            let currency = payment.request.amountMoney?.currency ?? "USD"
            var state = payment.state.name
            var fields: [String: Any] = [
                "local_id": payment.localID, "created_at": Date.ISO8601FormatStyle().format(payment.createdAt), "total": total, "currency": currency,
                "reference_id": payment.request.referenceID ?? "", "idempotency_key": payment.request.idempotencyKey, "state": payment.state.name,
                "card_brand": payment.cardBrand ?? "", "last_4": payment.last4 ?? "", "entry_method": payment.entryMethod ?? "",
            ]
            switch payment.state {
            case .queued: break
            case .uploaded(let id, let status):
                state += " as \(id) (\(status))"
                fields["payment_id"] = id
                fields["status"] = status
            case .declined(let code, let detail):
                state += " \(code): \(detail)"
                fields["error_code"] = code
                fields["error_detail"] = detail
            }
            if json { return JSONLine.encode(fields) }
            let money = Currency.withCode(currency).map { Money(minorUnits: total, currency: $0).formatted } ?? "\(total) \(currency)"
            return TerminalText.escapingControls(
                "\(payment.localID)  \(Date.ISO8601FormatStyle().format(payment.createdAt))  \(money)  "
                    + "\(payment.cardBrand ?? "card") \(payment.last4 ?? "????") \(payment.entryMethod ?? "")  \(state)")
        }
    }

    /// One pass of the uploader against the Square the options name (a sandbox by default).
    public static func upload(store: any SquareOfflineStore, values: ProviderOptionValues, sandboxURL: String?) async -> [SquareOfflineUploader.UploadResult] {
        let configuration = SquareOptions.configuration(values, sandboxURL: sandboxURL)
        let http = ProviderHTTPClient(redactor: Redactor(secrets: [configuration.accessToken]), retryPolicy: .standard.withMaxAttempts(2))
        return await SquareOfflineUploader(store: store, client: SquareClient(configuration: configuration, http: http)).uploadQueued()
    }

    public static func line(_ result: SquareOfflineUploader.UploadResult) -> String {
        SquareAdapter.uploadLine(result)
    }

    /// The queue's lines and how many payments are still queued.
    public static func listing(_ store: any SquareOfflineStore, json: Bool) async throws -> (lines: [String], queued: Int) {
        let payments = try await store.all()
        return (lines(payments, json: json), payments.filter { $0.state == .queued }.count)
    }

    /// Opens the queue at its default place (`TERMINALCHECKOUT_DATA_DIR`, XDG, ~/.local/share).
    public static func defaultStore() -> SquareOfflineDatabase { SquareOfflineDatabase() }
}
