import Foundation

extension ProviderCallFailure where ErrorBody: Decodable {
    /// An error answer read strictly, as Cash App's API and the sandbox's control API are: no
    /// body is `emptyBody`, a body that is not `ErrorBody` is undecodable with the field at fault.
    public static func strict(_ response: ProviderResponse, decoder: JSONDecoder = JSONDecoder()) -> Self {
        guard !response.body.isEmpty else { return .emptyBody(status: response.status) }
        do { return .api(status: response.status, body: try decoder.decode(ErrorBody.self, from: response.body)) } catch {
            return .undecodable(status: response.status, detail: ProviderHTTPClient.decodingDetail(error))
        }
    }
}

extension ProviderHTTPClient {
    /// A decoding error as the field at fault and why ("missing request.id").
    public static func decodingDetail(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return String(describing: error) }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "missing \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (path.isEmpty ? "" : "\(path): ") + context.debugDescription
        @unknown default:
            return String(describing: error)
        }
    }
}
