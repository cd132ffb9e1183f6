// The C library for the tests' processes, terminals and sockets: the only file in TestSupport
// that names a platform (test modules that import TestSupport see it too).
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// The socket calls whose names or flags differ: a method named `send` or `close` would shadow
/// the C function, and Linux's constants are typed where Darwin's are plain numbers.
public enum SocketIO {
    /// `SOCK_STREAM` as `socket(2)` takes it.
    public static var stream: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// `send(2)` that never raises SIGPIPE: Linux's MSG_NOSIGNAL (Darwin sets SO_NOSIGPIPE on the socket instead: `noSignalOnWrite`).
    public static func send(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
        #elseif canImport(Musl)
        Musl.send(fd, buffer, count, Int32(MSG_NOSIGNAL))
        #else
        Darwin.send(fd, buffer, count, 0)
        #endif
    }

    /// On Darwin, a write to a closed peer returns EPIPE instead of raising SIGPIPE.
    public static func noSignalOnWrite(_ fd: Int32) {
        #if canImport(Darwin)
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// A new IPv4 TCP socket (a type with a `socket` member cannot call the C function by name).
    public static func openTCP() -> Int32 {
        socket(AF_INET, stream, 0)
    }

    public static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #elseif canImport(Musl)
        _ = Musl.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }
}
