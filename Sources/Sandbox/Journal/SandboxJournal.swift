import Foundation
import Hummingbird
import Logging
import NIOCore
import ProviderWire
import ServiceLifecycle
import Synchronization

/// The request journal: every request the sandbox serves (but reads of the journal itself), kept
/// redacted in the sandbox's storage (the log "sandbox.journal": on a database, every instance's
/// requests in one journal) for `GET /sandbox/journal`, and told to the access log.
///
/// A request never waits on the store: its capture goes into a bounded buffer here, and one
/// background task (this service's `run`) redacts, logs and appends them in batches. A full
/// buffer drops new captures, counted and reported once. A read first waits until every capture
/// already buffered is written, so a request is listed by the instance that served it as soon as
/// its answer is out.
final class SandboxJournal: Service, Sendable {
    /// Captures waiting to be written at most; past it new ones are dropped.
    static let bufferCapacity = 8_192
    /// Captures written to the store in one batch at most.
    static let batchLimit = 512
    /// How long the writer lets requests gather once one is waiting (unless a reader or the
    /// sandbox's stop cuts it short).
    static let standardGathering = Duration.milliseconds(10)
    /// The log's name in the sandbox's storage.
    static let storeName = "sandbox.journal"
    /// The only path the journal does not journal (nor log): its own reads.
    static let ownPath = "/sandbox/journal"

    private struct State {
        var pending: [JournalCapture] = []
        /// Captures accepted so far, and those written (or given up) by the writer.
        var accepted = 0
        var written = 0
        var reportedFull = false
        var failing = false
        var finished = false
        var writerEnded = false
        var wake: CheckedContinuation<Void, Never>?
        /// The writer's pause while requests gather; the end of the journal or a reader cuts it short.
        var gatheringPause: Task<Void, Never>?
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let log: any SandboxRecordLog<JournalRecord>
    private let settings: SandboxSettings
    /// Turns captures into entries (redacted), when they are listed or written to a database.
    let maker: JournalEntryMaker

    /// The writer's pause while requests gather.
    private let gathering: Duration

    init(settings: SandboxSettings, providers: [any SandboxProvider], gathering: Duration = standardGathering) {
        self.settings = settings
        self.gathering = gathering
        self.maker = JournalEntryMaker(providers: providers)
        self.log = settings.storage.log(Self.storeName, of: JournalRecord.self)
    }

    /// Which provider registered each route ("METHOD /pattern").
    func serve(routeOwners owners: [String: String]) {
        maker.serve(routeOwners: owners)
    }

    /// What the journal keeps: entries up to `maxJournalEntries`, for `requestRetention` seconds.
    private var moment: StoreMoment {
        StoreMoment(now: settings.now(), retention: Retention(age: settings.limits.requestRetention, capacity: settings.limits.maxJournalEntries))
    }

    // MARK: - Capturing (on the request's path)

    /// Whether `request` is left out: the journal's own reads.
    func skips(_ request: Request) -> Bool {
        request.uri.path == Self.ownPath
    }

