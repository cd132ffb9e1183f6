/// What the UI loop needs from a terminal: its size, input, whole-screen drawing and closing.
/// `NcursesTerminal` is the real one; `InMemoryTerminal` lets tests drive the loop without a tty.
public protocol TerminalBackend: AnyObject {
    /// The terminal's size in cells.
    var size: (width: Int, height: Int) { get }
    /// Whether styles may use colours.
    var hasColors: Bool { get }
    /// Waits up to `timeoutMilliseconds` for input; nil when none came.
    func read(timeoutMilliseconds: Int32) -> TerminalInput?
    /// Shows `screen`.
    func draw(_ screen: Screen)
    /// Puts `text` on the system clipboard through the terminal (OSC 52), between frames.
    func copyToClipboard(_ text: String)
    /// Gives the terminal back; calling it again does nothing.
    func close()
}
