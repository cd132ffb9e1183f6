/// A mouse action on the screen, at a cell counted from the top-left corner (0-based).
public struct MouseEvent: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        /// The left button went down (acted on at once, as terminals report no click).
        case press
        case release
        case wheelUp, wheelDown
    }

    public var action: Action
    public var x: Int
    public var y: Int

    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}

/// Turns ncurses' mouse reports (`getmouse`'s button-state bits and cell) into events. Pure, so
/// it is tested without a terminal; `NcursesTerminal` passes the bits its ncurses defines.
public enum MouseDecoding {
    /// The button-state bits for the events the screen asks for.
    public struct Masks: Hashable, Sendable {
        public var leftPressed: UInt
        public var leftReleased: UInt
        public var wheelUp: UInt
        public var wheelDown: UInt

        public init(leftPressed: UInt, leftReleased: UInt, wheelUp: UInt, wheelDown: UInt) {
            self.leftPressed = leftPressed
            self.leftReleased = leftReleased
            self.wheelUp = wheelUp
            self.wheelDown = wheelDown
        }

        /// ncurses 6's (mouse ABI 2): five bits per button, "pressed" the second, "released" the first.
        public static let ncurses6 = Masks(leftPressed: 0o2, leftReleased: 0o1, wheelUp: 0o2 << 15, wheelDown: 0o2 << 20)

        /// Every bit the screen asks `mousemask` for.
        public var all: UInt { leftPressed | leftReleased | wheelUp | wheelDown }
    }

    /// One report as `getmouse` gives it.
    public struct Report: Hashable, Sendable {
        public var buttonState: UInt
        public var x: Int
        public var y: Int

        public init(buttonState: UInt, x: Int, y: Int) {
            self.buttonState = buttonState
            self.x = x
            self.y = y
        }
    }

    /// The events of reports read together, oldest first (`getmouse` gives them newest first).
    public static func decode(newestFirst reports: [Report], masks: Masks = .ncurses6) -> [MouseEvent] {
        reports.reversed().compactMap { decode(buttonState: $0.buttonState, x: $0.x, y: $0.y, masks: masks) }
    }

    /// The event `buttonState` at (x, y) means; nil for anything else (other buttons, a cell off the screen).
    public static func decode(buttonState: UInt, x: Int, y: Int, masks: Masks = .ncurses6) -> MouseEvent? {
        guard x >= 0, y >= 0 else { return nil }
        // The wheel first: a terminal may report it with a button still marked down.
        if buttonState & masks.wheelUp != 0 { return MouseEvent(.wheelUp, x: x, y: y) }
        if buttonState & masks.wheelDown != 0 { return MouseEvent(.wheelDown, x: x, y: y) }
        if buttonState & masks.leftPressed != 0 { return MouseEvent(.press, x: x, y: y) }
        if buttonState & masks.leftReleased != 0 { return MouseEvent(.release, x: x, y: y) }
        return nil
    }
}
