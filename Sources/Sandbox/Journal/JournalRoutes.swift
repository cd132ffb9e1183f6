import Foundation
import Hummingbird
import ProviderWire

/// What `GET /sandbox/journal` asked for, checked.
struct JournalFilter: Sendable {
    /// Entries with a greater id (0: from the first).
    var afterID = 0
    /// `since=end`: none yet, only where the newest entry is (a follower's start).
    var fromEnd = false
    var from: Date?
    /// A provider's id; `.some(nil)` for the sandbox's own routes.
    var provider: String??
    var pathPrefix: String?
    var status: SandboxJournalQuery.StatusFilter?
    var reference: String?
    var limit = SandboxJournalQuery.defaultLimit

    func matches(_ entry: SandboxJournalEntry) -> Bool {
        if let from, entry.time < from { return false }
        if let provider, entry.provider != provider { return false }
        if let pathPrefix, !entry.path.hasPrefix(pathPrefix) { return false }
        if let status, !status.matches(entry.status) { return false }
        if let reference, !entry.references.contains(reference) { return false }
        return true
    }
}

/// `GET /sandbox/journal?since=&provider=&path=&status=&reference=&limit=`: the request journal,
/// oldest first, a page at a time (`SandboxJournalPage`). Each parameter it cannot take is a 400
/// in the sandbox's error list naming it and what it accepts.
struct JournalRoutes {
    let journal: SandboxJournal
    let providerIDs: [String]

    static let parameters = ["since", "provider", "path", "status", "reference", "limit"]

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.get("sandbox/journal") { request, _ in
            let filter: JournalFilter
            switch Self.filter(request.uri.queryParameters, providers: providerIDs) {
            case .success(let made): filter = made
            case .failure(let refusal): return refusal.response
            }
            return SandboxResponse.json(try await journal.page(filter))
        }
    }

    static func filter(_ query: Parameters, providers: [String]) -> Result<JournalFilter, SandboxError> {
        func refuse(_ name: String, _ message: String) -> Result<JournalFilter, SandboxError> {
            .failure(SandboxError(.badRequest, "INVALID_PARAMETER", message, field: name))
        }
        for (name, _) in query where !parameters.contains(String(name)) {
            return refuse(
                String(name.prefix(64)), "Unknown parameter \"\(name.prefix(64))\": GET /sandbox/journal takes \(parameters.joined(separator: ", ")).")
        }
        for name in parameters where query.getAll(name).count > 1 {
            return refuse(name, "\(name) is given more than once; give it once.")
        }
        var filter = JournalFilter()
        if let since = query.get("since") {
            switch SandboxJournalQuery.Since(parsing: since) {
            case .end: filter.fromEnd = true
            case .id(let id): filter.afterID = id
            case .time(let time): filter.from = time
            case nil: return refuse("since", "since must be \(SandboxJournalQuery.sinceRule), not \"\(since.prefix(64))\".")
            }
        }
        if let provider = query.get("provider") {
            if provider == SandboxJournalQuery.noProvider {
                filter.provider = .some(nil)
            } else if providers.contains(provider) {
                filter.provider = .some(provider)
            } else {
                let allowed = (providers + [SandboxJournalQuery.noProvider]).joined(separator: ", ")
                return refuse("provider", "provider must be one of \(allowed), not \"\(provider.prefix(64))\".")
            }
        }
        if let path = query.get("path") {
            guard path.hasPrefix("/"), path.count <= 2_048 else {
                return refuse("path", "path must be a path prefix starting with / (e.g. /v2/payments), at most 2048 characters.")
            }
            filter.pathPrefix = path
        }
        if let status = query.get("status") {
            guard let parsed = SandboxJournalQuery.statusFilter(status) else {
                return refuse("status", "status must be \(SandboxJournalQuery.statusRule), not \"\(status.prefix(64))\".")
            }
            filter.status = parsed
        }
        if let reference = query.get("reference") {
            guard !reference.isEmpty, reference.count <= JournalReferences.longest else {
                return refuse("reference", "reference must be a provider's id (1 to \(JournalReferences.longest) characters), e.g. a request or payment id.")
            }
            filter.reference = reference
        }
        if let limit = query.get("limit") {
            let range = SandboxJournalQuery.limits
            guard let value = Int(limit), range.contains(value) else {
                return refuse("limit", "limit must be a whole number from \(range.lowerBound) to \(range.upperBound), not \"\(limit.prefix(64))\".")
            }
            filter.limit = value
        }
        return .success(filter)
    }
}
