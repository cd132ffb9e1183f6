import Foundation
import TerminalUI

/// Drives the screen alongside the user: a replay's recorded events, a demo's script.
/// The UI loop asks it for what is due on every turn and lets it see keys first.
protocol ScreenDirector: Sendable {
    /// Messages due at `now`; may also set `state.director` (the title's status) and the like.
    mutating func due(now: Date, state: inout AppState) -> [AppMessage]
    /// Sees a key first; returns the key when the app should still handle it.
    mutating func intercept(_ key: Key, state: inout AppState) -> Key?
    /// The time the screen shows at wall-clock `wall` (a replay shows the recording's time).
    func clock(at wall: Date) -> Date
}

extension ScreenDirector {
    func clock(at wall: Date) -> Date { wall }
}

/// What a director shows: a status in the title bar and its keys in the hints line.
public struct DirectorStatus: Hashable, Sendable {
    public struct Hint: Hashable, Sendable {
        public let key: String
        public let action: String
    }

    public var label: String
    public var hints: [Hint]
}
