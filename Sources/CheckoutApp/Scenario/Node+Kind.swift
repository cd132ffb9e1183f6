import Yams

extension Node {
    /// What a YAML node is, for messages: "expected a list, found text".
    var kindDescription: String {
        switch self {
        case .scalar: null != nil ? "nothing" : "text"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }
}
