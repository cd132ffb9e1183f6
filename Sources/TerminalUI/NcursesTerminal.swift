import CNcurses

/// Why the terminal could not be used.
public enum TerminalError: Error, CustomStringConvertible {
    case notATerminal
    case cannotInitialize(term: String)

    public var description: String {
        switch self {
        case .notATerminal:
            "checkout's screen needs a terminal on stdin and stdout; for scripts use `checkout run`"
        case .cannotInitialize(let term):
            "the terminal type \"\(term)\" is unknown to ncurses; try TERM=xterm-256color"
        }
    }
}

/// The only code that calls curses (with `CursesAhead`, which opens it early, on the thread the
/// screen's loop then runs on). Not thread-safe: create, use and close it on one thread.
public final class NcursesTerminal: TerminalBackend {
    private let window: UnsafeMutablePointer<WINDOW>
    private var previous: Screen?
    private var closed = false
    /// Colour pairs with a background (the QR code's black on white), made when first used.
    private var backgroundPairs: [Int: Int16] = [:]
    public let hasColors: Bool
    /// Whether clicks and the wheel come in: asked for, and the terminal has a mouse (`mousemask` took it).
    public let hasMouse: Bool
    private static let mouseMasks = MouseDecoding.Masks(
        leftPressed: UInt(cn_button1_pressed()), leftReleased: UInt(cn_button1_released()),
        wheelUp: UInt(cn_button4_pressed()), wheelDown: UInt(cn_button5_pressed()))
    private let wakePipe = WakePipe()
    /// How long a lone Esc waits for the rest of a key's sequence: curses' default is a second,
    /// which makes Esc feel broken; 25 ms covers any local or SSH terminal sending a sequence at once.
    public static let escapeDelayMilliseconds: Int32 = 25
    /// Mouse reports read with an earlier one and not yet handed out, oldest first.
    private var pendingMouse: [TerminalInput] = []

    /// Ends a wait for input early, from any thread; nil when no pipe could be made (the wait then runs its course).
    public var waker: TerminalWaker? { wakePipe.map { TerminalWaker(fd: $0.writeEnd) } }

    /// Enters full-screen mode: alternate screen, raw keys, no echo, hidden cursor; with `mouse`,
    /// clicks and the wheel are reported (where the terminal has a mouse; elsewhere nothing changes).
    /// Takes the screen `CursesAhead` opened, when it did.
    public init(colors allowColors: Bool, mouse: Bool = false) throws(TerminalError) {
        if let ahead = CursesAhead.take() {
            window = ahead
        } else {
            window = try Self.openCurses()
        }
        hasColors = allowColors && has_colors()
        if hasColors {
            start_color()
            use_default_colors()
            for color in Color.allCases {
                init_pair(Int16(color.rawValue + 1), Int16(color.rawValue), -1)
            }
        }
        // 0 when the terminal has no mouse: no reports come and keys work as before.
        hasMouse = mouse && mousemask(mmask_t(Self.mouseMasks.all), nil) != 0
        // Presses and releases as they happen: no waiting to tell a click from a press.
        if hasMouse { mouseinterval(0) }
    }

