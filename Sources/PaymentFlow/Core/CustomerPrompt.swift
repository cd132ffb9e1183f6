import Foundation

/// Something a provider asks the person at the terminal, who plays the customer or the
/// merchant (Square's card reader, its tip screen, a delayed capture's decision). The screen
/// shows it as an overlay; `checkout run` answers it from the scenario's customer behaviour.
public struct CustomerPrompt: Hashable, Sendable {
    /// Stable name: `tip`, `reader`, `authorized`.
    public var id: String
    public var title: String
    public var lines: [String]
    /// A list the cursor moves through (the test cards, the tip choices); may be empty.
    public var choices: [PromptChoice]
    /// Keys that answer, with the highlighted choice when there are choices.
    public var actions: [PromptAction]
    /// A deadline the overlay counts down to (a delayed capture's `delayed_until`).
    public var deadline: Date?
    /// How a scripted customer answers, by behaviour keyword (`approve`, `decline`); a missing
    /// behaviour never answers.
    public var scripted: [String: PromptAnswer]
    /// The provider options an answer stands for, so a scenario written from the screen
    /// replays it: the action's id as `actionFlag` (Square: `entry`), the choice's as `choiceFlag` (`card`).
    public var actionFlag: String?
    public var choiceFlag: String?
    /// Written before the choice in the recorded option (`tip:` records `then: tip:676`).
    public var choicePrefix = ""
    /// Flags whose recorded value grows when a later prompt of the same checkout answers them
    /// again, as a comma list (`card: declined,ok`: each card presented in one sale).
    public var appendingFlags: Set<String> = []
    /// Action ids whose answers record nothing: a key that changes the prompt or opens another
    /// (Square's reader keys, add a tip) rather than answering it.
    public var unrecordedActions: Set<String> = []
    /// Esc walks away from it, abandoning the attempt (the reader); false when something is
    /// already charged and must be decided (a delayed capture).
    public var abandonable: Bool
    /// A form the customer types into (a wallet's address); the answer carries every value.
    public var fields: [PromptField]
    /// The choice the cursor starts on when the prompt first appears; nil: the first selectable one.
    public var cursor: Int?

    public init(
        id: String, title: String, lines: [String] = [], choices: [PromptChoice] = [], actions: [PromptAction], deadline: Date? = nil,
        scripted: [String: PromptAnswer] = [:], actionFlag: String? = nil, choiceFlag: String? = nil, abandonable: Bool = true,
        fields: [PromptField] = [], cursor: Int? = nil, appendingFlags: Set<String> = [], unrecordedActions: Set<String> = []
    ) {
        self.appendingFlags = appendingFlags
        self.unrecordedActions = unrecordedActions
        self.fields = fields
        self.cursor = cursor
        self.actionFlag = actionFlag
        self.choiceFlag = choiceFlag
        self.abandonable = abandonable
        self.id = id
        self.title = title
        self.lines = lines
        self.choices = choices
        self.actions = actions
        self.deadline = deadline
        self.scripted = scripted
    }
}

public struct PromptChoice: Hashable, Sendable {
    public var id: String
    public var label: String
    public var detail: String
    /// A section title on its own dim line above the row ("SHIP TO").
    public var heading: String?
    /// A state shown in place of the detail (a rate being fetched, a rejected address).
    public var mark: PromptMark?
    /// False for summary lines the cursor skips (a subtotal, the total).
    public var selectable: Bool
    /// Bold, under a rule: the line that says what is paid ("PAY DRIFTWOOD COFFEE CO. $45.05").
    public var emphasis: Bool

    public init(
        id: String, label: String, detail: String = "", heading: String? = nil, mark: PromptMark? = nil, selectable: Bool = true,
        emphasis: Bool = false
    ) {
        self.id = id
        self.label = label
        self.detail = detail
        self.heading = heading
        self.mark = mark
        self.selectable = selectable
        self.emphasis = emphasis
    }
}

/// What a choice's row shows instead of its detail while something about it is under way or wrong.
public enum PromptMark: Hashable, Sendable {
    /// A spinner: the provider is still working it out (shipping rates).
    case busy
    /// Why it cannot be used, in the warning style.
    case error(String)
    /// A ✓ and this text, in the success style.
    case ok(String)
}

/// One line of a prompt's form.
public struct PromptField: Hashable, Sendable {
    /// The key of its value in `PromptAnswer.fields`.
    public var id: String
    public var label: String
    /// What it holds when the prompt appears (or when the provider changes it).
    public var value: String
    /// Shown as dots (a card number, a security code).
    public var secret: Bool
    /// What may be typed, as a dim hint ("2 letters"); not enforced here.
    public var allowed: String?

    public init(id: String, label: String, value: String = "", secret: Bool = false, allowed: String? = nil) {
        self.id = id
        self.label = label
        self.value = value
        self.secret = secret
        self.allowed = allowed
    }
}

public struct PromptAction: Hashable, Sendable {
    /// The key that takes it (one printable character, or "Enter").
    public var key: String
    public var label: String
    public var id: String

    public init(key: String, label: String, id: String) {
        self.key = key
        self.label = label
        self.id = id
    }
}

/// An answer: which action, the choice highlighted when it was taken, and what the form held.
public struct PromptAnswer: Hashable, Sendable {
    public var action: String
    public var choice: String?
    /// Every field's value by field id (empty when the prompt has no fields).
    public var fields: [String: String]

