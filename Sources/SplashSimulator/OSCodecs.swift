import Foundation
import SplashFormat

/// The OS's image codecs in the simulator, called straight from the platform's own libraries, and
/// sharing nothing with splashgen's generator (SplashImaging), so the OS model decodes what the
/// generator wrote with code the generator did not use. Each platform file defines the same four
/// calls: `ASTCEncoder` (one context per render pass), `pixels(astc:width:height:)`,
/// `pixels(png:maxPixels:)`, `png(_:)` and `scaled(_:width:height:visible:)`.
///
/// - On Apple platforms (OSCodecs+Apple.swift): AppleTextureEncoder, the encoder family of the OS's
///   own ASTC, and ImageIO and Core Graphics, which the OS itself decodes and draws with. The
///   generator's Apple backend calls the same frameworks, so there the two sides share the libraries
///   (never the code that calls them): a misuse of a framework both make would pass on both.
/// - Elsewhere (OSCodecs+Linux.swift): ARM's astcenc stands for the OS's ASTC encoder and GPU
///   decoder, libpng (simplified API) for ImageIO's PNG, stb_image_resize for Core Animation's
///   image scaling.
package enum OSCodecs {}
