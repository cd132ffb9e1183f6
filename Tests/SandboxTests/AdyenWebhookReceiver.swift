import TestSupport
import Foundation

/// A tiny HTTP/1.1 receiver on 127.0.0.1 port 0 for webhook tests: it keeps every POST's
/// body and headers and answers each with the next status of `statuses` (then 200).
/// Blocking sockets on a thread of its own, so it needs nothing but libc.
final class AdyenWebhookReceiver: @unchecked Sendable {
    struct Delivery: Sendable {
        let headers: [String: String]
        let body: Data
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    }

    let port: Int
    private let socket: Int32
    private let lock = NSLock()
    private var statuses: [Int]
    private var deliveries: [Delivery] = []
    private var requests = 0
    private var closing = false

    var url: String { "http://127.0.0.1:\(port)/webhooks" }

    init(statuses: [Int] = []) throws {
        self.statuses = statuses
        let fd = SocketIO.openTCP()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            SocketIO.close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        socket = fd
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Stops accepting. Only the serving thread closes the socket, once its `accept` has failed:
    /// closing it here as well closed it twice, and the second close could take a number the
    /// process had since given to another socket (a client's, which NIO then found gone).
    func close() {
        let first = lock.withLock {
            defer { closing = true }
            return !closing
        }
        if first { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    var received: [Delivery] { lock.withLock { deliveries } }
    /// Requests answered, failures included.
    var requestCount: Int { lock.withLock { requests } }

    /// Waits (polling, up to `timeout` seconds) until `condition` holds for what was received.
    func wait(timeout: Double = 10, until condition: ([Delivery]) -> Bool) async -> [Delivery] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let now = received
            if condition(now) { return now }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return received
    }

    /// Holds the receiver (the thread keeps it) until `close()` shuts the socket down.
    private func serve() {
        while true {
            let client = accept(socket, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            handle(client)
            SocketIO.close(client)
        }
        SocketIO.close(socket)
    }

    private func handle(_ client: Int32) {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            let count = read(client, &chunk, chunk.count)
            guard count > 0 else { return }
            buffer += chunk[0..<count]
            if headerEnd == nil, let end = find(buffer, [13, 10, 13, 10]) {
                headerEnd = end + 4
                contentLength = headers(buffer[0..<end])["content-length"].flatMap { Int($0) } ?? 0
            }
            if let headerEnd, buffer.count >= headerEnd + contentLength { break }
        }
        let end = headerEnd!
        let delivery = Delivery(headers: headers(buffer[0..<(end - 4)]), body: Data(buffer[end..<(end + contentLength)]))
        let status: Int = lock.withLock {
            requests += 1
            let status = statuses.isEmpty ? 200 : statuses.removeFirst()
            if (200..<300).contains(status) { deliveries.append(delivery) }
            return status
        }
        let reply = "HTTP/1.1 \(status) Status\r\nContent-Length: 10\r\nConnection: close\r\n\r\n[accepted]"
        _ = reply.utf8CString.withUnsafeBufferPointer { write(client, $0.baseAddress, $0.count - 1) }
    }

    private func headers(_ head: ArraySlice<UInt8>) -> [String: String] {
        var fields: [String: String] = [:]
        for line in String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    private func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<(start + needle.count)]) == needle { return start }
        return nil
    }
}
