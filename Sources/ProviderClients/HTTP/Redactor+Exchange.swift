import ProviderWire

extension Redactor {
    /// A header as the HTTP log records it.
    public func header(name: String, value: String) -> HTTPExchange.Header {
        HTTPExchange.Header(name: name, value: headerValue(name: name, value: value))
    }
}
