/// A key press, decoded from whatever the terminal sent.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case tab, backTab, enter, escape, backspace
    /// Ctrl plus a letter, e.g. `.control("c")`.
    case control(Character)
}
