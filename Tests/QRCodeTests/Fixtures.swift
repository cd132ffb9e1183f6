import QRCode

/// Inputs shaped like what the checkout actually puts in a QR code.
enum Fixtures {
    static let short = "GRR_abc123"
    /// A sandbox authorization link, about 100 characters.
    static let authorizeURL =
        "http://127.0.0.1:43210/sandbox/customer-requests/GRR_abcdefghijklmnopqrstuvwxyz/authorize?t=0123456789abcdef"
    /// A long link (~300 characters) such as a production URL with several query items.
    static let longURL =
        "https://sandbox.api.cash.app/customer-request/v1/requests/GRR_0123456789abcdefghijklmnopqrstuvwxyz/authorize"
        + "?token=" + String(repeating: "0123456789abcdef", count: 8)
        + "&redirect=https%3A%2F%2Fshop.example.com%2Fcheckout%2Fcomplete%3Forder%3D42&locale=en-US"

    /// Every module including a light quiet zone of `margin` modules, as rows.
    static func rows(_ code: QRCode, margin: Int) -> [[Bool]] {
        (-margin..<(code.size + margin)).map { y in
            (-margin..<(code.size + margin)).map { x in code[x, y] }
        }
    }
}
