import Foundation

/// A plain TCP connection to 127.0.0.1, for what an HTTP client would never send: idle or
/// half-sent requests, HTTP/1.0, CONNECT. Reads wait on the socket with a deadline, never a
/// sleep, on a thread of their own: blocking a concurrency thread would starve the server's own
/// handlers on a 2-core machine. One task uses a connection at a time.
public final class RawConnection: @unchecked Sendable {
    private let socketFD: Int32
    private var received = Data()
    public private(set) var closedByPeer = false

    public init(port: Int) throws {
        socketFD = try Self.connected(port: port)
    }

    /// A connected socket; on failure, nothing left open. (Closed here before `self` exists: a
    /// throw after the descriptor was stored would also run `deinit`, closing it twice.)
    private static func connected(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, SocketIO.stream, 0)
        guard descriptor >= 0 else { throw RawConnectionError(call: "socket", errno: errno) }
        SocketIO.noSignalOnWrite(descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let failure = errno
            close(descriptor)
            throw RawConnectionError(call: "connect", errno: failure)
        }
        return descriptor
    }

    deinit { close(socketFD) }

    /// Sends text as it is; false when the peer has already closed.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer in SocketIO.send(socketFD, buffer.baseAddress, buffer.count) } == bytes.count
    }

    /// Everything received so far, as text.
    public var text: String { String(decoding: received, as: UTF8.self) }

    /// Reads until `done` holds for what arrived, the peer closes, or `timeout` passes; answers `done`.
    @discardableResult
    public func read(timeout: Double, until done: @escaping @Sendable (String) -> Bool) async -> Bool {
        await withCheckedContinuation { continuation in
            // A thread of its own: Dispatch's global pool is as small as the machine and runs tasks too.
            Thread { continuation.resume(returning: self.blockingRead(timeout: timeout, until: done)) }.start()
        }
    }

    private func blockingRead(timeout: Double, until done: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !done(text), !closedByPeer {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { break }
            var poller = pollfd(fd: socketFD, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, left * 1000))) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = recv(socketFD, &chunk, chunk.count, 0)
            if count <= 0 { closedByPeer = true } else { received.append(contentsOf: chunk[0..<count]) }
        }
        return done(text)
    }

    /// Waits for the peer to close, up to `timeout`; answers whether it did.
    public func waitForClose(timeout: Double) async -> Bool {
        await read(timeout: timeout) { _ in false }
        return closedByPeer
    }

    /// Reads one whole response (head and a Content-Length body); the timeout leaves room for a
    /// loaded CI machine, and the wait ends as soon as the response is in.
    public func readResponse(timeout: Double = 30) async -> RawResponse? {
        await read(timeout: timeout) { RawResponse(parsing: $0) != nil }
        return RawResponse(parsing: text)
    }
}

/// A response as it came over the wire.
public struct RawResponse: Sendable {
    public let statusLine: String
    public let headers: [String: String]
    public let body: String

    public var status: Int { Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// Nil until the head and as many body bytes as Content-Length says have arrived.
    init?(parsing text: String) {
        guard let split = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let rest = Data(text[split.upperBound...].utf8)
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        guard rest.count >= length else { return nil }
        statusLine = lines[0]
        self.headers = headers
        body = String(decoding: rest.prefix(length), as: UTF8.self)
    }
}

public struct RawConnectionError: Error, CustomStringConvertible {
    public let call: String
    public let errno: Int32
    public var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
}
