/// What opening a link differs in between the platforms: the desktop's opener.
enum DesktopPlatform {
    static var opener: String {
        #if os(macOS)
            return "open"
        #else
            return "xdg-open"
        #endif
    }
}