    public init(action: String, choice: String? = nil, fields: [String: String] = [:]) {
        self.action = action
        self.choice = choice
        self.fields = fields
    }

    /// The provider options this answer to `prompt` stands for.
    public func options(for prompt: CustomerPrompt) -> [String: String] {
        var options: [String: String] = [:]
        guard !prompt.unrecordedActions.contains(action) else { return options }
        if let flag = prompt.actionFlag { options[flag] = action }
        if let flag = prompt.choiceFlag, let choice { options[flag] = prompt.choicePrefix + choice }
        return options
    }

    /// Writes this answer into `options`, a scenario recorded from the screen: a flag `prompt`
    /// appends to and that an earlier prompt of this checkout set (`answered`) grows its comma
    /// list; any other replaces the value. `answered` gains the flags written.
    public func record(into options: inout [String: String], for prompt: CustomerPrompt, answered: inout Set<String>) {
        for (flag, value) in self.options(for: prompt) {
            if prompt.appendingFlags.contains(flag), answered.contains(flag), let earlier = options[flag], !earlier.isEmpty {
                options[flag] = earlier + "," + value
            } else {
                options[flag] = value
            }
            answered.insert(flag)
        }
    }
}

/// Where adapters ask their prompts and the front ends answer them: one prompt at a time.
/// Asking while another prompt waits withdraws the older one (its asker gets nil).
public actor CustomerDesk {
    /// The prompt shown, and how its asker hears the answer (nil when it asks nothing).
    private var waiting: (prompt: CustomerPrompt, number: Int, resume: (@Sendable (PromptAnswer?) -> Void)?)?
    private var asked = 0
    private var listeners: [UUID: @Sendable (CustomerPrompt?) -> Void] = [:]

    public init() {}

    /// The prompt waiting for an answer, if any.
    public var current: CustomerPrompt? { waiting?.prompt }

    /// Shows `prompt` and waits for its answer; nil when it is withdrawn or the task is cancelled.
    public func ask(_ prompt: CustomerPrompt) async -> PromptAnswer? {
        withdraw()
        asked += 1
        let number = asked
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiting = (prompt, number, { continuation.resume(returning: $0) })
                announce(prompt)
            }
        } onCancel: {
            Task { await self.withdraw(number: number) }
        }
    }

    /// Shows `prompt` at once and hands back where its answer will come (one value: the answer,
    /// or nil when it is withdrawn). Unlike `ask`, it is up when this returns, so a `replace`
    /// that follows finds it (the wallet's sheet, whose rates may arrive at any moment).
    public func pose(_ prompt: CustomerPrompt) -> AsyncStream<PromptAnswer?> {
        withdraw()
        asked += 1
        let (answers, continuation) = AsyncStream.makeStream(of: PromptAnswer?.self)
        waiting = (prompt, asked, { answer in
            continuation.yield(answer)
            continuation.finish()
        })
        announce(prompt)
        return answers
    }

    /// Shows a prompt that asks nothing (the wallet's "Processing", its result mark) until the
    /// next ask, replace or withdraw; the prompt it replaces is withdrawn. Awaited, so it is up
    /// before the caller goes on.
    @discardableResult
    public func display(_ prompt: CustomerPrompt) -> Int {
        withdraw()
        asked += 1
        waiting = (prompt, asked, nil)
        announce(prompt)
        return asked
    }

    /// Takes away the prompt `display` showed as `number`, if it is still the one shown (a
    /// result mark left up for a moment must not take a newer prompt with it).
    public func withdraw(displayed number: Int) {
        withdraw(number: number)
    }

    /// Changes what the waiting prompt shows (shipping rates came in while it is open): its asker
    /// keeps waiting and listeners get the new prompt. Keep the id so the screen keeps the
    /// cursor and what was typed. False when no prompt waits.
    @discardableResult
    public func replace(_ prompt: CustomerPrompt) -> Bool {
        guard let current = waiting else { return false }
        waiting = (prompt, current.number, current.resume)
        announce(prompt)
        return true
    }

    /// Answers the waiting prompt if it is `promptID`; false when no such prompt waits.
    @discardableResult
    public func answer(_ answer: PromptAnswer, to promptID: String) -> Bool {
        guard let current = waiting, current.prompt.id == promptID, let resume = current.resume else { return false }
        waiting = nil
        announce(nil)
        resume(answer)
        return true
    }

    /// Takes the waiting prompt away (the attempt was abandoned); its asker gets nil.
    public func withdraw() {
        guard let current = waiting else { return }
        waiting = nil
        announce(nil)
        current.resume?(nil)
    }

    private func withdraw(number: Int) {
        guard waiting?.number == number else { return }
        withdraw()
    }

    /// Calls `listener` with each prompt shown (nil when it goes) until the returned cancel is called.
    public func subscribe(_ listener: @escaping @Sendable (CustomerPrompt?) -> Void) -> @Sendable () async -> Void {
        let id = UUID()
        listeners[id] = listener
        if let current = waiting?.prompt { listener(current) }
        return { [weak self] in await self?.unsubscribe(id) }
    }

    private func unsubscribe(_ id: UUID) { listeners[id] = nil }

    private func announce(_ prompt: CustomerPrompt?) {
        for listener in listeners.values { listener(prompt) }
    }
}
