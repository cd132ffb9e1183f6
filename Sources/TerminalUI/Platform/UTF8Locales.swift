/// UTF-8 locales to fall back on for the character type, the one every machine of the platform
/// has first: glibc's built-in C.UTF-8 (C.utf8 on older glibc), which macOS lacks (its bare
/// "UTF-8" character type and en_US.UTF-8 are always there).
enum UTF8Locales {
    static var fallbacks: [String] {
        #if canImport(Darwin)
            ["UTF-8", "en_US.UTF-8"]
        #else
            ["C.UTF-8", "C.utf8", "en_US.UTF-8"]
        #endif
    }
}