    /// Serves `request` through `respond`, capturing it. The request body is read here (at most
    /// `maxBodyBytes`, as every route reads it) and handed on as one buffer, so the route reads it
    /// without a second copy; the answer's body is gathered the same way.
    func capture(
        _ request: Request, context: SandboxRequestContext,
        _ respond: (Request, SandboxRequestContext) async throws -> Response
    ) async throws -> Response {
        let clock = ContinuousClock()
        let started = clock.now
        let time = settings.now()
        var request = request
        var context = context
        let note = JournalNote()
        context.journalNote = note
        var requestBody: ByteBuffer?
        var requestBytes = 0
        let declaredLength = request.headers.value(.contentLength)
        if let declared = declaredLength.flatMap({ Int($0) }) {
            requestBytes = declared
        }
        if Self.hasBody(request, declaredLength: declaredLength), requestBytes <= settings.limits.maxBodyBytes {
            let limit = settings.limits.maxBodyBytes
            do {
                let body = try await request.body.collect(upTo: limit)
                request.body = RequestBody(buffer: body)
                requestBytes = body.readableBytes
                requestBody = Self.prefix(body)
            } catch is NIOTooManyBytesError {
                // More than any route reads: each refuses it (413) as it would have.
                request.body = RequestBody(buffer: ByteBuffer(repeating: 0, count: limit + 1))
                requestBytes = limit + 1
            }
        }
        let served = request
        let servedContext = context
        let (body, bytes) = (requestBody, requestBytes)
        let response: Response
        do {
            response = try await respond(served, servedContext)
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            record(JournalCapture(
                time: time, duration: clock.now - started, method: served.method.rawValue, target: Self.target(served),
                requestHeaders: served.headers, requestBody: body, requestBodyBytes: bytes, status: status,
                responseHeaders: [:], responseBody: [], responseBodyBytes: 0, endpoint: servedContext.endpointPath, claimant: note.claimant, fault: note.fault))
            throw error
        }
        let answer = CollectedBody()
        let finish: @Sendable () -> Void = { [self] in
            record(JournalCapture(
                time: time, duration: clock.now - started, method: served.method.rawValue, target: Self.target(served),
                requestHeaders: served.headers, requestBody: body, requestBodyBytes: bytes, status: Int(response.status.code),
                responseHeaders: response.headers, responseBody: Self.prefix(answer.buffers), responseBodyBytes: answer.bytes,
                endpoint: servedContext.endpointPath, claimant: note.claimant, fault: note.fault))
        }
        guard let length = response.body.contentLength, length <= Self.gatheredBodyBytes else {
            // A body of unknown or great length passes through, its start kept.
            var passing = response
            let original = response.body
            passing.body = ResponseBody(contentLength: response.body.contentLength) { writer in
                try await original.write(CapturingWriter(inner: writer, body: answer, finished: finish))
            }
            return passing
        }
        // Gathered before it is sent (buffers shared, not copied), so the entry is buffered
        // before the client can have the whole answer.
        var gathered = response
        if length > 0 {
            try await response.body.write(CollectingWriter(body: answer))
            gathered.body = answer.buffers.count == 1 ? ResponseBody(byteBuffer: answer.buffers[0]) : ResponseBody(contentsOf: answer.buffers)
        }
        finish()
        return gathered
    }

    /// Answers up to this many bytes are gathered before they are sent; longer ones stream.
    static let gatheredBodyBytes = 4 << 20

    private static func hasBody(_ request: Request, declaredLength: String?) -> Bool {
        if let length = declaredLength { return length != "0" }
        return request.headers.contains(.transferEncoding)
    }

    private static func target(_ request: Request) -> String {
        request.head.path ?? request.uri.description
    }

    /// The kept part of a request body: copied (at most `maxBodyBytes`, once), because the body
    /// the route reads is a slice of the connection's receive buffer, which NIO reuses for the
    /// next read unless something else still holds it.
    private static func prefix(_ buffer: ByteBuffer) -> ByteBuffer? {
        guard buffer.readableBytes > 0 else { return nil }
        return ByteBuffer(bytes: buffer.readableBytesView.prefix(SandboxJournalEntry.maxBodyBytes))
    }

    /// The first `SandboxJournalEntry.maxBodyBytes` of a body written in parts (shared, not copied).
    private static func prefix(_ buffers: [ByteBuffer]) -> [ByteBuffer] {
        var kept: [ByteBuffer] = []
        var room = SandboxJournalEntry.maxBodyBytes
        for buffer in buffers where room > 0 {
            let part = buffer.readableBytes <= room ? buffer : buffer.getSlice(at: buffer.readerIndex, length: room) ?? buffer
            room -= part.readableBytes
            kept.append(part)
        }
        return kept
    }

