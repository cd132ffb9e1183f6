import TerminalUI

/// The effects the UI loop carries out itself rather than the session: the clipboard goes
/// through the terminal, the browser is the user's, so both work before the session is up and
/// in a replay. Neither waits: the browser starts on a task that posts how it went.
struct ScreenEffects {
    let terminal: any TerminalBackend
    let inbox: Inbox
    let links: any LinkOpener

    func perform(_ effect: ScreenEffect) {
        switch effect {
        case .copyToClipboard(let text):
            terminal.copyToClipboard(text)
        case .openLink(let url):
            let (links, inbox) = (links, inbox)
            Task.detached {
                let problem = await links.open(url)
                inbox.post(.linkOpened(url: url, problem: problem))
            }
        }
    }
}
