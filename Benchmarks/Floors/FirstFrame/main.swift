// P1's floor: the least a first frame needs. Initialize ncursesw on the terminal and draw a
// four-pane frame (title, cart, shipping, payment, log, hints) in one refresh, then wait for
// `q` (or to be killed by the benchmark).
import CNcurses

setlocale(LC_ALL, "")
// The app's own start: past ncurses 6.4's unbuffered start, so the frame goes out in one write.
guard cn_newterm_stdio() != nil, let window = cn_stdscr() else {
    _ = write(2, "bench-floor-frame: this terminal cannot be initialized\n", 53)
    exit(2)
}
raw()
noecho()
curs_set(0)
let width = Int(getmaxx(window))
let height = Int(getmaxy(window))

func put(_ text: String, _ x: Int, _ y: Int) {
    let wide = text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
    wide.withUnsafeBufferPointer { _ = mvwaddnwstr(window, Int32(y), Int32(x), $0.baseAddress, Int32($0.count)) }
}

func pane(_ title: String, x: Int, y: Int, width: Int, height: Int, lines: [String]) {
    guard width > 4, height > 2 else { return }
    let top = "┌─ \(title) " + String(repeating: "─", count: max(0, width - title.count - 5)) + "┐"
    put(top, x, y)
    for row in 1..<(height - 1) {
        let text = row - 1 < lines.count ? lines[row - 1] : ""
        let inner = String(text.prefix(width - 2))
        put("│" + inner + String(repeating: " ", count: width - 2 - inner.count) + "│", x, y + row)
    }
    put("└" + String(repeating: "─", count: width - 2) + "┘", x, y + height - 1)
}

put(" Floor · four panes", 0, 0)
let top = 5
let upper = (height - top - 1) / 2
let left = width * 55 / 100
pane("Cart", x: 0, y: top, width: left, height: upper, lines: ["House Blend Beans 12oz   2 × $16.50  $33.00", "Enamel Camp Mug          1 × $14.00  $14.00"])
pane("Shipping", x: left, y: top, width: width - left, height: upper / 2, lines: ["(•) Free Shipping   $0.00", "( ) Express        $10.00"])
pane("Payment", x: left, y: top + upper / 2, width: width - left, height: upper - upper / 2, lines: ["(•) Cash App Pay", "( ) Card (Square)"])
pane("HTTP log", x: 0, y: top + upper, width: width, height: height - top - upper - 1, lines: ["No requests yet."])
put(" Tab pane   ↑↓ move   p pay   q quit", 0, height - 1)
wnoutrefresh(window)
doupdate()
while wgetch(window) != Int32(UInt8(ascii: "q")) {}
endwin()
