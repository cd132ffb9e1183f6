import Foundation

/// ISO 8601 durations as Square's `delay_duration` takes them (`PT10M`, `P7D`, `P2DT12H30M15S`)
/// and echoes them (`PT168H`: hours, minutes and seconds, no days).
enum SquareDuration {
    /// Seconds in a duration of weeks, days, hours, minutes and seconds; nil when it is not one.
    /// Years and months have no fixed length and are refused; so are fractions but of seconds.
    static func seconds(_ text: String) -> Double? {
        guard text.utf8.count <= 64, text.hasPrefix("P"), text.count > 1, !text.hasSuffix("T") else { return nil }
        var total = 0.0
        var number = ""
        var inTime = false
        var seen: Set<Character> = []
        for character in text.dropFirst() {
            if character == "T" {
                guard !inTime, number.isEmpty else { return nil }
                inTime = true
                continue
            }
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let unit: Double
            switch (character, inTime) {
            case ("W", false): unit = 604_800
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3_600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            let key: Character = inTime && character == "M" ? "m" : character
            guard !seen.contains(key), !number.isEmpty, number.count <= 12, let value = Double(number),
                character == "S" || !number.contains(".")
            else { return nil }
            seen.insert(key)
            total += value * unit
            number = ""
        }
        guard number.isEmpty, !seen.isEmpty else { return nil }
        return total
    }

    /// How Square echoes a delay: `PT168H`, `PT10M`, `PT1H30M`.
    static func text(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.down))
        let (hours, rest) = whole.quotientAndRemainder(dividingBy: 3_600)
        let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
        var text = "PT"
        if hours > 0 { text += "\(hours)H" }
        if minutes > 0 { text += "\(minutes)M" }
        if secs > 0 || text == "PT" { text += "\(secs)S" }
        return text
    }
}

/// Square's identifiers: payment ids of 29 base-62 characters (`R2B3Z8WMVt3EAmzYWLZvz7Y69EbZY`),
/// version tokens of 45.
enum SquareIDs {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private static let capitals = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")

    static func make(length: Int, from characters: [Character] = alphabet) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in characters.randomElement(using: &generator)! })
    }

    /// The receipt number is the id's first 4 characters (as Square's are); the sandbox makes
    /// those capitals and digits, so receipt numbers read as `7KQ2`.
    static func payment() -> String { make(length: 4, from: capitals) + make(length: 25) }
    static func versionToken() -> String { make(length: 45) }

    /// Whether `text` could be an id this sandbox made: base-62, of a sane length.
    static func isPlausible(_ text: Substring) -> Bool {
        (1...64).contains(text.utf8.count) && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }
}
