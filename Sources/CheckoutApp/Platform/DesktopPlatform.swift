import Foundation

/// What opening a link differs in between the platforms: the desktop's opener, and the spawn
/// flag that starts it in a session of its own (so Ctrl-C on the screen never reaches it).
enum DesktopPlatform {
    static var opener: String {
        #if os(macOS)
            return "open"
        #else
            return "xdg-open"
        #endif
    }

    #if os(Linux)
        // glibc's POSIX_SPAWN_SETSID: a GNU extension Swift's Glibc module leaves out.
        static let spawnNewSession: Int32 = 0x80
    #else
        static let spawnNewSession = Int32(POSIX_SPAWN_SETSID)
    #endif
}
