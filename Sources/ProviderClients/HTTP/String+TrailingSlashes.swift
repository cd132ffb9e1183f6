extension String {
    /// A base URL without the slashes it may end in, so paths can be appended with one.
    public var withoutTrailingSlashes: String {
        var text = Substring(self)
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