    /// Buffers a capture for the writer; drops it (reported once) when the buffer is full.
    func record(_ capture: JournalCapture) {
        let (wake, full): (CheckedContinuation<Void, Never>?, Bool) = state.withLock { state in
            guard state.pending.count < Self.bufferCapacity else {
                let first = !state.reportedFull
                state.reportedFull = true
                return (nil, first)
            }
            state.pending.append(capture)
            state.accepted += 1
            let wake = state.wake
            state.wake = nil
            return (wake, false)
        }
        wake?.resume()
        if full {
            settings.reportProblem?(
                "the request journal's buffer is full (\(Self.bufferCapacity) requests waiting for the store): "
                    + "requests are served but left out of the journal until it drains")
        }
    }

    // MARK: - Writing (the background task)

    func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await write()
            } onCancel: {
                self.finish()
            }
        } onGracefulShutdown: {
            self.finish()
        }
    }

    /// The writer is in its pause, letting requests gather.
    var isGathering: Bool { state.withLock { $0.gatheringPause != nil } }

    /// Stops the writer once what is buffered is written.
    private func finish() {
        let (wake, pause) = state.withLock { state in
            state.finished = true
            let wake = state.wake
            state.wake = nil
            return (wake, state.gatheringPause)
        }
        pause?.cancel()
        wake?.resume()
    }

    private func write() async {
        while let batch = await nextBatch() {
            await keep(batch)
            let ready = state.withLock { state in
                state.written += batch.count
                let written = state.written
                let ready = state.waiters.filter { $0.target <= written }.map(\.continuation)
                state.waiters.removeAll { $0.target <= written }
                return ready
            }
            for waiter in ready { waiter.resume() }
        }
        let left = state.withLock { state in
            state.writerEnded = true
            let left = state.waiters.map(\.continuation)
            state.waiters = []
            return left
        }
        for waiter in left { waiter.resume() }
    }

    private func nextBatch() async -> [JournalCapture]? {
        var gathered = false
        while true {
            // Under load, a moment's requests are gathered into one batch (one wake of this task,
            // one transaction) rather than one each. A reader waiting for a flush cuts the pause
            // short, and so does the journal's end (a sandbox stopping waits for no timer).
            if !gathered, let pause = state.withLock({ state -> Task<Void, Never>? in
                guard !state.pending.isEmpty, state.waiters.isEmpty, !state.finished else { return nil }
                let pause = Task { [gathering] in _ = try? await Task.sleep(for: gathering) }
                state.gatheringPause = pause
                return pause
            }) {
                gathered = true
                await pause.value
                state.withLock { $0.gatheringPause = nil }
            }
            let taken: [JournalCapture]?? = state.withLock { state in
                if !state.pending.isEmpty {
                    let count = min(Self.batchLimit, state.pending.count)
                    let batch = Array(state.pending.prefix(count))
                    state.pending.removeFirst(count)
                    return .some(batch)
                }
                return state.finished ? .some(nil) : nil
            }
            if let taken { return taken }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state in
                    if !state.pending.isEmpty || state.finished { return true }
                    state.wake = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Tells the access log of a batch and appends it to the store (which turns each capture into
    /// its redacted entry when it encodes it: a database; the memory store keeps the captures and
    /// they are redacted when listed). A store that fails loses the batch (reported once until it
    /// works again).
    private func keep(_ batch: [JournalCapture]) async {
        // The access log's fields, worked out once: its entries reuse them.
        let lines = settings.accessLog.map { _ in batch.map(maker.line) }
        if let accessLog = settings.accessLog, let lines {
            SandboxAccessLog.log(lines, to: accessLog)
            SandboxAccessLog.flush(accessLog)
        }
        guard settings.limits.maxJournalEntries > 0 else { return }
        do {
            let records = batch.indices.map { JournalRecord(capture: batch[$0], maker: maker, line: lines?[$0]) }
            try await log.append(records, at: moment)
            state.withLock { $0.failing = false }
        } catch {
            let first = state.withLock { state in
                defer { state.failing = true }
                return !state.failing
            }
            if first {
                settings.reportProblem?(
                    "the request journal could not keep \(batch.count) requests (they are left out): \(SandboxStoreUnavailable(error).underlying)")
            }
        }
    }

    // MARK: - Reading

    /// Waits until every capture buffered now is written.
    func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (now, wake, pause) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?, Task<Void, Never>?) in
                if state.written >= state.accepted || state.writerEnded { return (true, nil, nil) }
                state.waiters.append((state.accepted, continuation))
                let wake = state.wake
                state.wake = nil
                return (false, wake, state.gatheringPause)
            }
            pause?.cancel()
            wake?.resume()
            if now { continuation.resume() }
        }
    }

    /// Rows read from the store per query while a page is filled.
    static let scanChunk = 500
    /// Entries looked at for one page at most (a page with few matches then says `more`).
    static let scanBudget = 20_000

    /// The entries `filter` asks for, oldest first, after flushing what is buffered.
    func page(_ filter: JournalFilter) async throws(SandboxStoreUnavailable) -> SandboxJournalPage {
        await flush()
        if filter.fromEnd {
            do { return SandboxJournalPage(entries: [], next: (try await log.newest(at: moment) ?? -1) + 1, more: false) } catch {
                throw SandboxStoreUnavailable(error)
            }
        }
        var after = filter.afterID - 1
        var found: [SandboxJournalEntry] = []
        var scanned = 0
        var more = false
        let moment = self.moment
        scanning: while true {
            let records: [JournalRecord]
            do { records = try await log.page(after: after, limit: Self.scanChunk, at: moment) } catch { throw SandboxStoreUnavailable(error) }
            for (index, record) in records.enumerated() {
                after = record.sequence
                scanned += 1
                let entry = record.entry
                guard filter.matches(entry) else { continue }
                found.append(entry)
                if found.count == filter.limit {
                    more = index < records.count - 1 || records.count == Self.scanChunk
                    break scanning
                }
            }
            if records.count < Self.scanChunk { break }
            if scanned >= Self.scanBudget {
                more = true
                break
            }
        }
        return SandboxJournalPage(entries: found, next: after + 1, more: more)
    }
}

