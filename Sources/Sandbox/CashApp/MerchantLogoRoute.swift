import Foundation
import Hummingbird
import NIOCore

/// The image behind `requester_profile.logo_url`: the sandbox merchant's logo, a small PNG (the
/// real API always gives one, a `.png` or `.jpg` the Cash App shows beside the merchant's name).
struct MerchantLogoRoute {
    /// Where it is served (the route below spells the same path).
    static let path = "/sandbox/cashapp/merchant-logo.png"

    /// 32×32: a green square with a white bar.
    static let png = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAL0lEQVR42mNguOZPWzRqwagFoxaMWjCiLfhPIhi1gPoWjCbTUQtGLRi1YNQCEhAATiMKTC4njTcAAAAASUVORK5CYII=")!

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.get("sandbox/cashapp/merchant-logo.png") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "image/png", .cacheControl: "public, max-age=86400"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.png)))
        }
    }
}
