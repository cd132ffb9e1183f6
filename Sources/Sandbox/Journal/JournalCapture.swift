import Foundation
import Hummingbird
import NIOCore
import ProviderWire
import Synchronization

/// What a request left for the journal, as it was served: nothing here is redacted, decoded or
/// copied yet (headers and buffers are shared, copy-on-write); it becomes an entry off the
/// request's path. A class: the buffer, the batch and the memory store pass it on by reference.
final class JournalCapture: Sendable {
    let time: Date
    let duration: Duration
    let method: String
    /// The request target as sent: path and query.
    let target: String
    let requestHeaders: HTTPFields
    /// The body's first `SandboxJournalEntry.maxBodyBytes` bytes (nil when it had none or was not read).
    let requestBody: ByteBuffer?
    let requestBodyBytes: Int
    let status: Int
    let responseHeaders: HTTPFields
    let responseBody: [ByteBuffer]
    let responseBodyBytes: Int
    /// The route pattern the router matched ("/v2/payments/{id}"), if any.
    let endpoint: String?
    /// The provider that claimed the request by more than its path, if one did.
    let claimant: String?
    /// The fault injected into it, if any.
    let fault: String?

    init(
        time: Date, duration: Duration, method: String, target: String, requestHeaders: HTTPFields, requestBody: ByteBuffer?,
        requestBodyBytes: Int, status: Int, responseHeaders: HTTPFields, responseBody: [ByteBuffer], responseBodyBytes: Int,
        endpoint: String?, claimant: String?, fault: String?
    ) {
        self.time = time
        self.duration = duration
        self.method = method
        self.target = target
        self.requestHeaders = requestHeaders
        self.requestBody = requestBody
        self.requestBodyBytes = requestBodyBytes
        self.status = status
        self.responseHeaders = responseHeaders
        self.responseBody = responseBody
        self.responseBodyBytes = responseBodyBytes
        self.endpoint = endpoint
        self.claimant = claimant
        self.fault = fault
    }
}

/// Set by the routes while a request is served, read by the journal after: the provider that
/// claimed the request (`SandboxProvider.claims`), which the route's pattern alone does not say.
final class JournalNote: Sendable {
    private let claimed = Mutex<String?>(nil)
    private let injected = Mutex<String?>(nil)

    var claimant: String? {
        get { claimed.withLock { $0 } }
        set { claimed.withLock { $0 = newValue } }
    }

    /// The fault the plan injected into it, if any.
    var fault: String? {
        get { injected.withLock { $0 } }
        set { injected.withLock { $0 = newValue } }
    }
}

/// Collects a response body's buffers as it is written (shared, not copied).
final class CollectedBody: @unchecked Sendable {
    // Written by one task at a time (the response's writer), read after it finished.
    var buffers: [ByteBuffer] = []
    var bytes = 0
    var kept = 0

    func take(_ buffer: ByteBuffer, keeping limit: Int) {
        bytes += buffer.readableBytes
        guard kept < limit else { return }
        let room = limit - kept
        let part = buffer.readableBytes <= room ? buffer : buffer.getSlice(at: buffer.readerIndex, length: room) ?? buffer
        kept += part.readableBytes
        buffers.append(part)
    }
}

/// Writes a body into a `CollectedBody` (all of it: the answer is then sent from what it kept).
struct CollectingWriter: ResponseBodyWriter {
    let body: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws { body.take(buffer, keeping: .max) }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Passes a body on to the connection, keeping its first bytes for the journal, and tells
/// `finished` before the body's end is sent (so the client cannot see the whole answer first).
struct CapturingWriter: ResponseBodyWriter {
    var inner: any ResponseBodyWriter
    let body: CollectedBody
    let finished: @Sendable () -> Void

    mutating func write(_ buffer: ByteBuffer) async throws {
        body.take(buffer, keeping: SandboxJournalEntry.maxBodyBytes)
        try await inner.write(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        finished()
        try await inner.finish(trailingHeaders)
    }
}