/// A journal entry as its store keeps it, numbered by the store (its id is the number + 1): the
/// capture itself until it is encoded (a database keeps the redacted entry) or listed, so the
/// memory store costs the writer no redaction (it keeps the capture packed); decoded, the entry.
struct JournalRecord: LoggedRecord, Equatable {
    private enum Content: Sendable {
        case entry(SandboxJournalEntry)
        case capture(JournalCapture, JournalEntryMaker, SandboxAccessLog.Line?)
        case packed(PackedJournalCapture, JournalEntryMaker)
    }

    var sequence: Int
    private let content: Content

    init(capture: JournalCapture, maker: JournalEntryMaker, line: SandboxAccessLog.Line? = nil) {
        sequence = -1
        content = .capture(capture, maker, line)
    }

    init(entry: SandboxJournalEntry) {
        sequence = entry.id - 1
        content = .entry(entry)
    }

    /// The entry as listed: redacted, with its id.
    var entry: SandboxJournalEntry {
        var entry =
            switch content {
            case .entry(let entry): entry
            case .capture(let capture, let maker, let line): maker.entry(capture, line: line)
            case .packed(let packed, let maker): maker.entry(packed.unpacked())
            }
        entry.id = sequence + 1
        return entry
    }

    /// The capture packed (its access-log fields are worked out again if it is listed).
    func keptInMemory() -> JournalRecord {
        guard case .capture(let capture, let maker, _) = content else { return self }
        return JournalRecord(sequence: sequence, content: .packed(PackedJournalCapture(capture), maker))
    }

    private init(sequence: Int, content: Content) {
        self.sequence = sequence
        self.content = content
    }

    init(from decoder: any Decoder) throws { self.init(entry: try SandboxJournalEntry(from: decoder)) }
    func encode(to encoder: any Encoder) throws { try entry.encode(to: encoder) }
    var storedJSON: String? { JournalEntryStoredJSON.text(entry) }

    static func == (lhs: JournalRecord, rhs: JournalRecord) -> Bool { lhs.entry == rhs.entry }
}
