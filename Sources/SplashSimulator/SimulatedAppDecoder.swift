import Foundation
import SplashFormat

/// The simulated app's image decoder: what an app on a phone gets from ImageIO, here the simulated
/// OS's own parsing and codecs (``CachedFileCheck/astc(_:)`` for KTX and ATX, `OSCodecs` for ASTC
/// blocks and PNG), never the generator's decoder, so the applier's classifier is tested on pixels
/// splashgen did not decode. JPEG (a leftover some libraries write) has no codec here.
struct SimulatedAppDecoder: SnapshotPixelDecoder {
    func decode(_ data: Data) throws -> RGBAImage {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard let image = OSCodecs.pixels(png: data) else { throw SimulatorError.codec("the app cannot decode this PNG") }
            return image
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { throw SimulatorError.codec("the simulated app has no JPEG decoder") }
        let blocks = try CachedFileCheck.astc([UInt8](data))
        return try OSCodecs.pixels(astc: blocks.data, width: blocks.width, height: blocks.height)
    }
}
