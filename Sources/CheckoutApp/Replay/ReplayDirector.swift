import Foundation
import TerminalUI

/// Plays a transcript on the screen at its recorded pace times `speed`; space pauses,
/// → steps to the next event, + and - change the speed. Nothing is sent anywhere.
struct ReplayDirector: ScreenDirector {
    let timeline: ReplayTimeline
    /// When the recording started: the screen's clocks run from here.
    let recordedStart: Date
    private(set) var speed: Double
    private var next = 0
    private var playheadMilliseconds = 0.0
    private var lastTurn: Date?
    private var paused = false
    private var stepRequested = false

    init(timeline: ReplayTimeline, recordedStart: Date, speed: Double) {
        self.timeline = timeline
        self.recordedStart = recordedStart
        self.speed = speed
    }

    var finished: Bool { next >= timeline.steps.count }

    mutating func due(now: Date, state: inout AppState) -> [AppMessage] {
        if let lastTurn, !paused { playheadMilliseconds += now.timeIntervalSince(lastTurn) * 1000 * speed }
        lastTurn = now
        var messages: [AppMessage] = []
        if stepRequested, !finished {
            playheadMilliseconds = max(playheadMilliseconds, Double(timeline.steps[next].atMilliseconds))
            stepRequested = false
        }
        while !finished, Double(timeline.steps[next].atMilliseconds) <= playheadMilliseconds {
            messages.append(timeline.steps[next].message)
            next += 1
        }
        state.director = status
        return messages
    }

    /// The recording's time at the playhead, so "polling 0:03" and "new link in 12 s" read
    /// as they did.
    func clock(at wall: Date) -> Date {
        recordedStart.addingTimeInterval(playheadMilliseconds / 1000)
    }

    mutating func intercept(_ key: Key, state: inout AppState) -> Key? {
        switch key {
        case .character(" "):
            paused.toggle()
        case .right:
            stepRequested = true
            paused = true
        case .character("+"), .character("="):
            speed = min(64, speed * 2)
        case .character("-"), .character("_"):
            speed = max(0.125, speed / 2)
        case .character("q"), .control("c"):
            state.quitRequested = true
        case .tab, .backTab, .up, .down, .character("j"), .character("k"), .enter, .escape, .pageUp, .pageDown, .home,
            .character("?"), .character("l"), .character("v"):
            return key
        default:
            state.layout.notice = Notice(text: "This is a replay: space pauses, → steps, + and - change the speed, q quits.", kind: .info, shownAt: state.now)
        }
        state.director = status
        return nil
    }

    private var status: DirectorStatus {
        let position = "\(next)/\(timeline.steps.count)"
        let label: String
        if finished { label = "replay finished · \(position)" } else if paused { label = "⏸ replay paused · \(position)" } else {
            label = "▶ replay \(position) · ×\(speed.plainText)"
        }
        return DirectorStatus(label: label, hints: [
            .init(key: "space", action: paused ? "play" : "pause"), .init(key: "→", action: "step"),
            .init(key: "+/-", action: "speed"), .init(key: "q", action: "quit"), .init(key: "Tab", action: "pane"),
            .init(key: "?", action: "help"),
        ])
    }
}
