import TerminalUI

/// `o` opens the checkout's link in the browser, `y` copies it to the clipboard; both say in the
/// notice line what they did, or why they could not.
enum LinkKeys {
    static func open(_ state: inout AppState) -> [AppCommand] {
        guard let link = usableLink(&state, to: "open") else { return [] }
        state.inform("Opening \(link.noun) in the browser…")
        return [.openLink(link.url)]
    }

    static func copy(_ state: inout AppState) -> [AppCommand] {
        guard let link = usableLink(&state, to: "copy") else { return [] }
        state.inform("Copied \(link.noun) (\(link.url.count) characters) to the clipboard")
        return [.copyToClipboard(link.url)]
    }

    /// The link, when there is one and it is safe to hand on; otherwise warns why not.
    private static func usableLink(_ state: inout AppState, to verb: String) -> ScreenLink? {
        guard let link = state.currentLink else {
            state.warn(state.noLinkReason)
            return nil
        }
        if let refusal = link.refusal {
            state.warn("Refused to \(verb) \(link.noun): \(refusal).")
            return nil
        }
        return link
    }

    /// The notice once the browser was started, or why it could not be.
    static func opened(_ state: inout AppState, url: String, problem: String?) {
        let shown = TerminalText.escapingControls(url)
        if let problem {
            state.warn("Could not open the link: \(TerminalText.escapingControls(problem)); press y to copy it")
        } else {
            state.inform("Opened \(shown) in the browser")
        }
    }
}
