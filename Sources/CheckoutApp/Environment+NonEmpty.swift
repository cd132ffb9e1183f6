extension Dictionary where Key == String, Value == String {
    /// The variable's value, or nil when it is unset or empty (as `FOO= cmd` leaves it).
    func nonEmpty(_ name: String) -> String? {
        self[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
