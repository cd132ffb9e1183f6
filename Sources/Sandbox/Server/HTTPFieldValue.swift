import HTTPTypes

extension HTTPFields {
    /// The value `self[name]` reads (several fields of the name joined by ", ", a cookie's by
    /// "; "), found in one pass over the fields. The subscript joins through the standard
    /// library's generic `joined`, which is not specialized here: 3,400 instructions a lookup,
    /// and a request served reads several headers (`make bench`'s P4).
    func value(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            if let earlier = found {
                found = earlier + (name == .cookie ? "; " : ", ") + field.value
            } else {
                found = field.value
            }
        }
        return found
    }
}
