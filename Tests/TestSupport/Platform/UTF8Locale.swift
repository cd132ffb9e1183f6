/// A UTF-8 locale every machine of the platform has: glibc's built-in C.UTF-8, which macOS lacks
/// (there the C locale is ASCII and en_US.UTF-8 is always installed).
public enum UTF8Locale {
    public static var name: String {
        #if canImport(Darwin)
            "en_US.UTF-8"
        #else
            "C.UTF-8"
        #endif
    }
}
