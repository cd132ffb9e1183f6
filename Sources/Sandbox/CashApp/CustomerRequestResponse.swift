import Foundation
import Hummingbird
import NIOCore
import ProviderWire

extension SandboxResponse {
    /// `{"request": …}`, written by hand when it can be (the same bytes, a fraction of the time).
    static func customerRequest(_ request: CustomerRequest, status: HTTPResponse.Status = .ok) -> Response {
        guard let bytes = CustomerRequestJSONWriter.envelope(request) else { return json(CustomerRequestEnvelope(request: request), status: status) }
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