    /// The part of entering full-screen mode that needs no options: the locale, the terminal's
    /// description, raw keys, no echo, the hidden cursor. Nothing is written until the first draw.
    static func openCurses() throws(TerminalError) -> UnsafeMutablePointer<WINDOW> {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal }
        setlocale(LC_ALL, "")
        Self.insistOnUTF8()
        // Also past ncurses 6.4's unbuffered start, so each frame goes out in one write (shim.h).
        guard cn_newterm_stdio() != nil, let window = cn_stdscr() else {
            throw .cannotInitialize(term: getenv("TERM").map { String(cString: $0) } ?? "")
        }
        raw()
        noecho()
        nonl()
        keypad(window, true)
        set_escdelay(Self.escapeDelayMilliseconds)
        // Redraw fully even when keys are waiting: the loop reads them next anyway.
        typeahead(-1)
        curs_set(0)
        return window
    }

    deinit { close() }

    /// A locale that is not UTF-8 (LANG=C, LANG unset, or a locale this system lacks) leaves
    /// ncurses unable to write the screen's middle dots, rules and QR blocks: it drops them and
    /// the rest of the line slides left. Terminals speak UTF-8 today, so the character type falls
    /// back to a UTF-8 locale the system has (messages and formats keep the user's).
    private static func insistOnUTF8() {
        guard !codesetIsUTF8() else { return }
        for name in UTF8Locales.fallbacks where setlocale(LC_CTYPE, name) != nil {
            if codesetIsUTF8() { return }
        }
    }

    private static func codesetIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// The terminal's size in cells.
    public var size: (width: Int, height: Int) {
        (Int(getmaxx(window)), Int(getmaxy(window)))
    }

    /// Waits up to `milliseconds` for input.
    public func read(timeoutMilliseconds: Int32) -> TerminalInput? {
        if !pendingMouse.isEmpty { return pendingMouse.removeFirst() }
        guard let wakePipe, timeoutMilliseconds > 0 else { return readKey(waitingMilliseconds: timeoutMilliseconds) }
        // What curses already holds comes first; then wait for a key or a wake-up.
        if let input = readKey(waitingMilliseconds: 0) { return input }
        var watched = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0), pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&watched, 2, timeoutMilliseconds)
        if watched[1].revents != 0 { wakePipe.drain() }
        // Keys arrived (an escape sequence may still be completing), or a resize or signal cut the wait short.
        return readKey(waitingMilliseconds: watched[0].revents != 0 ? Self.escapeDelayMilliseconds : 0)
    }

    private func readKey(waitingMilliseconds: Int32) -> TerminalInput? {
        wtimeout(window, waitingMilliseconds)
        var code: wint_t = 0
        let result = wget_wch(window, &code)
        if result == cn_err() { return nil }
        // wint_t is unsigned on glibc and signed on Darwin: read as bits, never converted with a check.
        if result == cn_key_code_yes(), Int32(truncatingIfNeeded: code) == cn_key_mouse() { return readMouse() }
        let input = KeyDecoding.decode(UInt32(truncatingIfNeeded: code), isFunctionKey: result == cn_key_code_yes())
        if input == .resize { previous = nil }
        return input
    }

    /// Shows `screen`, sending only the rows that changed since the last call.
    public func draw(_ screen: Screen) {
        if previous == nil { clearok(window, true) }
        for y in screen.changedRows(since: previous) {
            var x = 0
            while x < screen.width {
                let style = screen[x, y].style
                var run: [wchar_t] = []
                let start = x
                while x < screen.width, screen[x, y].style == style {
                    run.append(contentsOf: screen[x, y].character.unicodeScalars.map { wchar_t(bitPattern: $0.value) })
                    x += 1
                }
                apply(style)
                run.withUnsafeBufferPointer { buffer in
                    _ = mvwaddnwstr(window, Int32(y), Int32(start), buffer.baseAddress, Int32(buffer.count))
                }
            }
        }
        wattr_set(window, attr_t(cn_attr_normal()), 0, nil)
        wnoutrefresh(window)
        doupdate()
        previous = screen
    }

    /// One KEY_MOUSE stands for every report ncurses read in one go (a press and its release, wheel
    /// notches batched by the terminal or a slow link), and `getmouse` hands them out newest first:
    /// all are taken now and given out oldest first, so none is lost behind the last.
    private func readMouse() -> TerminalInput? {
        var newestFirst: [MouseDecoding.Report] = []
        var event = MEVENT()
        while newestFirst.count < Self.mouseReportsPerRead, getmouse(&event) != cn_err() {
            newestFirst.append(MouseDecoding.Report(buttonState: UInt(event.bstate), x: Int(event.x), y: Int(event.y)))
        }
        pendingMouse += MouseDecoding.decode(newestFirst: newestFirst, masks: Self.mouseMasks).map(TerminalInput.mouse)
        return pendingMouse.isEmpty ? nil : pendingMouse.removeFirst()
    }

    /// ncurses keeps at most this many reports (its EV_MAX); the bound only guards the loop.
    private static let mouseReportsPerRead = 8

    /// Writes OSC 52 to the terminal curses draws on, after the last frame's bytes (`draw` ends
    /// with a flush), so the sequence never lands inside one.
    public func copyToClipboard(_ text: String) {
        guard !closed else { return }
        fflush(nil)  // every stdio stream (curses may write through stdout's)
        let bytes = Array(Clipboard.osc52(text).utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { SystemIO.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if result > 0 { written += result } else if result < 0, errno == EINTR { continue } else { return }
        }
    }

    /// Leaves full-screen mode: cursor visible, cooked mode and echo back, alternate screen left.
    public func close() {
        guard !closed else { return }
        closed = true
        curs_set(1)
        endwin()
    }

    private func apply(_ style: Style) {
        var attributes = cn_attr_normal()
        if style.bold { attributes |= cn_attr_bold() }
        if style.dim { attributes |= cn_attr_dim() }
        if style.reverse { attributes |= cn_attr_reverse() }
        if style.underline { attributes |= cn_attr_underline() }
        wattr_set(window, attr_t(attributes), hasColors ? pair(for: style) : 0, nil)
    }

    private func pair(for style: Style) -> Int16 {
        guard let background = style.background else { return style.foreground.map { Int16($0.rawValue + 1) } ?? 0 }
        let key = (style.foreground.map { $0.rawValue + 1 } ?? 0) * 8 + background.rawValue
        if let pair = backgroundPairs[key] { return pair }
        let next = Int16(Color.allCases.count + 1 + backgroundPairs.count)
        guard Int32(next) < cn_color_pairs() else { return style.foreground.map { Int16($0.rawValue + 1) } ?? 0 }
        init_pair(next, Int16(style.foreground?.rawValue ?? -1), Int16(background.rawValue))
        backgroundPairs[key] = next
        return next
    }
}
