// The C library, whichever the platform has: the only file in TerminalUI that names one (beside
// UTF8Locales.swift, the platforms' own locale names). The
// rest of the module calls the POSIX functions (poll, pipe, signal, isatty, clock_gettime)
// that Glibc, Musl and Darwin all declare, and reads and writes through `SystemIO`.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("TerminalUI needs a POSIX C library (Glibc, Musl or Darwin)")
#endif

/// `read(2)` and `write(2)` by a name no Swift type shadows (a `write` method would).
enum SystemIO {
    static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }
}
