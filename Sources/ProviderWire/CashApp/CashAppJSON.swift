import Foundation

/// JSON coding as the Customer Request API speaks it: explicit snake_case keys (so metadata
/// keys pass through untouched) and ISO 8601 dates with milliseconds, which is the project's
/// wire JSON.
public enum CashAppJSON {
    public static func encoder() -> JSONEncoder { WireJSON.encoder() }
    public static func decoder() -> JSONDecoder { WireJSON.decoder() }
}
